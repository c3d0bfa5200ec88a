package cribbage

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage/engine"
)

// A tournament as it is run: sign-up, qualifying rounds paired from the
// standings, and a best-of-3 playoff for the top quarter. Its games are
// tables like any other, each linked back to the tournament
// (Table.Tournament); the tournament's results are read from those tables
// whenever it advances, never kept twice. Advance is the one step that
// moves a tournament on — the next game of a pairing, the next round, the
// playoff, the champion — and it is idempotent: run it after any of its
// games ends, after a restart, or from a timer on any replica, and the
// store's version check lets exactly one run open each table.

// TournamentStatus is where a tournament stands.
type TournamentStatus string

// The statuses of a tournament.
const (
	TournamentSignup     TournamentStatus = "signup"     // entrants sign up
	TournamentQualifying TournamentStatus = "qualifying" // Swiss rounds
	TournamentPlayoff    TournamentStatus = "playoff"    // best-of-3 knock-out
	TournamentFinished   TournamentStatus = "finished"   // a champion
	TournamentCancelled  TournamentStatus = "cancelled"  // an admin ended it
)

// Open reports whether the tournament is still going on.
func (s TournamentStatus) Open() bool {
	return s == TournamentSignup || s == TournamentQualifying || s == TournamentPlayoff
}

// The limits of a tournament.
const (
	// MinEntrants is the smallest field a tournament starts with: two
	// pairings a round, so the Swiss pairing has a choice.
	MinEntrants = 4
	// MaxEntrants bounds a field to what a server's club plays, and what
	// a standings message can show.
	MaxEntrants = 32
	// MaxRounds bounds the qualifying rounds.
	MaxRounds = 9
	// PlayoffBestOf is the length of every playoff match.
	PlayoffBestOf = 3
)

// GamesPerRound are the games each pairing of a qualifying round may
// play: one, or two with the deal alternating.
var GamesPerRound = []int{1, 2}

// The errors of tournaments.
var (
	ErrTournamentNotFound = errors.New("cribbage: no such tournament")
	ErrSignupClosed       = errors.New("cribbage: sign-up is closed")
	ErrAlreadyEntered     = errors.New("cribbage: already signed up")
	ErrNotEntered         = errors.New("cribbage: not signed up")
	ErrTournamentFull     = errors.New("cribbage: the tournament is full")
	ErrFewEntrants        = errors.New("cribbage: too few entrants to start")
	ErrTournamentOver     = errors.New("cribbage: the tournament is over")
	// ErrTournamentGame means a rematch of a tournament's game: the
	// tournament decides who plays next.
	ErrTournamentGame  = errors.New("cribbage: a tournament game has no rematch")
	ErrTournamentSetup = errors.New("cribbage: a tournament needs a name, 1 or 2 games a round, 1 to 9 rounds, and 61 or 121 points")
)

// Entrant is a tournament's player: a person, or a computer player of a
// level standing in (Computer names it; UserID is then a name of its own,
// "computer:N", never a Discord id).
type Entrant struct {
	UserID   string `json:"user_id"`
	Name     string `json:"name"`
	Computer string `json:"computer,omitempty"`
}

// Pairing is one pairing of a qualifying round: A and B play
// GamesPerRound games; B is empty for A's bye.
type Pairing struct {
	Round int    `json:"round"`
	A     string `json:"a"`
	B     string `json:"b,omitempty"`
}

// PlayoffMatch is one match of the playoff, between seeds' entrants: B is
// empty for A's bye. Winner is set once it is decided.
type PlayoffMatch struct {
	A      string `json:"a"`
	B      string `json:"b,omitempty"`
	Winner string `json:"winner,omitempty"`
}

// TournamentLink ties a table to its tournament: the qualifying round (or
// playoff round, when Playoff) and the pairing's index in it, and the
// game's number within the pairing (qualifying) or match (playoff).
type TournamentLink struct {
	ID      int64 `json:"id"`
	Round   int   `json:"round"`
	Pairing int   `json:"pairing"`
	Playoff bool  `json:"playoff,omitempty"`
	Game    int   `json:"game"`
}

// Tournament is a tournament and where it stands. Its standings message
// on Discord is the MessageBook's (TournamentMessage), not the
// tournament's.
type Tournament struct {
	ID            int64
	GuildID       string
	ChannelID     string
	HostID        string
	Name          string
	GamesPerRound int
	Rounds        int
	Points        int
	Status        TournamentStatus
	Version       int64
	Entrants      []Entrant
	// Round is the qualifying round being played, from 1; Pairings are
	// every round's so far.
	Round    int
	Pairings []Pairing
	// Playoff holds the playoff's rounds once it begins, the first as
	// Bracket seeds it.
	Playoff  [][]PlayoffMatch
	Champion string
	// Ended counts its tables whose game is over, as of its last change:
	// a game's end changes the tournament (and so its message is shown
	// again) even when it opens nothing.
	Ended int `json:"ended,omitempty"`
	// CancelledBy is the admin who cancelled it.
	CancelledBy string
	CreatedAt   time.Time
	FinishedAt  time.Time
}

// NewTournament checks a tournament's setup and returns it open for
// sign-up.
func NewTournament(name string, gamesPerRound, rounds, points int) (*Tournament, error) {
	if name == "" || len([]rune(name)) > 60 || !slices.Contains(GamesPerRound, gamesPerRound) ||
		rounds < 1 || rounds > MaxRounds || (points != 61 && points != 121) {
		return nil, ErrTournamentSetup
	}
	return &Tournament{Name: name, GamesPerRound: gamesPerRound, Rounds: rounds, Points: points, Status: TournamentSignup}, nil
}

// Clone returns a copy that shares nothing with t.
func (t *Tournament) Clone() *Tournament {
	c := *t
	c.Entrants = slices.Clone(t.Entrants)
	c.Pairings = slices.Clone(t.Pairings)
	if t.Playoff != nil {
		c.Playoff = make([][]PlayoffMatch, len(t.Playoff))
		for i, r := range t.Playoff {
			c.Playoff[i] = slices.Clone(r)
		}
	}
	return &c
}

// Equal reports whether t and u are alike in every field: a step that
// leaves a tournament Equal to what it was has nothing to save.
func (t *Tournament) Equal(u *Tournament) bool {
	return t.ID == u.ID && t.GuildID == u.GuildID && t.ChannelID == u.ChannelID &&
		t.HostID == u.HostID && t.Name == u.Name && t.GamesPerRound == u.GamesPerRound && t.Rounds == u.Rounds &&
		t.Points == u.Points && t.Status == u.Status && t.Version == u.Version && slices.Equal(t.Entrants, u.Entrants) &&
		t.Round == u.Round && slices.Equal(t.Pairings, u.Pairings) && slices.EqualFunc(t.Playoff, u.Playoff, slices.Equal) &&
		t.Champion == u.Champion && t.Ended == u.Ended && t.CancelledBy == u.CancelledBy &&
		t.CreatedAt.Equal(u.CreatedAt) && t.FinishedAt.Equal(u.FinishedAt)
}

// Entrant returns the entrant with userID, or nil.
func (t *Tournament) Entrant(userID string) *Entrant {
	for i := range t.Entrants {
		if t.Entrants[i].UserID == userID {
			return &t.Entrants[i]
		}
	}
	return nil
}

// SignUp enters e, while sign-up is open.
func (t *Tournament) SignUp(e Entrant) error {
	switch {
	case t.Status != TournamentSignup:
		return ErrSignupClosed
	case t.Entrant(e.UserID) != nil:
		return ErrAlreadyEntered
	case len(t.Entrants) >= MaxEntrants:
		return ErrTournamentFull
	}
	t.Entrants = append(t.Entrants, e)
	return nil
}

// Withdraw takes userID's entry back, while sign-up is open.
func (t *Tournament) Withdraw(userID string) error {
	if t.Status != TournamentSignup {
		return ErrSignupClosed
	}
	i := slices.IndexFunc(t.Entrants, func(e Entrant) bool { return e.UserID == userID })
	if i < 0 {
		return ErrNotEntered
	}
	t.Entrants = slices.Delete(t.Entrants, i, i+1)
	return nil
}

// Cancel ends an open tournament for an admin. Its open tables are the
// bot's to cancel; their games count for nothing.
func (t *Tournament) Cancel(by string) error {
	if !t.Status.Open() {
		return ErrTournamentOver
	}
	t.Status, t.CancelledBy = TournamentCancelled, by
	return nil
}

// Start closes sign-up and pairs the first round (Advance opens its
// tables). The first round is seeded in sign-up order.
func (t *Tournament) Start() error {
	switch {
	case t.Status != TournamentSignup:
		return ErrSignupClosed
	case len(t.Entrants) < MinEntrants:
		return fmt.Errorf("%w: %d of %d", ErrFewEntrants, len(t.Entrants), MinEntrants)
	}
	t.Status = TournamentQualifying
	return nil
}

// ids are the entrants' ids in sign-up order.
func (t *Tournament) ids() []string {
	out := make([]string, len(t.Entrants))
	for i, e := range t.Entrants {
		out[i] = e.UserID
	}
	return out
}

// Games returns the finished qualifying games among tables (the
// tournament's), in table order. A cancelled table is no game.
func (t *Tournament) Games(tables []*Table) []TournamentGame {
	var out []TournamentGame
	for _, tb := range tables {
		l := tb.Tournament
		if l == nil || l.ID != t.ID || l.Playoff || tb.Status != StatusFinished || tb.State == nil || tb.State.Result == nil {
			continue
		}
		r := tb.State.Result
		w, lo := r.Winner, 1-r.Winner
		out = append(out, TournamentGame{
			Round: l.Round, Winner: tb.Seats[w].UserID, Loser: tb.Seats[lo].UserID,
			GamePoints: GamePoints(r), Spread: r.Scores[w] - r.Scores[lo],
		})
	}
	return out
}

// Standings ranks the entrants on the qualifying games among tables.
func (t *Tournament) Standings(tables []*Table) []TournamentStanding {
	byes := map[string]int{}
	for _, p := range t.Pairings {
		if p.B == "" {
			byes[p.A]++
		}
	}
	return TournamentStandings(t.ids(), t.Games(tables), byes)
}

// TableSpec is a table a tournament opens: who sits, and the game it
// follows (the pairing's or match's previous table, whose deal it passes
// on), if any.
type TableSpec struct {
	Link  TournamentLink
	Seats []Seat
	After *Table
	Match bool
}

// Advance moves the tournament on from its tables: it returns the tables
// to open now, and changes t (the next round, the playoff, a playoff
// match decided, the champion, or only a count of its games ended, Ended).
// Nothing to do returns nothing; run again, it opens nothing twice, since
// the tables it opened are among tables.
func (t *Tournament) Advance(tables []*Table) ([]TableSpec, error) {
	t.Ended = 0
	for _, tb := range tables {
		if !tb.Status.Open() {
			t.Ended++
		}
	}
	var open []TableSpec
	for steps := 0; steps < 2*MaxRounds+8; steps++ {
		var more []TableSpec
		var moved bool
		var err error
		switch t.Status {
		case TournamentQualifying:
			more, moved, err = t.advanceQualifying(tables)
		case TournamentPlayoff:
			more, moved = t.advancePlayoff(tables)
		default:
			return open, nil
		}
		if err != nil {
			return nil, err
		}
		open = append(open, more...)
		if !moved || len(more) > 0 {
			return open, nil
		}
	}
	return open, nil
}

// ofPairing returns the tables of one pairing (qualifying) or match
// (playoff), by game.
func ofPairing(tables []*Table, playoff bool, round, pairing int) []*Table {
	var out []*Table
	for _, tb := range tables {
		if l := tb.Tournament; l != nil && l.Playoff == playoff && l.Round == round && l.Pairing == pairing {
			out = append(out, tb)
		}
	}
	slices.SortFunc(out, func(a, b *Table) int { return a.Tournament.Game - b.Tournament.Game })
	return out
}

// dealtFrom is the table whose deal a pairing's next game passes on: the
// last, unless it was cancelled before a game began.
func dealtFrom(last *Table) *Table {
	if last.State == nil {
		return nil
	}
	return last
}

// seat is the seat an entrant takes.
func (t *Tournament) seat(id string) Seat {
	e := t.Entrant(id)
	if e == nil {
		return Seat{UserID: id, Name: id}
	}
	if e.Computer != "" {
		return Seat{UserID: e.UserID, Name: e.Name, Computer: e.Computer}
	}
	return Seat{UserID: e.UserID, Name: e.Name}
}

// advanceQualifying opens the round's next games, or when the round is
// over pairs the next one (or seeds the playoff). moved reports a change
// to t.
func (t *Tournament) advanceQualifying(tables []*Table) (open []TableSpec, moved bool, err error) {
	if t.Round == 0 {
		return t.pairRound(tables)
	}
	done := true
	for i, p := range t.Pairings {
		if p.Round != t.Round || p.B == "" {
			continue
		}
		games := ofPairing(tables, false, t.Round, i)
		if len(games) == 0 {
			open = append(open, TableSpec{Link: TournamentLink{ID: t.ID, Round: t.Round, Pairing: i, Game: 1}, Seats: []Seat{t.seat(p.A), t.seat(p.B)}})
			done = false
			continue
		}
		last := games[len(games)-1]
		if last.Status.Open() {
			done = false
			continue
		}
		if len(games) < t.GamesPerRound {
			open = append(open, TableSpec{Link: TournamentLink{ID: t.ID, Round: t.Round, Pairing: i, Game: len(games) + 1}, Seats: slices.Clone(last.Seats), After: dealtFrom(last)})
			done = false
		}
	}
	if !done {
		return open, false, nil
	}
	if t.Round < t.Rounds {
		return t.pairRound(tables)
	}
	t.seedPlayoff(tables)
	return nil, true, nil
}

// pairRound pairs the next qualifying round from the standings. When no
// pairing avoids a repeat (more rounds than the field has opponents), the
// qualifying ends there and the playoff begins.
func (t *Tournament) pairRound(tables []*Table) ([]TableSpec, bool, error) {
	met := map[[2]string]bool{}
	for _, p := range t.Pairings {
		if p.B != "" {
			met[[2]string{p.A, p.B}], met[[2]string{p.B, p.A}] = true, true
		}
	}
	pairs, bye, err := PairRound(t.Standings(tables), func(a, b string) bool { return met[[2]string{a, b}] })
	if errors.Is(err, ErrNoPairing) && t.Round > 0 {
		t.seedPlayoff(tables)
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	t.Round++
	var open []TableSpec
	for _, p := range pairs {
		t.Pairings = append(t.Pairings, Pairing{Round: t.Round, A: p[0], B: p[1]})
		open = append(open, TableSpec{Link: TournamentLink{ID: t.ID, Round: t.Round, Pairing: len(t.Pairings) - 1, Game: 1}, Seats: []Seat{t.seat(p[0]), t.seat(p[1])}})
	}
	if bye != "" {
		t.Pairings = append(t.Pairings, Pairing{Round: t.Round, A: bye})
	}
	return open, true, nil
}

// seedPlayoff seeds the top quarter of the standings into the bracket.
func (t *Tournament) seedPlayoff(tables []*Table) {
	st := t.Standings(tables)
	seeds := st[:min(len(st), Qualifiers(len(st)))]
	var first []PlayoffMatch
	for _, b := range Bracket(len(seeds)) {
		m := PlayoffMatch{A: seeds[b[0]].UserID}
		if b[1] < 0 {
			m.Winner = m.A
		} else {
			m.B = seeds[b[1]].UserID
		}
		first = append(first, m)
	}
	t.Status, t.Playoff = TournamentPlayoff, [][]PlayoffMatch{first}
}

// PlayoffRounds is how many rounds the playoff has in all, the final
// last: one for a final alone, two with semi-finals, and so on. It is 0
// before the playoff is seeded.
func (t *Tournament) PlayoffRounds() int {
	if len(t.Playoff) == 0 {
		return 0
	}
	return bits.Len(uint(len(t.Playoff[0])))
}

// advancePlayoff decides the current playoff round's matches from their
// tables, opens those not yet opened, and when all are decided makes the
// next round, or crowns the champion.
func (t *Tournament) advancePlayoff(tables []*Table) (open []TableSpec, moved bool) {
	round := len(t.Playoff)
	cur := t.Playoff[round-1]
	for i := range cur {
		m := &cur[i]
		if m.Winner != "" {
			continue
		}
		games := ofPairing(tables, true, round, i)
		if len(games) == 0 {
			open = append(open, TableSpec{Link: TournamentLink{ID: t.ID, Round: round, Pairing: i, Playoff: true, Game: 1}, Seats: []Seat{t.seat(m.A), t.seat(m.B)}, Match: true})
			continue
		}
		if w := matchWinner(games, t.placed(tables)); w != "" {
			m.Winner, moved = w, true
		}
	}
	if len(open) > 0 || slices.ContainsFunc(cur, func(m PlayoffMatch) bool { return m.Winner == "" }) {
		return open, moved
	}
	if len(cur) == 1 {
		t.Champion, t.Status = cur[0].Winner, TournamentFinished
		return nil, true
	}
	next := make([]PlayoffMatch, 0, len(cur)/2)
	for i := 0; i+1 < len(cur); i += 2 {
		next = append(next, PlayoffMatch{A: cur[i].Winner, B: cur[i+1].Winner})
	}
	t.Playoff = append(t.Playoff, next)
	return nil, true
}

// matchWinner is the winner of a playoff match played at games (its
// tables by game), or empty while it is on. A match an admin cancelled
// goes to the player placed higher in the standings (place), as a
// tournament director would rule a match that cannot be finished.
func matchWinner(games []*Table, place func(id string) int) string {
	last := games[len(games)-1]
	switch {
	case last.Status == StatusCancelled || last.Status == StatusClosed:
		a, b := last.Seats[0].UserID, last.Seats[1].UserID
		if place(b) < place(a) {
			return b
		}
		return a
	case last.Status != StatusFinished || last.Match == nil || !last.Match.Over():
		return ""
	}
	return last.Seats[last.Match.Winner()].UserID
}

// placed returns each entrant's place in the qualifying standings, from 0.
func (t *Tournament) placed(tables []*Table) func(id string) int {
	st := t.Standings(tables)
	return func(id string) int {
		return slices.IndexFunc(st, func(s TournamentStanding) bool { return s.UserID == id })
	}
}

// OpenTable begins the table spec s describes, a new table the store
// gives its id when it saves the change returned: a pairing's later game
// and a match's follow the deal on (StartRematch); a first game cuts for
// deal. Its game is begun, not played: a game between two computer
// entrants is played by Continue once the table is saved, never in the
// transaction that opens it.
func (t *Tournament) OpenTable(s TableSpec, env Env) (*Change, error) {
	link := s.Link
	next := &Table{GuildID: t.GuildID, ChannelID: t.ChannelID, HostID: t.HostID,
		Options: engine.Options{Players: 2, Target: t.Points}, Seats: slices.Clone(s.Seats), Tournament: &link}
	if s.Match {
		m, err := NewMatch(PlayoffBestOf, next.Options)
		if err != nil {
			return nil, err
		}
		next.Match = m
	}
	var ch *Change
	var err error
	if s.After != nil {
		ch, _, err = StartRematch(s.After, next, env)
	} else {
		var g *engine.State
		var events []engine.Event
		if g, events, err = cut(next, env); err == nil {
			ch, _, err = begin(next, g, events, env)
		}
	}
	if err != nil {
		return nil, err
	}
	ch.Follows = s.After
	return ch, nil
}

// ComputerClaim is a tournament computer entrant's claim of the win at a
// game whose people have let it wait the forfeit time, as a person would
// claim it (engine.ActForfeit: a win, never a skunk): nobody else could,
// and the round would wait for ever. It claims by a person's rule: the
// table has waited the forfeit time after (ForfeitDue at env.Now), and
// not on the computer's side (LateSeat). A game not yet due, not waiting
// on people, or with no computer on another side, gives a nil change.
func ComputerClaim(t *Table, after time.Duration, env Env) (*Change, error) {
	if t.Tournament == nil || t.State == nil || !t.ForfeitDue(env.Now, after) {
		return nil, nil
	}
	for i, s := range t.Seats {
		if s.Computer == "" {
			continue
		}
		late, err := t.LateSeat(i)
		if err != nil || late < 0 {
			continue // its own side keeps the table waiting, or nobody does
		}
		a := engine.Action{Kind: engine.ActForfeit, Seat: i, Other: late}
		g, events, err := t.State.Apply(a)
		if err != nil {
			return nil, err
		}
		ch, _, err := settle(t, g, []LoggedAction{{UserID: s.UserID, Action: a}}, events, env)
		return ch, err
	}
	return nil, nil
}
