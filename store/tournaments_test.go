package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// fullTournament is a tournament with every field set, as the store
// would leave it after a finish at the clock's time.
func fullTournament(t *testing.T) *cribbage.Tournament {
	t.Helper()
	tr := &cribbage.Tournament{
		GuildID: "g1", ChannelID: "c1", HostID: "host", Name: "Club open", GamesPerRound: 2, Rounds: 3, Points: 61,
		Status:   cribbage.TournamentSignup,
		Entrants: []cribbage.Entrant{{UserID: "alice", Name: "Alice"}, {UserID: "cpu1", Name: "Computer", Computer: "easy"}},
		Round:    3,
		Pairings: []cribbage.Pairing{{Round: 1, A: "alice", B: "cpu1"}, {Round: 2, A: "cpu1"}},
		Playoff:  [][]cribbage.PlayoffMatch{{{A: "alice", B: "cpu1", Winner: "alice"}}},
		Champion: "alice", Ended: 7, CancelledBy: "ada",
	}
	return tr
}

// TestTournamentStateKeepsEveryField: every field of a tournament comes
// back from the store as it went in, whether its column or its state
// holds it. A field added to cribbage.Tournament and not to
// tournamentState fails here rather than vanishing on the next load.
func TestTournamentStateKeepsEveryField(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, _ := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	want := fullTournament(t)
	created, err := s.CreateTournament(ctx, want, "i1")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.MarkTournamentShown(ctx, created.ID, "m1", 1); err != nil {
		t.Fatal(err)
	}
	c.t = c.t.Add(time.Hour)
	from, err := s.Tournament(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	next := from.Clone()
	next.Status = cribbage.TournamentFinished
	saved, err := s.SaveTournament(ctx, from, &cribbage.TournamentChange{Tournament: next}, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Tournament(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	want.ID, want.Status, want.Version = created.ID, cribbage.TournamentFinished, saved.Version
	want.CreatedAt, want.FinishedAt = c.t.Add(-time.Hour), c.t
	v := reflect.ValueOf(*want)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Errorf("the test leaves %s unset: set it, and store it", v.Type().Field(i).Name)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stored and loaded:\n got %+v\nwant %+v", got, want)
	}
	if m, err := s.TournamentMessage(ctx, created.ID); m != "m1" || err != nil {
		t.Errorf("the message after a change: %q, %v; want m1", m, err)
	}
}

// TestUntaggedTournamentsAreRetagged: a tournament stored before
// tournamentState, as cribbage.Tournament's JSON under its Go field
// names, loads whole once migration 0019 has rewritten it.
func TestUntaggedTournamentsAreRetagged(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	s, path := MustOpen(t, WithClock(c.now))
	ctx := context.Background()
	// The state exactly as 0018's store wrote it, columns and all.
	old := `{"ID":5,"GuildID":"g1","ChannelID":"c1","MessageID":"m1","HostID":"host","Name":"Club open","GamesPerRound":2,` +
		`"Rounds":3,"Points":61,"Status":"finished","Version":4,` +
		`"Entrants":[{"user_id":"alice","name":"Alice"},{"user_id":"cpu1","name":"Computer","computer":"easy"}],` +
		`"Round":3,"Pairings":[{"round":1,"a":"alice","b":"cpu1"},{"round":2,"a":"cpu1"}],` +
		`"Playoff":[[{"a":"alice","b":"cpu1","winner":"alice"}]],"Champion":"alice","ended":7,"CancelledBy":"ada",` +
		`"CreatedAt":"2026-11-01T12:00:00Z","FinishedAt":"2026-11-01T13:00:00Z"}`
	created, finished := c.t, c.t.Add(time.Hour)
	mustWrite(t, s, fmt.Sprintf(`INSERT INTO tournaments (id, guild_id, channel_id, message_id, status, version, shown_version, state, created_at, finished_at)
		VALUES (5, 'g1', 'c1', 'm1', 'finished', 4, 4, '%s', %d, %d)`, old, millis(created), millis(finished)),
		`DELETE FROM schema_migrations WHERE name = '`+tournamentStateMigration+`'`)
	s.Close()
	again, err := reopen(ctx, path, WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	got, err := again.Tournament(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := fullTournament(t)
	want.ID, want.Status, want.Version, want.CreatedAt, want.FinishedAt = 5, cribbage.TournamentFinished, 4, created, finished
	if !reflect.DeepEqual(got, want) {
		t.Errorf("an old row loaded:\n got %+v\nwant %+v", got, want)
	}
	if m, err := again.TournamentMessage(ctx, 5); m != "m1" || err != nil {
		t.Errorf("an old row's message: %q, %v; want m1", m, err)
	}
}
