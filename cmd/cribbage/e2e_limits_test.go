package main

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot"
	"github.com/cribbage-bot/cribbage/internal/discordtest"
	"github.com/cribbage-bot/cribbage/internal/servicetest"
)

// gate holds the bot's writes back until two have come: armed, the first
// two CreateTable calls (or Update calls at the tables named) wait for
// each other. Whatever the bot reads before writing, both commands have
// read it before either writes, as two commands at the same instant can.
type gate struct {
	bot.Store
	mu      sync.Mutex
	creates bool
	tables  []int64
	arrived int
	all     chan struct{}
}

// arm makes the next two CreateTable calls, or Update calls at tables,
// meet.
func (g *gate) arm(creates bool, tables ...int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.creates, g.tables, g.arrived, g.all = creates, tables, 0, make(chan struct{})
}

// meet waits for the other write, if this one is held.
func (g *gate) meet(ctx context.Context, held bool) {
	g.mu.Lock()
	if !held || g.all == nil || g.arrived == 2 {
		g.mu.Unlock()
		return
	}
	g.arrived++
	all := g.all
	if g.arrived == 2 {
		close(all)
	}
	g.mu.Unlock()
	select {
	case <-all:
	case <-ctx.Done():
	}
}

func (g *gate) CreateTable(ctx context.Context, t *cribbage.Table, interactionID string, out []cribbage.Outbound, hold cribbage.Hold) (*cribbage.Table, error) {
	g.mu.Lock()
	held := g.creates
	g.mu.Unlock()
	g.meet(ctx, held)
	return g.Store.CreateTable(ctx, t, interactionID, out, hold)
}

func (g *gate) Update(ctx context.Context, id int64, interactionID string, fn func(t *cribbage.Table) (*cribbage.Change, error)) (*cribbage.Table, error) {
	g.mu.Lock()
	held := slices.Contains(g.tables, id)
	g.mu.Unlock()
	g.meet(ctx, held)
	return servicetest.Update(ctx, g.Store, id, interactionID, fn)
}

// TestLimitsHoldUnderARace: the server's limit of open tables, and one
// open challenge from one person to another, hold when two commands come
// at the same instant, each having found room before the other wrote: one
// is done and the other refused, on SQLite and on PostgreSQL.
func TestLimitsHoldUnderARace(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// setup prepares the race, and returns its two interactions and
		// the tables whose writes race (none: the race makes tables).
		setup   func(h *harness) ([2]*discordgo.Interaction, []int64)
		refusal string
	}{
		{"two starts", func(h *harness) ([2]*discordgo.Interaction, []int64) {
			h.admin(ada, "settings", discordtest.Opt{Name: "max-open-tables", Value: 1})
			start := func() *discordgo.Interaction { return discordtest.Command(testGuild, testChannel, alice, "start") }
			return [2]*discordgo.Interaction{start(), start()}, nil
		}, "the most it allows"},
		{"two joins", func(h *harness) ([2]*discordgo.Interaction, []int64) {
			h.admin(ada, "settings", discordtest.Opt{Name: "max-open-tables", Value: 1})
			bobs, bobsMsg := h.open(bob)
			carols, carolsMsg := h.open(carol)
			return [2]*discordgo.Interaction{
				discordtest.Click(testGuild, testChannel, alice, bobsMsg, "/join/"+itoa64(bobs)),
				discordtest.Click(testGuild, testChannel, alice, carolsMsg, "/join/"+itoa64(carols)),
			}, []int64{bobs, carols}
		}, "the most it allows"},
		{"two challenges", func(h *harness) ([2]*discordgo.Interaction, []int64) {
			challenge := func() *discordgo.Interaction {
				return discordtest.Command(testGuild, testChannel, alice, "challenge", discordtest.Opt{Name: "user", Value: bob})
			}
			return [2]*discordgo.Interaction{challenge(), challenge()}, nil
		}, "already challenged them"},
	}
	databases := []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"sqlite", func(*testing.T) string { return "" }},
		{"postgres", func(t *testing.T) string { return postgresSchema(t) }},
	}
	for _, db := range databases {
		for _, tc := range tests {
			t.Run(db.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				url := db.url(t)
				g := &gate{}
				h := newHarnessWith(t, func(h *harness) {
					h.databaseURL = url
					h.wrapStore = func(s bot.Store) bot.Store { g.Store = s; return g }
				})
				race, tables := tc.setup(h)
				g.arm(len(tables) == 0, tables...)
				var wg sync.WaitGroup
				answers := make([]discordtest.Answer, 2)
				errs := make([]error, 2)
				for k, i := range race {
					wg.Add(1)
					go func() {
						defer wg.Done()
						answers[k], errs[k] = h.fake.Interact(t.Context(), i)
					}()
				}
				wg.Wait()
				refused := 0
				for k, a := range answers {
					if errs[k] != nil {
						t.Fatal(errs[k])
					}
					if a.Ephemeral() && strings.Contains(a.Content(), tc.refusal) {
						refused++
					}
				}
				if refused != 1 {
					t.Errorf("%d of the two refused, want one: %q, %q", refused, answers[0].Content(), answers[1].Content())
				}
				if open, _ := h.store.PlayerTables(t.Context(), testGuild, alice.ID); len(open) != 1 {
					t.Errorf("Alice sits at %d open tables, want 1", len(open))
				}
			})
		}
	}
}
