package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/rating"
)

// Ratings: each finished game the domain rates (cribbage.Table.Rated)
// moves its players' ratings, as the domain says it is rated
// (cribbage.RatingBouts), in the transaction that records its result
// (recordResult), in the server's current season.

// ratingSystem is the Glicko-2 system the bot rates with: the paper's
// (τ 0.5; a newcomer is 1500 with RD 350 and volatility 0.06).
var ratingSystem = rating.Config{}

// storedRating is a player's row in ratings.
type storedRating struct {
	rating.Rating
	games   int
	ratedAt time.Time
}

// at returns the rating as it stands at now: one idle period for each
// whole cribbage.RatingIdle since the last rated game, up to a
// newcomer's RD.
func (r storedRating) at(now time.Time) rating.Rating {
	return rating.IdlePeriods(r.Rating, int(now.Sub(r.ratedAt)/cribbage.RatingIdle), ratingSystem)
}

// bouts returns what the domain rates a game between the players of lines
// as, in the rating package's terms.
func bouts(lines []cribbage.PlayerResult) []rating.Bout[string] {
	var out []rating.Bout[string]
	for _, b := range cribbage.RatingBouts(lines) {
		out = append(out, rating.Bout[string](b))
	}
	return out
}

// currentSeason returns the number of a server's current season: the last
// one an admin started, or 1.
func currentSeason(ctx context.Context, q querier, guildID string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(number), 1) FROM seasons WHERE guild_id = ?`, guildID).Scan(&n)
	return n, err
}

// seasonForResult returns the season a game finishing in tx counts in:
// the server's current one, which stays current until tx ends
// (lockSeason), so a game never lands in a season started before it
// finished.
func seasonForResult(ctx context.Context, tx *txn, guildID string) (int, error) {
	if err := tx.c.d.lockSeason(ctx, tx, guildID, false); err != nil {
		return 0, err
	}
	return currentSeason(ctx, tx, guildID)
}

// rateResult rates a finished game between people in tx: it reads each
// player's rating in the season (a newcomer's if none), as it stands at
// the game's end, and writes each rating after the game with one more
// game counted.
func rateResult(ctx context.Context, tx *txn, guildID string, season int, players []cribbage.PlayerResult, at time.Time) error {
	users := make([]string, len(players))
	for i, p := range players {
		users[i] = p.UserID
	}
	// In one order, so that two games finishing at once with the same
	// players (PostgreSQL lets them) lock the rows without deadlocking.
	slices.Sort(users)
	before := map[string]rating.Rating{}
	for _, u := range users {
		r, err := lockRating(ctx, tx, guildID, season, u, at)
		if err != nil {
			return err
		}
		before[u] = r.at(at)
	}
	after := rating.RateBouts(before, bouts(players), ratingSystem)
	for _, u := range users {
		r, ok := after[u]
		if !ok {
			continue
		}
		if _, err := tx.exec(ctx, `UPDATE ratings SET r = ?, rd = ?, volatility = ?, games = games + 1, rated_at = ?
			WHERE guild_id = ? AND season = ? AND user_id = ?`, r.R, r.RD, r.Volatility, millis(at), guildID, season, u); err != nil {
			return fmt.Errorf("store: save rating: %w", err)
		}
	}
	return nil
}

// lockRating reads a player's rating in a season for the transaction to
// change, first writing a newcomer's if there is none. The write comes
// first, and touches the row if it is there, so that on PostgreSQL the row
// is locked before it is read: a game finishing at the same moment at
// another table waits, and rates the player from this game's result
// rather than from the rating before it.
func lockRating(ctx context.Context, tx *txn, guildID string, season int, userID string, at time.Time) (storedRating, error) {
	n := ratingSystem.Newcomer()
	if _, err := tx.exec(ctx, `INSERT INTO ratings (guild_id, season, user_id, r, rd, volatility, games, rated_at)
		VALUES (?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (guild_id, season, user_id) DO UPDATE SET games = ratings.games`,
		guildID, season, userID, n.R, n.RD, n.Volatility, millis(at)); err != nil {
		return storedRating{}, fmt.Errorf("store: new rating: %w", err)
	}
	r, err := scanRating(tx.QueryRowContext(ctx, `SELECT r, rd, volatility, games, rated_at FROM ratings
		WHERE guild_id = ? AND season = ? AND user_id = ?`, guildID, season, userID))
	if err != nil {
		return storedRating{}, fmt.Errorf("store: rating of %s: %w", userID, err)
	}
	return r, nil
}

// scanRating reads r, rd, volatility, games and rated_at, refusing a
// rating the algorithm cannot work with.
func scanRating(row interface{ Scan(...any) error }) (storedRating, error) {
	var r storedRating
	var at int64
	if err := row.Scan(&r.R, &r.RD, &r.Volatility, &r.games, &at); err != nil {
		return r, err
	}
	r.ratedAt = fromMillis(at)
	return r, r.Validate()
}

// errNoRating is a rating row that is not there.
var errNoRating = errors.New("store: no rating")

// loadRating returns a player's rating row in a season, or errNoRating.
func loadRating(ctx context.Context, q querier, guildID string, season int, userID string) (storedRating, error) {
	r, err := scanRating(q.QueryRowContext(ctx, `SELECT r, rd, volatility, games, rated_at FROM ratings
		WHERE guild_id = ? AND season = ? AND user_id = ?`, guildID, season, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return r, errNoRating
	}
	return r, err
}

// seasonRatings returns every rating row of a server's season, by user.
func seasonRatings(ctx context.Context, q querier, guildID string, season int) (map[string]storedRating, error) {
	rows, err := q.QueryContext(ctx, `SELECT user_id, r, rd, volatility, games, rated_at FROM ratings
		WHERE guild_id = ? AND season = ?`, guildID, season)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]storedRating{}
	for rows.Next() {
		var user string
		var r storedRating
		var at int64
		if err := rows.Scan(&user, &r.R, &r.RD, &r.Volatility, &r.games, &at); err != nil {
			return nil, err
		}
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("store: rating of %s: %w", user, err)
		}
		r.ratedAt = fromMillis(at)
		out[user] = r
	}
	return out, rows.Err()
}

// shownRating is a stored rating as players see it: in the current season
// as it stands at now (widened by the weeks since the last game), in a
// past one as the season left it. A player with no row (ok false) is a
// newcomer.
func shownRating(r storedRating, ok, current bool, now time.Time) cribbage.Rating {
	if !ok {
		r = storedRating{Rating: ratingSystem.Newcomer()}
	}
	shown := r.Rating
	if current {
		shown = r.at(now)
	}
	return cribbage.Rating{R: shown.R, RD: shown.RD, Games: r.games, Provisional: shown.Provisional(rating.ProvisionalRD)}
}

// finishMigration holds the migrations that SQL alone cannot finish: each
// runs in its migration's transaction, after its statements.
var finishMigration = map[string]func(ctx context.Context, tx *txn) error{
	ratingsMigration:         rateHistory,
	tournamentStateMigration: retagTournaments,
	numbersMigration:         accountHistory,
}

// ratingsMigration is the migration that brought ratings in.
const ratingsMigration = "0016_ratings.sql"

// rateHistory rates the games between people finished before there were
// ratings, in the order they finished, exactly as they would have been
// rated then: a server's history counts in its season 1, and the
// leaderboard it had keeps its players.
func rateHistory(ctx context.Context, tx *txn) error {
	games, err := pastGames(ctx, tx)
	if err != nil {
		return err
	}
	type key struct{ guild, user string }
	rated := map[key]storedRating{}
	for _, g := range games {
		before := map[string]rating.Rating{}
		for _, p := range g.players {
			r, ok := rated[key{g.guild, p.UserID}]
			if !ok {
				r = storedRating{Rating: ratingSystem.Newcomer()}
			}
			before[p.UserID] = r.at(g.at)
		}
		for u, r := range rating.RateBouts(before, bouts(g.players), ratingSystem) {
			k := key{g.guild, u}
			rated[k] = storedRating{Rating: r, games: rated[k].games + 1, ratedAt: g.at}
		}
	}
	for k, r := range rated {
		if _, err := tx.exec(ctx, `INSERT INTO ratings (guild_id, season, user_id, r, rd, volatility, games, rated_at)
			VALUES (?, 1, ?, ?, ?, ?, ?, ?)`, k.guild, k.user, r.R, r.RD, r.Volatility, r.games, millis(r.ratedAt)); err != nil {
			return fmt.Errorf("store: rate the games before ratings: %w", err)
		}
	}
	return nil
}

// pastGame is a finished game between people, as its records tell it.
type pastGame struct {
	guild   string
	at      time.Time
	players []cribbage.PlayerResult
}

// pastGames reads every finished game between people, in the order they
// finished.
func pastGames(ctx context.Context, tx *txn) ([]pastGame, error) {
	rows, err := tx.QueryContext(ctx, `SELECT table_id, guild_id, finished_at, user_id, side, won FROM player_results
		WHERE vs_computer = 0 ORDER BY finished_at, table_id, seat`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []pastGame
	last := int64(-1)
	for rows.Next() {
		var table, at int64
		var g pastGame
		var p cribbage.PlayerResult
		if err := rows.Scan(&table, &g.guild, &at, &p.UserID, &p.Side, &p.Won); err != nil {
			return nil, err
		}
		if table != last {
			g.at, last = fromMillis(at), table
			out = append(out, g)
		}
		out[len(out)-1].players = append(out[len(out)-1].players, p)
	}
	return out, rows.Err()
}
