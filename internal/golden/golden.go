// Package golden holds a test's output to a golden file under testdata,
// and rewrites the files when the test runs with -update. It is for tests
// only: the renderers' golden files in bot/render, bot/club, bot/daily and
// bot/tournament.
package golden

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// JSON compares v, as indented JSON, with testdata/render/name.
func JSON(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	Bytes(t, name, append(got, '\n'))
}

// Bytes compares got with testdata/render/name, or writes it there under
// -update.
func Bytes(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "render", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		if strings.HasSuffix(name, ".png") {
			got = nil // not text
		}
		t.Errorf("%s differs from the golden file; if the change is meant, rewrite it with -update and review the diff:\n%s", name, got)
	}
}
