package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/engine"
)

// A player's numbers and milestones (cribbage.Numbers, cribbage.Milestone):
// written in the transaction of the move that finishes a game (or, for a
// milestone of a hand, of the move that shows it), from the game's log
// played again, and read back as sums.

// account plays a game that change ch finishes again from its log, the
// actions saved before and ch's own: its account, or nil when the log
// does not replay to the game (cribbage.ErrUnaccounted: a game made up in
// a test, or saved before its log was kept), whose numbers are left out.
// It reads outside the write transaction: the log before ch is never
// changed, and if the table has moved on since it was read, the save
// that would write what this returns fails as stale.
func (s *Store) account(ctx context.Context, cur *cribbage.Table, ch *cribbage.Change) (*cribbage.Account, error) {
	t := ch.Table
	if t.Status != cribbage.StatusFinished || cur.Status == cribbage.StatusFinished || t.State == nil || t.State.Result == nil || !t.HasPerson() {
		return nil, nil // nothing to account for, or nobody to account to
	}
	actions, err := s.Actions(ctx, cur.ID)
	if err != nil {
		return nil, err
	}
	a, err := t.Account(append(actions, ch.Actions...))
	if errors.Is(err, cribbage.ErrUnaccounted) {
		return nil, nil
	}
	return a, err
}

// recordNumbers writes finished table t's numbers from its account a: a
// game_numbers row a person and a deals row a throw, if the game counts
// (cribbage.Table.Counted).
func recordNumbers(ctx context.Context, tx *txn, t *cribbage.Table, a *cribbage.Account) error {
	if a == nil {
		return nil
	}
	var assisted int
	if err := tx.QueryRowContext(ctx, `SELECT assisted FROM tables WHERE id = ?`, t.ID).Scan(&assisted); err != nil {
		return err
	}
	if !t.Counted(assisted != 0) {
		return nil
	}
	lines := map[int]cribbage.PlayerResult{}
	for _, p := range t.Results() {
		lines[p.Seat] = p
	}
	at := millis(t.FinishedAt)
	for _, n := range t.NumbersOf(a) {
		p := lines[n.Seat]
		if _, err := tx.exec(ctx, `INSERT INTO game_numbers (table_id, seat, guild_id, user_id, finished_at, won,
			skunks_given, double_skunks_given, skunks_taken, double_skunks_taken,
			dealer_deals, dealer_pegging, dealer_hand, dealer_crib, pone_deals, pone_pegging, pone_hand)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, n.Seat, t.GuildID, n.UserID, at, boolInt(p.Won), p.SkunksGiven, p.DoubleSkunksGiven, p.SkunksTaken, p.DoubleSkunksTaken,
			n.Dealer.Deals, n.Dealer.Pegging, n.Dealer.Hand, n.Dealer.Crib, n.Pone.Deals, n.Pone.Pegging, n.Pone.Hand); err != nil {
			return fmt.Errorf("store: record numbers: %w", err)
		}
		for _, d := range a.Deals {
			if err := recordDeal(ctx, tx, t, d, n.Seat, at); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordDeal writes seat's line of deal d, if the seat threw in it.
func recordDeal(ctx context.Context, tx *txn, t *cribbage.Table, d cribbage.Deal, seat int, at int64) error {
	ds := d.Seats[seat]
	if ds.Thrown == 0 {
		return nil
	}
	best, bestCrib := -1, false
	if ds.HandShown {
		best = ds.Hand
	}
	if ds.CribShown && ds.Crib > best {
		best, bestCrib = ds.Crib, true
	}
	if _, err := tx.exec(ctx, `INSERT INTO deals (table_id, hand_no, seat, guild_id, user_id, players, dealer_seat, complete,
		dealt, thrown, starter, crib, pegging, hand_points, crib_points, best, best_crib, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.ID, d.Hand, seat, t.GuildID, t.Seats[seat].UserID, t.Options.Players, d.Dealer, boolInt(d.Complete),
		int64(ds.Dealt), int64(ds.Thrown), int(d.Starter), int64(d.Crib), ds.Pegging, ds.Hand, ds.Crib, best, boolInt(bestCrib), at); err != nil {
		return fmt.Errorf("store: record a deal: %w", err)
	}
	return nil
}

// recordMilestones records each milestone in earned that its person has
// not earned yet in the server, at at, and returns those it recorded. A
// milestone recorded already, by an earlier game or by another process at
// the same moment (whose insert this one waits for), writes nothing and
// is not returned: the caller announces what is returned, in the same
// transaction, so each milestone is announced once.
func recordMilestones(ctx context.Context, tx *txn, guildID string, earned []cribbage.Earned, at time.Time) ([]cribbage.Earned, error) {
	var out []cribbage.Earned
	for _, e := range earned {
		n, err := tx.affected(ctx, `INSERT INTO milestones (guild_id, user_id, milestone, table_id, earned_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (guild_id, user_id, milestone) DO NOTHING`, guildID, e.UserID, string(e.Milestone), e.TableID, millis(at))
		if err != nil {
			return nil, fmt.Errorf("store: record a milestone: %w", err)
		}
		if n == 1 {
			out = append(out, e)
		}
	}
	return out, nil
}

// announceMilestones records the milestones earned at table t and queues
// the news of those it recorded, after out, the change's own
// announcements (cribbage.MilestoneNews).
func (s *Store) announceMilestones(ctx context.Context, tx *txn, t *cribbage.Table, earned []cribbage.Earned, out []cribbage.Outbound, at time.Time) error {
	recorded, err := recordMilestones(ctx, tx, t.GuildID, earned, at)
	if err != nil {
		return err
	}
	var news []cribbage.Outbound
	for _, e := range recorded {
		news = append(news, cribbage.MilestoneNews(e, t.ChannelID, out))
	}
	return s.queue(ctx, tx, t.ID, news)
}

// careers reads the careers of the people at finished table t, its
// records written: games, wins against people, and streak.
func careers(ctx context.Context, tx *txn, t *cribbage.Table) (map[string]cribbage.Career, error) {
	out := map[string]cribbage.Career{}
	for _, u := range t.People() {
		var c cribbage.Career
		var wins *int64
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), SUM(CASE WHEN vs_computer = 0 THEN won ELSE 0 END) FROM player_results
			WHERE guild_id = ? AND user_id = ?`, t.GuildID, u).Scan(&c.Games, &wins); err != nil {
			return nil, err
		}
		if wins != nil {
			c.Wins = int(*wins)
		}
		streak, err := streakOf(ctx, tx, t.GuildID, u)
		if err != nil {
			return nil, err
		}
		c.Streak = streak
		out[u] = c
	}
	return out, nil
}

// recordGameEnd writes what finishing table t's game adds to its players'
// numbers and milestones, after its records: its account a's numbers, and
// the milestones its game earns.
func (s *Store) recordGameEnd(ctx context.Context, tx *txn, t *cribbage.Table, a *cribbage.Account, out []cribbage.Outbound) error {
	if err := recordNumbers(ctx, tx, t, a); err != nil {
		return err
	}
	c, err := careers(ctx, tx, t)
	if err != nil {
		return err
	}
	return s.announceMilestones(ctx, tx, t, cribbage.GameMilestones(t, a, c), out, t.FinishedAt)
}

// PlayerNumbers implements cribbage.RecordService.
func (s *Store) PlayerNumbers(ctx context.Context, guildID, userID string, since time.Time) (cribbage.Numbers, error) {
	var n cribbage.Numbers
	var err error
	// Two sums, all time and the recent range, each read from the
	// covering index: one grouped by period would sort every row first,
	// three times the work for a player of many games.
	if n.All, err = s.period(ctx, ``, guildID, userID); err != nil {
		return n, err
	}
	if n.Recent, err = s.period(ctx, ` AND finished_at >= ?`, guildID, userID, millis(since)); err != nil {
		return n, err
	}
	if n.Best, err = s.bestHands(ctx, guildID, userID); err != nil {
		return n, err
	}
	if n.Trend, err = s.trend(ctx, guildID, userID); err != nil {
		return n, err
	}
	if n.Milestones, err = s.milestones(ctx, guildID, userID); err != nil {
		return n, err
	}
	err = s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM deals WHERE guild_id = ? AND user_id = ? AND reviewed = 0`, guildID, userID).Scan(&n.Unreviewed)
	return n, err
}

// period adds up a player's game_numbers rows, those that also match
// where (with its arguments after the server and player).
func (s *Store) period(ctx context.Context, where string, args ...any) (cribbage.Period, error) {
	var p cribbage.Period
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(won), 0),
		COALESCE(SUM(skunks_given + double_skunks_given), 0), COALESCE(SUM(double_skunks_given), 0),
		COALESCE(SUM(skunks_taken + double_skunks_taken), 0), COALESCE(SUM(double_skunks_taken), 0),
		COALESCE(SUM(dealer_deals), 0), COALESCE(SUM(dealer_pegging), 0), COALESCE(SUM(dealer_hand), 0), COALESCE(SUM(dealer_crib), 0),
		COALESCE(SUM(dealer_throws), 0), COALESCE(SUM(dealer_given_up), 0),
		COALESCE(SUM(pone_deals), 0), COALESCE(SUM(pone_pegging), 0), COALESCE(SUM(pone_hand), 0),
		COALESCE(SUM(pone_throws), 0), COALESCE(SUM(pone_given_up), 0)
		FROM game_numbers WHERE guild_id = ? AND user_id = ?`+where, args...).Scan(
		&p.Games, &p.Wins, &p.SkunksGiven, &p.DoubleSkunksGiven, &p.SkunksTaken, &p.DoubleSkunksTaken,
		&p.Dealer.Deals, &p.Dealer.Pegging, &p.Dealer.Hand, &p.Dealer.Crib, &p.Dealer.Throws, &p.Dealer.GivenUp,
		&p.Pone.Deals, &p.Pone.Pegging, &p.Pone.Hand, &p.Pone.Throws, &p.Pone.GivenUp)
	return p, err
}

// bestHands reads a player's three best hands or cribs.
func (s *Store) bestHands(ctx context.Context, guildID, userID string) ([]cribbage.BestHand, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT best, best_crib, dealt, thrown, crib, starter, table_id, finished_at FROM deals
		WHERE guild_id = ? AND user_id = ? AND best >= 0 ORDER BY best DESC, finished_at DESC, table_id DESC, hand_no DESC LIMIT 3`, guildID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.BestHand
	for rows.Next() {
		var b cribbage.BestHand
		var crib int
		var dealt, thrown, cards, at int64
		var starter int
		if err := rows.Scan(&b.Points, &crib, &dealt, &thrown, &cards, &starter, &b.TableID, &at); err != nil {
			return nil, err
		}
		b.Crib, b.Starter, b.At = crib != 0, engine.Card(starter), fromMillis(at)
		b.Cards = engine.CardSet(dealt) &^ engine.CardSet(thrown)
		if b.Crib {
			b.Cards = engine.CardSet(cards)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// trend reads a player's last counted games, oldest first.
func (s *Store) trend(ctx context.Context, guildID, userID string) ([]cribbage.TrendGame, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT table_id, finished_at, dealer_deals + pone_deals,
		dealer_pegging + dealer_hand + dealer_crib + pone_pegging + pone_hand, dealer_throws + pone_throws, dealer_given_up + pone_given_up
		FROM game_numbers WHERE guild_id = ? AND user_id = ? ORDER BY finished_at DESC, table_id DESC LIMIT ?`, guildID, userID, cribbage.TrendGames)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.TrendGame
	for rows.Next() {
		var g cribbage.TrendGame
		var at int64
		if err := rows.Scan(&g.TableID, &at, &g.Deals, &g.Points, &g.Throws, &g.GivenUp); err != nil {
			return nil, err
		}
		g.At = fromMillis(at)
		out = append(out, g)
	}
	slices.Reverse(out)
	return out, rows.Err()
}

// milestones reads a player's milestones in the order earned.
func (s *Store) milestones(ctx context.Context, guildID, userID string) ([]cribbage.EarnedMilestone, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT milestone, table_id, earned_at FROM milestones WHERE guild_id = ? AND user_id = ?
		`, guildID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.EarnedMilestone
	for rows.Next() {
		var m cribbage.EarnedMilestone
		var name string
		var at int64
		if err := rows.Scan(&name, &m.TableID, &at); err != nil {
			return nil, err
		}
		m.Milestone, m.At = cribbage.Milestone(name), fromMillis(at)
		out = append(out, m)
	}
	cribbage.SortMilestones(out)
	return out, rows.Err()
}

// UnreviewedThrows implements cribbage.RecordService: one player's in a
// server, or anyone's when userID is empty, oldest game first.
func (s *Store) UnreviewedThrows(ctx context.Context, guildID, userID string, limit int) ([]cribbage.Throw, error) {
	query := `SELECT table_id, hand_no, seat, dealer_seat, players, dealt, thrown FROM deals WHERE reviewed = 0`
	args := []any{}
	if userID != "" {
		query += ` AND guild_id = ? AND user_id = ?`
		args = append(args, guildID, userID)
	}
	query += ` ORDER BY finished_at, table_id, hand_no, seat LIMIT ?`
	rows, err := s.db.QueryContext(ctx, query, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.Throw
	for rows.Next() {
		var th cribbage.Throw
		var dealt, thrown int64
		if err := rows.Scan(&th.TableID, &th.Hand, &th.Seat, &th.Dealer, &th.Options.Players, &dealt, &thrown); err != nil {
			return nil, err
		}
		th.Options.Target = 121
		th.Dealt, th.Thrown = engine.CardSet(dealt), engine.CardSet(thrown)
		out = append(out, th)
	}
	return out, rows.Err()
}

// ReviewThrows implements cribbage.RecordService: each throw is marked
// reviewed with what it gave up, and counted into its game's numbers in
// the same transaction; a throw reviewed already (by another process at
// the same moment) is left as it is, and counted once.
func (s *Store) ReviewThrows(ctx context.Context, reviews []cribbage.ThrowReview) error {
	if len(reviews) == 0 {
		return nil
	}
	return s.inTx(ctx, func(tx *txn) error {
		for _, r := range reviews {
			var dealer int
			err := tx.QueryRowContext(ctx, `SELECT dealer_seat FROM deals WHERE table_id = ? AND hand_no = ? AND seat = ? AND reviewed = 0`,
				r.TableID, r.Hand, r.Seat).Scan(&dealer)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			n, err := tx.affected(ctx, `UPDATE deals SET reviewed = 1, given_up = ? WHERE table_id = ? AND hand_no = ? AND seat = ? AND reviewed = 0`,
				r.GivenUp, r.TableID, r.Hand, r.Seat)
			if err != nil {
				return err
			}
			if n != 1 {
				continue // reviewed meanwhile, by another process
			}
			role := "pone"
			if dealer == r.Seat {
				role = "dealer"
			}
			if _, err := tx.exec(ctx, `UPDATE game_numbers SET `+role+`_throws = `+role+`_throws + 1, `+role+`_given_up = `+role+`_given_up + ?
				WHERE table_id = ? AND seat = ?`, r.GivenUp, r.TableID, r.Seat); err != nil {
				return fmt.Errorf("store: count a review: %w", err)
			}
		}
		return nil
	})
}

// numbersMigration is the migration that brought numbers and milestones
// in.
const numbersMigration = "0021_numbers.sql"

// accountHistory accounts for the games finished before numbers were
// kept, in the order they finished, as they would have been accounted
// for then: each counted game's numbers, and the milestones every game
// earned — recorded quietly, as the news of an old game would come long
// after it — with each person's career as it stood after the game. A
// game whose log does not replay keeps its records and gets no numbers.
func accountHistory(ctx context.Context, tx *txn) error {
	var ids []int64
	rows, err := tx.QueryContext(ctx, `SELECT id FROM tables WHERE status = 'finished' ORDER BY finished_at, id`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	h := history{careers: map[[2]string]cribbage.Career{}}
	for _, id := range ids {
		if err := h.account(ctx, tx, id); err != nil {
			return fmt.Errorf("store: account for table %d: %w", id, err)
		}
	}
	return championsOfHistory(ctx, tx)
}

// history is the careers accountHistory has counted so far, by server and
// person.
type history struct {
	careers map[[2]string]cribbage.Career
}

// account accounts for finished table id.
func (h *history) account(ctx context.Context, tx *txn, id int64) error {
	plain := func(_, _ int64, raw string) (*engine.State, error) { return engine.Unmarshal([]byte(raw)) }
	t, err := scanTable(tx.QueryRowContext(ctx, selectTable, id), plain)
	if err != nil {
		return err
	}
	if t.State == nil || t.State.Result == nil {
		return nil
	}
	if err := loadSeats(ctx, tx, []*cribbage.Table{t}); err != nil {
		return err
	}
	actions, err := actionsOf(ctx, tx, id)
	if err != nil {
		return err
	}
	a, err := t.Account(actions)
	if err != nil && !errors.Is(err, cribbage.ErrUnaccounted) {
		return err
	}
	careers := map[string]cribbage.Career{}
	for _, p := range t.Results() {
		k := [2]string{t.GuildID, p.UserID}
		c := h.careers[k]
		c.Games++
		if !t.HasComputer() {
			c.Wins += boolInt(p.Won)
			c.Streak = nextStreak(c.Streak, p.Won)
		}
		h.careers[k], careers[p.UserID] = c, c
	}
	if err := recordNumbers(ctx, tx, t, a); err != nil {
		return err
	}
	earned := cribbage.GameMilestones(t, a, careers)
	if a != nil {
		earned = append(a.Earned, earned...)
	}
	_, err = recordMilestones(ctx, tx, t.GuildID, earned, t.FinishedAt)
	return err
}

// nextStreak is a streak (streakOf) after a game won or lost.
func nextStreak(streak int, won bool) int {
	switch {
	case won && streak > 0:
		return streak + 1
	case won:
		return 1
	case streak < 0:
		return streak - 1
	}
	return -1
}

// championsOfHistory records the TournamentWon of each tournament
// finished before milestones were kept, quietly.
func championsOfHistory(ctx context.Context, tx *txn) error {
	rows, err := tx.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM tournaments WHERE status = 'finished' ORDER BY finished_at, id`)
	if err != nil {
		return err
	}
	var done []*cribbage.Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			rows.Close()
			return err
		}
		done = append(done, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range done {
		if _, _, err := champion(ctx, tx, &cribbage.Tournament{}, t); err != nil {
			return err
		}
	}
	return nil
}

// champion records the TournamentWon of the champion a change from
// before to t crowns (cribbage.ChampionMilestone), if it is new, and
// returns it with the tournament's last table, whose record tells it.
func champion(ctx context.Context, tx *txn, before, t *cribbage.Tournament) (*cribbage.Table, []cribbage.Earned, error) {
	if t.Champion == "" || before.Champion != "" {
		return nil, nil, nil
	}
	plain := func(_, _ int64, raw string) (*engine.State, error) { return engine.Unmarshal([]byte(raw)) }
	last, err := scanTable(tx.QueryRowContext(ctx, `SELECT `+tableColumns+` FROM tables WHERE tournament_id = ? ORDER BY id DESC LIMIT 1`, t.ID), plain)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	e, ok := cribbage.ChampionMilestone(before, t, last)
	if !ok {
		return nil, nil, nil
	}
	at := t.FinishedAt
	if at.IsZero() {
		at = last.FinishedAt
	}
	recorded, err := recordMilestones(ctx, tx, t.GuildID, []cribbage.Earned{e}, at)
	return last, recorded, err
}

// announceChampion records the champion a tournament's change crowns,
// and queues its news in its last table's record.
func (s *Store) announceChampion(ctx context.Context, tx *txn, before, t *cribbage.Tournament) error {
	last, recorded, err := champion(ctx, tx, before, t)
	if err != nil || len(recorded) == 0 {
		return err
	}
	return s.queue(ctx, tx, last.ID, []cribbage.Outbound{cribbage.MilestoneNews(recorded[0], last.ChannelID, nil)})
}
