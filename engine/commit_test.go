package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCommitmentIsSHA256OfTheSeed(t *testing.T) {
	// Known answers: SHA-256 of 32 zero bytes, and of the bytes 0x01, 0, ….
	for _, tc := range []struct {
		seed Seed
		want string
	}{
		{Seed{}, "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"},
		{SeedFromUint64(1), "01d0fabd251fcbbe2b93b4b927b26ad2a1a99077152e45ded1e678afa45dbec5"},
	} {
		if got := tc.seed.Commitment(); got != tc.want {
			t.Errorf("commitment of %s = %s, want %s", tc.seed, got, tc.want)
		}
	}
}

func TestParseSeedReadsWhatStringWrites(t *testing.T) {
	seed := SeedFromUint64(0xfeedface)
	got, err := ParseSeed(" " + strings.ToUpper(seed.String()) + "\n")
	if err != nil || got != seed {
		t.Fatalf("ParseSeed(%s) = %s, %v", seed, got, err)
	}
	for _, bad := range []string{"", "00", strings.Repeat("0", 63), strings.Repeat("0", 66), strings.Repeat("g", 64)} {
		if _, err := ParseSeed(bad); err == nil {
			t.Errorf("ParseSeed(%q) took it", bad)
		}
	}
}

func FuzzParseSeed(f *testing.F) {
	f.Add(SeedFromUint64(7).String())
	f.Add("zz")
	f.Fuzz(func(t *testing.T, s string) {
		seed, err := ParseSeed(s)
		if err != nil {
			return
		}
		if again, err := ParseSeed(seed.String()); err != nil || again != seed {
			t.Fatalf("%q read as %s, which reads back as %s, %v", s, seed, again, err)
		}
	})
}

// TestDealMatchesTheGame checks that Deal, which anyone can run on a
// revealed seed, gives exactly the cards the game dealt: every hand, the
// crib's card and the starter, at every table size and every dealer.
func TestDealMatchesTheGame(t *testing.T) {
	for _, opts := range []Options{{Players: 2, Target: 121}, {Players: 3, Target: 121}, {Players: 4, Target: 121}, {Players: 4, Partners: true, Target: 121}} {
		g, _, err := New(opts, SeedFromUint64(3))
		if err != nil {
			t.Fatal(err)
		}
		next := seedCounter(100)
		for hand := 0; hand < 6 && g.Phase != PhaseOver; {
			a := firstLegal(g, next)
			if a.Kind == ActDeal {
				seed := *a.Seed
				after, events, err := g.Apply(a)
				if err != nil {
					t.Fatal(err)
				}
				d := Deal(seed, opts.Players)
				for i, h := range d.Hands {
					if seat := (g.Dealer + 1 + i) % opts.Players; after.Hands[seat] != h {
						t.Errorf("%d players, hand %d: seat %d was dealt %s, Deal says %s", opts.Players, after.HandNo, seat, FormatCards(after.Hands[seat].Cards()), FormatCards(h.Cards()))
					}
				}
				if after.Crib != d.Crib || after.Starter != d.Starter || after.Stock != d.Stock {
					t.Errorf("%d players: crib, starter or stock differ from Deal", opts.Players)
				}
				if events[0].Commitment != seed.Commitment() {
					t.Errorf("the deal event commits to %q, want %s", events[0].Commitment, seed.Commitment())
				}
				g, hand = after, hand+1
				continue
			}
			if g, _, err = g.Apply(a); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSeedIsRevealedOnlyWhenTheHandIsOver plays whole games and checks the
// seed of a hand appears in no event before the hand is over, and in none
// of the players' views at all; then that it is revealed, and matches the
// commitment published at the deal.
func TestSeedIsRevealedOnlyWhenTheHandIsOver(t *testing.T) {
	for _, opts := range []Options{{Players: 2, Target: 121}, {Players: 3, Target: 61, ManualCounting: true}} {
		g, _, err := New(opts, SeedFromUint64(9))
		if err != nil {
			t.Fatal(err)
		}
		next := seedCounter(500)
		commitments := map[int]string{}
		revealed := 0
		for steps := 0; g.Phase != PhaseOver; steps++ {
			if steps > 5000 {
				t.Fatal("the game did not end")
			}
			var events []Event
			if g, events, err = g.Apply(firstLegal(g, next)); err != nil {
				t.Fatal(err)
			}
			if g.DealSeed != nil {
				secret := g.DealSeed.String()
				for seat := range opts.Players {
					v, _ := json.Marshal(g.ViewFor(seat))
					if strings.Contains(string(v), secret) || strings.Contains(string(v), "deal_seed") {
						t.Fatalf("seat %d's view shows the hand's seed", seat)
					}
				}
			}
			for _, e := range events {
				switch {
				case e.Kind == EvDeal:
					commitments[e.N] = e.Commitment
				case e.Seed != nil:
					if e.Kind != EvHandOver && e.Kind != EvGameOver {
						t.Fatalf("a %s event reveals a seed", e.Kind)
					}
					if got := e.Seed.Commitment(); got != commitments[e.N] {
						t.Fatalf("hand %d's revealed seed commits to %s, but the deal published %s", e.N, got, commitments[e.N])
					}
					revealed++
				}
			}
		}
		if want := len(commitments); revealed != want {
			t.Errorf("%d hands dealt, %d seeds revealed", want, revealed)
		}
		if g.HandNo != len(commitments) {
			t.Errorf("HandNo %d, %d commitments", g.HandNo, len(commitments))
		}
	}
}
