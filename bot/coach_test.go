package bot

import (
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// TestPlayHintSaysWhoseAdvantage: the coach's play hint names who the
// expected pegging is measured against: the opponent, the others, or, at
// partnerships, the other side (the search counts a partner's points with
// the seat's).
func TestPlayHintSaysWhoseAdvantage(t *testing.T) {
	card := engine.MustParseCards("5H")[0]
	tests := []struct {
		name string
		opts engine.Options
		net  float64
		race bool
		want string
	}{
		{"two players", engine.Options{Players: 2, Target: 121}, 1.24, false, "you can expect to peg about 1.2 more than your opponent."},
		{"three players", engine.Options{Players: 3, Target: 121}, 0.5, false, "you can expect to peg about 0.5 more than the others."},
		{"partners", engine.Options{Players: 4, Partners: true, Target: 121}, 2, false, "your side can expect to peg about 2.0 more than the other side."},
		{"partners behind", engine.Options{Players: 4, Partners: true, Target: 121}, -1.5, false, "it holds the other side to about 1.5 more than your side, the least any card does."},
		{"two players racing", engine.Options{Players: 2, Target: 121}, 0, true, "this card gives you the best chance, about 62%, with the show still to come."},
		{"partners racing", engine.Options{Players: 4, Partners: true, Target: 121}, 0, true, "this card gives your side the best chance, about 62%, with the show still to come."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl := &cribbage.Table{Options: tt.opts}
			got := render.PlayHint(lang.English, tbl, engine.View{}, ai.PlayAdvice{Card: card, Net: tt.net, Racing: tt.race, Chance: 0.62})
			if !strings.HasSuffix(got, tt.want) {
				t.Errorf("hint %q, want it to end %q", got, tt.want)
			}
		})
	}
}

// TestDiscardHintSaysWhosePlay: the discard hint's note on the play term
// names whom it is measured against at each table.
func TestDiscardHintSaysWhosePlay(t *testing.T) {
	dealt := engine.SetOf(engine.MustParseCards("5H 5S JD QC 2H 9S")...)
	tests := []struct {
		name string
		opts engine.Options
		want string
	}{
		{"two players", engine.Options{Players: 2, Target: 121}, "less what your opponent pegs against them"},
		{"three players", engine.Options{Players: 3, Target: 121}, "less what the others peg on average"},
		{"partners", engine.Options{Players: 4, Partners: true, Target: 121}, "less what the other side pegs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hand := dealt
			if tt.opts.Players > 2 {
				hand = engine.SetOf(dealt.Cards()[:5]...)
			}
			got := render.DiscardHint(lang.English, tt.opts, ai.Splits(tt.opts, 0, 1, hand), 3)
			if !strings.Contains(got, tt.want) {
				t.Errorf("hint %q, want it to say %q", got, tt.want)
			}
		})
	}
}
