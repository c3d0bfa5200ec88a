package bot

import (
	"strconv"
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

// TestLeaderboardShowsTopTenAndYourPlace: twelve players, the caller 12th.
func TestLeaderboardShowsTopTenAndYourPlace(t *testing.T) {
	var board []Standing
	for i := 1; i <= 12; i++ {
		board = append(board, Standing{Rank: i, UserID: "u" + strconv.Itoa(i), Name: "P" + strconv.Itoa(i), Games: 10, Wins: 13 - i, Losses: i - 3, GamesWon: 13 - i})
	}
	desc := renderLeaderboard(board, "all time", "u12").Embeds[0].Description
	lines := strings.Split(desc, "\n")
	if len(lines) != 12 || !strings.HasPrefix(lines[0], "**1.** P1") || lines[10] != "…" || !strings.HasPrefix(lines[11], "**12.** P12") {
		t.Errorf("board:\n%s", desc)
	}
	if strings.Contains(desc, "P11") {
		t.Error("rank 11 shown though the caller is 12th")
	}
	if d := renderLeaderboard(board, "all time", "u3").Embeds[0].Description; strings.Count(d, "\n") != 9 {
		t.Errorf("a top-ten caller gets extra lines:\n%s", d)
	}
}
