package main

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBoardCommandWritesAPicture(t *testing.T) {
	out := filepath.Join(t.TempDir(), "board.png")
	code, stdout, stderr := runCLI(t, context.Background(), nil, "board", "--scores", "121,88", "--back", "115,80", "--names", "Alice,Bob", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, out) {
		t.Errorf("stdout %q does not name the file", stdout)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if w := img.Bounds().Dx(); w != 800 {
		t.Errorf("the board is %d px wide, want 800", w)
	}
}

func TestBoardFlags(t *testing.T) {
	b, err := boardFromFlags("121,88", "", "Alice, Bob", 121, "")
	if err != nil {
		t.Fatal(err)
	}
	if !b.Sides[0].Winner || b.Sides[1].Skunk != 1 || b.Sides[1].Name != "Bob" {
		t.Errorf("121 to 88: %+v, want Alice winning and Bob skunked", b.Sides)
	}
	if b, _ := boardFromFlags("61,20", "", "", 61, ""); b.Sides[1].Skunk != 1 || b.Sides[0].Name != "Side 1" {
		t.Errorf("61 to 20: %+v, want side 2 skunked", b.Sides)
	}
	for _, tc := range []struct{ scores, back, names string }{
		{"", "", ""},
		{"87", "", ""},
		{"1,2,3,4,5", "", ""},
		{"87,x", "", ""},
		{"87,122", "", ""},
		{"-1,5", "", ""},
		{"121,121", "", ""},
		{"87,102", "90,95", ""},
		{"87,102", "80", ""},
		{"87,102", "", "Alice"},
	} {
		if _, err := boardFromFlags(tc.scores, tc.back, tc.names, 121, ""); err == nil {
			t.Errorf("--scores %q --back %q --names %q was taken", tc.scores, tc.back, tc.names)
		}
	}
	if _, err := boardFromFlags("10,20", "", "", 100, ""); err == nil {
		t.Error("--target 100 was taken")
	}
}
