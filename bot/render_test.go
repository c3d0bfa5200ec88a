package bot

import (
	"strings"
	"testing"

	"github.com/cribbage-bot/cribbage/engine"
)

// TestRenderTableInEveryStatus renders tables with and without a game.
func TestRenderTableInEveryStatus(t *testing.T) {
	g, _, _ := engine.New(engine.Options{Players: 2, Target: 121}, engine.SeedFromUint64(1))
	seats := []Seat{{UserID: "1", Name: "Alice"}, {UserID: "2", Name: "Bob"}}
	for _, tc := range []struct {
		name  string
		table Table
		want  string
	}{
		{"lobby", Table{ID: 1, Status: StatusLobby, Options: engine.Options{Players: 2, Target: 121}, Seats: seats[:1], HostID: "1"}, "Waiting for 1 more player"},
		{"closed lobby", Table{ID: 2, Status: StatusClosed, Options: engine.Options{Players: 2, Target: 121}}, "closed"},
		{"playing", Table{ID: 3, Status: StatusPlaying, Options: g.Options, Seats: seats, State: g}, "Waiting for **Alice**"},
	} {
		r := renderTable(&tc.table)
		if len(r.Embeds) != 1 || !strings.Contains(r.Embeds[0].Description, tc.want) {
			t.Errorf("%s: %+v", tc.name, r.Embeds[0].Description)
		}
	}
}
