package servicetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/cribbage-bot/cribbage"
)

// testHoldsUnderARace: limits on a person's tables (cribbage.Hold) hold
// when many writes that would break them come at once, whether they make
// tables (CreateTable) or seat someone (Update): as many succeed as the
// limit leaves room for, and the rest are refused with the hold's error.
// Tables in another server, and tables over, take no room.
func testHoldsUnderARace(t *testing.T, h *harness) {
	limit := cribbage.Hold{MaxOpenTables: 2, People: []string{"alice"}}
	tests := []struct {
		name string
		// setup makes what the writes race over, in guild g; its tables
		// are the ones the writes seat alice at, if any.
		setup func(t *testing.T, g string) []*cribbage.Table
		// write is the k-th of the racing writes.
		write   func(g string, k int, tables []*cribbage.Table) error
		want    int
		refusal error
	}{
		{"starts", func(t *testing.T, g string) []*cribbage.Table { return nil },
			func(g string, k int, _ []*cribbage.Table) error {
				_, err := h.s.CreateTable(ctx, lobby(g, "alice"), fmt.Sprint(g, "-start-", k), nil, limit)
				return err
			}, 2, cribbage.ErrTooManyTables},
		{"joins", func(t *testing.T, g string) []*cribbage.Table {
			var lobbies []*cribbage.Table
			for k := range 8 {
				l := lobby(g, fmt.Sprint("host-", k))
				l.Options.Players = 2
				lobbies = append(lobbies, h.create(t, l, ""))
			}
			return lobbies
		}, func(g string, k int, lobbies []*cribbage.Table) error {
			_, err := Update(ctx, h.s, lobbies[k].ID, fmt.Sprint(g, "-join-", k), func(cur *cribbage.Table) (*cribbage.Change, error) {
				cur.Seats = append(cur.Seats, cribbage.Seat{UserID: "alice", Name: "Alice"})
				return &cribbage.Change{Table: cur, Hold: limit}, nil
			})
			return err
		}, 2, cribbage.ErrTooManyTables},
		{"challenges", func(t *testing.T, g string) []*cribbage.Table { return nil },
			func(g string, k int, _ []*cribbage.Table) error {
				c := lobby(g, "alice")
				c.Options.Players, c.Challenge = 2, &cribbage.Challenge{UserID: "bob", Name: "Bob"}
				_, err := h.s.CreateTable(ctx, c, fmt.Sprint(g, "-challenge-", k), nil, cribbage.Hold{OneChallenge: true})
				return err
			}, 1, cribbage.ErrChallengedAgain},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := "g-" + tc.name
			// Neither a table in another server nor one that is over
			// takes room.
			h.create(t, lobby("elsewhere", "alice"), "")
			h.finish(t, h.startGame(t, lobby(g, "alice", "bob")).ID)
			tables := tc.setup(t, g)
			var wg sync.WaitGroup
			var mu sync.Mutex
			made, refused := 0, 0
			for k := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					err := tc.write(g, k, tables)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err == nil:
						made++
					case errors.Is(err, tc.refusal):
						refused++
					default:
						t.Errorf("write %d: %v", k, err)
					}
				}()
			}
			wg.Wait()
			if made != tc.want || refused != 8-tc.want {
				t.Errorf("%d made, %d refused; want %d made and %d refused", made, refused, tc.want, 8-tc.want)
			}
			open, err := h.s.PlayerTables(ctx, g, "alice")
			if err != nil {
				t.Fatal(err)
			}
			if len(open) != tc.want {
				t.Errorf("alice sits at %d open tables in %s, want %d", len(open), g, tc.want)
			}
		})
	}
}

// testHoldsOnlyWhatTheyName: a limit refuses nothing it does not name. A
// full limit refuses a new table, not a move at a table already sat at;
// one open challenge to bob leaves room for one to carol, and for bob's
// to alice; and a challenge answered is not open.
func testHoldsOnlyWhatTheyName(t *testing.T, h *harness) {
	one := cribbage.Hold{MaxOpenTables: 1, People: []string{"alice"}}
	sat, err := h.s.CreateTable(ctx, lobby("g", "alice"), "", nil, one)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.s.CreateTable(ctx, lobby("g", "alice"), "", nil, one); !errors.Is(err, cribbage.ErrTooManyTables) {
		t.Errorf("a second table past the limit: %v, want ErrTooManyTables", err)
	}
	if _, err := Update(ctx, h.s, sat.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		cur.HostID = "alice"
		return &cribbage.Change{Table: cur, Hold: one}, nil
	}); err != nil {
		t.Errorf("a change at the table sat at, at the limit: %v", err)
	}
	challenge := func(from, to string) (*cribbage.Table, error) {
		c := lobby("g2", from)
		c.Options.Players, c.Challenge = 2, &cribbage.Challenge{UserID: to}
		return h.s.CreateTable(ctx, c, "", nil, cribbage.Hold{OneChallenge: true})
	}
	first, err := challenge("alice", "bob")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to string }{{"alice", "carol"}, {"bob", "alice"}} {
		if _, err := challenge(c.from, c.to); err != nil {
			t.Errorf("%s's challenge to %s beside alice's to bob: %v", c.from, c.to, err)
		}
	}
	if _, err := challenge("alice", "bob"); !errors.Is(err, cribbage.ErrChallengedAgain) {
		t.Errorf("alice's second challenge to bob: %v, want ErrChallengedAgain", err)
	}
	if _, err := Update(ctx, h.s, first.ID, "", func(cur *cribbage.Table) (*cribbage.Change, error) {
		cur.Challenge.Outcome, cur.Status = cribbage.ChallengeDeclined, cribbage.StatusClosed
		return &cribbage.Change{Table: cur}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := challenge("alice", "bob"); err != nil {
		t.Errorf("alice's challenge to bob once the first was declined: %v", err)
	}
}
