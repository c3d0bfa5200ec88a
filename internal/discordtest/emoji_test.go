package discordtest

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "regenerate emoji_table.go from Unicode's emoji data")

// TestEmojiTable checks the committed table against Unicode's own list, when
// Debian's unicode-data package is installed (.ci/run installs it).
func TestEmojiTable(t *testing.T) {
	f, err := os.Open(emojiTestFile)
	if err != nil {
		t.Skipf("no Unicode emoji data (apt-get install unicode-data): %v", err)
	}
	defer f.Close()
	seqs, err := parseEmojiTest(f)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writeEmojiTable(&buf, seqs); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("emoji_table.go", buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile("emoji_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, buf.Bytes()) {
		t.Error("emoji_table.go is not what Unicode's data generates: run go generate ./internal/discordtest")
	}
}

func TestIsEmoji(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"🃏", true},  // U+1F0CF PLAYING CARD BLACK JOKER is an emoji
		{"🂠", false}, // U+1F0A0 PLAYING CARD BACK is not
		{"💡", true},
		{"♥️", true},  // heart suit with VS16
		{"♥", true},   // and without: unqualified, still an emoji
		{"👍🏽", true},  // skin tone sequence
		{"1️⃣", true}, // keycap
		{"🇬🇧", true},  // flag
		{"👩‍💻", true}, // ZWJ sequence
		{"🃏🃏", false}, // two emoji
		{"A", false},
		{"", false},
		{"🏽", false}, // a skin tone alone is a component
		{"card", false},
	}
	for _, tt := range tests {
		if got := isEmoji(tt.name); got != tt.want {
			t.Errorf("isEmoji(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
