package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestScoreCommand(t *testing.T) {
	code, stdout, _ := runCLI(t, context.Background(), nil, "score", "3H", "4D", "4C", "5S", "--starter", "KC")
	if code != 0 || !strings.Contains(stdout, "fifteen two and a double run of three is ten") || !strings.Contains(stdout, "total 10") {
		t.Errorf("exit %d, stdout:\n%s", code, stdout)
	}
}

func TestScoreCommandJSON(t *testing.T) {
	tests := []struct {
		args  []string
		total int
		items int
	}{
		{[]string{"--json", "5H", "5D", "5C", "JS", "--starter", "5S"}, 29, 8 + 6 + 1},
		{[]string{"--crib", "--json", "2H", "4H", "6H", "QH", "--starter", "KS"}, 0, 0},
		{[]string{"--json", "2h", "4♥", "6H", "10h", "--starter", "K♠"}, 4, 1},
	}
	for _, tc := range tests {
		code, stdout, stderr := runCLI(t, context.Background(), nil, append([]string{"score"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		var out scoreOutput
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, stdout)
		}
		if out.Total != tc.total || len(out.Items) != tc.items || len(out.Hand) != 4 {
			t.Errorf("%v: total %d with %d items, want %d with %d", tc.args, out.Total, len(out.Items), tc.total, tc.items)
		}
	}
}

func TestScoreCommandRefusesBadHands(t *testing.T) {
	for _, args := range [][]string{
		{"5H", "5D", "5C", "JS"},                          // no starter
		{"5H", "5D", "5C", "--starter", "5S"},             // three cards
		{"5H", "5D", "5C", "JS", "2C", "--starter", "5S"}, // five cards
		{"5H", "5H", "5C", "JS", "--starter", "5S"},       // duplicate
		{"5H", "5D", "5C", "JS", "--starter", "5H"},       // starter in the hand
		{"5H", "5D", "5C", "1S", "--starter", "5S"},       // not a card
	} {
		code, stdout, stderr := runCLI(t, context.Background(), nil, append([]string{"score"}, args...)...)
		if code != exitUsage || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || stderr == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}
