package mock

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/rating"
)

// The records, kept as the SQL store keeps them: each finished game's
// lines (cribbage.Table.Results) in the season current when it finished,
// its ratings moved as the domain says (cribbage.Table.Rated,
// cribbage.RatingBouts) with the store's Glicko-2 system, and each
// decided match between people. The conformance suite holds the two
// alike (internal/servicetest's records tests).

// ratingSystem is the store's (store/ratings.go): the paper's Glicko-2.
var ratingSystem = rating.Config{}

// gameRecord is a finished game's lines in the records.
type gameRecord struct {
	tableID    int64
	guildID    string
	season     int
	finishedAt time.Time
	vsComputer bool
	lines      []cribbage.PlayerResult
}

// ratingKey names a player's rating in a server's season.
type ratingKey struct {
	guildID string
	season  int
	userID  string
}

// storedRating is a player's rating as last rated.
type storedRating struct {
	rating.Rating
	games   int
	ratedAt time.Time
}

// at is the rating as it stands at now, widened by the idle weeks since.
func (r storedRating) at(now time.Time) rating.Rating {
	return rating.IdlePeriods(r.Rating, int(now.Sub(r.ratedAt)/cribbage.RatingIdle), ratingSystem)
}

// records are a store's records; the zero value has none.
type records struct {
	games   []gameRecord
	ratings map[ratingKey]storedRating
	seasons map[string][]cribbage.Season // the seasons admins started, by server
	matches map[[2]string]cribbage.MatchRecord
}

// currentSeason is a server's current season: the last an admin started,
// or 1.
func (r *records) currentSeason(guildID string) int {
	return len(r.seasons[guildID]) + 1
}

// record writes finished table t's records, as the store's move that
// finished it does. The caller holds the lock.
func (r *records) record(t *cribbage.Table, finishedAt time.Time) {
	if r.ratings == nil {
		r.ratings, r.matches = map[ratingKey]storedRating{}, map[[2]string]cribbage.MatchRecord{}
	}
	g := gameRecord{tableID: t.ID, guildID: t.GuildID, season: r.currentSeason(t.GuildID), finishedAt: finishedAt,
		vsComputer: t.HasComputer(), lines: t.Results()}
	r.games = append(r.games, g)
	if m := t.Match; m != nil && m.Winner() >= 0 && !g.vsComputer {
		for _, p := range g.lines {
			k := [2]string{t.GuildID, p.UserID}
			mr := r.matches[k]
			mr.Matches++
			if p.Side == m.Winner() {
				mr.Won++
			} else {
				mr.Lost++
			}
			r.matches[k] = mr
		}
	}
	if !t.Rated() {
		return
	}
	before := map[string]rating.Rating{}
	for _, p := range g.lines {
		before[p.UserID] = r.rating(t.GuildID, g.season, p.UserID).at(finishedAt)
	}
	var bouts []rating.Bout[string]
	for _, b := range cribbage.RatingBouts(g.lines) {
		bouts = append(bouts, rating.Bout[string](b))
	}
	for u, after := range rating.RateBouts(before, bouts, ratingSystem) {
		k := ratingKey{t.GuildID, g.season, u}
		r.ratings[k] = storedRating{Rating: after, games: r.ratings[k].games + 1, ratedAt: finishedAt}
	}
}

// rating is a player's stored rating in a season, a newcomer's if none.
func (r *records) rating(guildID string, season int, userID string) storedRating {
	if sr, ok := r.ratings[ratingKey{guildID, season, userID}]; ok {
		return sr
	}
	return storedRating{Rating: ratingSystem.Newcomer()}
}

// shown is a player's rating as players see it: in the current season as
// it stands at now, in a past one as the season left it.
func (r *records) shown(guildID string, season int, userID string, current bool, now time.Time) cribbage.Rating {
	sr := r.rating(guildID, season, userID)
	shown := sr.Rating
	if current {
		shown = sr.at(now)
	}
	return cribbage.Rating{R: shown.R, RD: shown.RD, Games: sr.games, Provisional: shown.Provisional(rating.ProvisionalRD)}
}

// add counts one line into a record.
func add(rec *cribbage.Record, p cribbage.PlayerResult) {
	rec.Games++
	if p.Won {
		rec.Wins++
	} else {
		rec.Losses++
	}
	rec.GamesWon += p.GamesWon
	rec.SkunksGiven += p.SkunksGiven
	rec.DoubleSkunksGiven += p.DoubleSkunksGiven
	rec.SkunksTaken += p.SkunksTaken
	rec.DoubleSkunksTaken += p.DoubleSkunksTaken
	rec.Pegging += p.Tally.Pegging
	rec.HandPoints += p.Tally.HandPoints
	rec.Hands += p.Tally.Hands
	rec.CribPoints += p.Tally.CribPoints
	rec.Cribs += p.Tally.Cribs
	rec.BestHand = max(rec.BestHand, p.Tally.BestHand)
	rec.TwentyNines += p.Tally.TwentyNine
}

// Leaderboard implements cribbage.RecordService, from the games played,
// unless LeaderboardFn answers.
func (s *Store) Leaderboard(ctx context.Context, guildID string, season int, since time.Time) ([]cribbage.Standing, error) {
	if s.LeaderboardFn != nil {
		return s.LeaderboardFn(guildID, season, since)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	current := s.records.currentSeason(guildID)
	if season == 0 {
		season = current
	}
	if season < 1 || season > current {
		return nil, cribbage.ErrNoSeason
	}
	byUser := map[string]*cribbage.Standing{}
	var out []cribbage.Standing
	for _, g := range s.records.games {
		if g.guildID != guildID || g.season != season || g.vsComputer || g.finishedAt.Before(ms(since)) {
			continue
		}
		for _, p := range g.lines {
			st := byUser[p.UserID]
			if st == nil {
				st = &cribbage.Standing{UserID: p.UserID}
				byUser[p.UserID] = st
			}
			st.Name = max(st.Name, p.Name)
			st.Games++
			st.Wins += boolInt(p.Won)
			st.Losses += boolInt(!p.Won)
			st.GamesWon += p.GamesWon
			st.SkunksGiven += p.SkunksGiven + p.DoubleSkunksGiven
			st.SkunksTaken += p.SkunksTaken + p.DoubleSkunksTaken
		}
	}
	now := s.now()
	for _, st := range byUser {
		st.Rating = s.records.shown(guildID, season, st.UserID, season == current, now)
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b cribbage.Standing) int {
		if a.Rating.Provisional != b.Rating.Provisional {
			if a.Rating.Provisional {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(b.Rating.R, a.Rating.R), cmp.Compare(b.Games, a.Games), cmp.Compare(a.UserID, b.UserID))
	})
	for i := range out {
		out[i].Rank = i + 1
	}
	return out, nil
}

// PlayerStats implements cribbage.RecordService, from the games played,
// unless PlayerStatsFn answers.
func (s *Store) PlayerStats(ctx context.Context, guildID, userID string) (cribbage.Stats, error) {
	if s.PlayerStatsFn != nil {
		return s.PlayerStatsFn(guildID, userID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var st cribbage.Stats
	var people []gameRecord // newest first, for the streak
	for _, g := range s.records.games {
		if g.guildID != guildID {
			continue
		}
		for _, p := range g.lines {
			if p.UserID != userID {
				continue
			}
			st.Name = max(st.Name, p.Name)
			if g.finishedAt.After(st.LastPlayed) {
				st.LastPlayed = g.finishedAt
			}
			if g.vsComputer {
				add(&st.Computer, p)
				continue
			}
			add(&st.People, p)
			people = append(people, g)
		}
	}
	slices.SortFunc(people, func(a, b gameRecord) int {
		return cmp.Or(b.finishedAt.Compare(a.finishedAt), cmp.Compare(b.tableID, a.tableID))
	})
	st.Streak = streak(people, userID)
	st.Matches = s.records.matches[[2]string{guildID, userID}]
	st.Season = s.records.currentSeason(guildID)
	st.Rating = s.records.shown(guildID, st.Season, userID, true, s.now())
	return st, nil
}

// streak counts the latest run of wins (positive) or losses (negative) in
// games, newest first, as the store does over its last 200.
func streak(games []gameRecord, userID string) int {
	n := 0
	for i, g := range games {
		if i == 200 {
			break
		}
		i := slices.IndexFunc(g.lines, func(p cribbage.PlayerResult) bool { return p.UserID == userID })
		won := g.lines[i].Won
		switch {
		case won && n >= 0:
			n++
		case !won && n <= 0:
			n--
		default:
			return n
		}
	}
	return n
}

// HeadToHead implements cribbage.RecordService, from the games played,
// unless HeadToHeadFn answers.
func (s *Store) HeadToHead(ctx context.Context, guildID, a, b string) (cribbage.HeadToHead, error) {
	if s.HeadToHeadFn != nil {
		return s.HeadToHeadFn(guildID, a, b)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var h cribbage.HeadToHead
	for _, g := range s.records.games {
		if g.guildID != guildID {
			continue
		}
		for _, pa := range g.lines {
			for _, pb := range g.lines {
				if pa.UserID == a && pb.UserID == b && pa.Side != pb.Side {
					h.Games++
					h.AWins += boolInt(pa.Won)
					h.BWins += boolInt(pb.Won)
				}
			}
		}
	}
	return h, nil
}

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Seasons implements cribbage.RecordService, from the seasons started and
// the games played, unless SeasonsFn answers.
func (s *Store) Seasons(ctx context.Context, guildID string) ([]cribbage.Season, error) {
	if s.SeasonsFn != nil {
		return s.SeasonsFn(guildID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]cribbage.Season{{Number: 1}}, s.records.seasons[guildID]...)
	for _, g := range s.records.games {
		if g.guildID != guildID || g.vsComputer || g.season < 1 || g.season > len(out) {
			continue
		}
		se := &out[g.season-1]
		se.Games++
		// Season 1 began with the server's first game between people.
		if g.season == 1 && (se.StartedAt.IsZero() || g.finishedAt.Before(se.StartedAt)) {
			se.StartedAt = g.finishedAt
		}
	}
	return out, nil
}

// StartSeason implements cribbage.RecordService, unless StartSeasonFn
// answers: a current season with no game between people is not
// restarted.
func (s *Store) StartSeason(ctx context.Context, guildID, userID, name string) (cribbage.Season, error) {
	if s.StartSeasonFn != nil {
		return s.StartSeasonFn(guildID, userID, name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	current := s.records.currentSeason(guildID)
	if !slices.ContainsFunc(s.records.games, func(g gameRecord) bool {
		return g.guildID == guildID && g.season == current && !g.vsComputer && len(g.lines) > 0
	}) {
		return cribbage.Season{}, cribbage.ErrSeasonUnplayed
	}
	se := cribbage.Season{Number: current + 1, Name: name, StartedAt: s.now(), StartedBy: userID}
	if s.records.seasons == nil {
		s.records.seasons = map[string][]cribbage.Season{}
	}
	s.records.seasons[guildID] = append(s.records.seasons[guildID], se)
	return se, nil
}
