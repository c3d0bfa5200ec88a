package bot

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/render"
	"github.com/cribbage-bot/cribbage/engine"
)

// cmdStatus shows a table, privately unless asked to post it.
func (b *Bot) cmdStatus(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	id, err := b.pickTable(ctx, ic, func(t *cribbage.Table, uid string) bool { return true }, false)
	if err != nil {
		return reply{}, err
	}
	t, err := b.store.Table(ctx, id)
	if err != nil {
		return reply{}, err
	}
	public := false
	if o, ok := options(ic)["public"]; ok {
		public = o.BoolValue()
	}
	// A message of its own: it carries its own board.
	r := render.Table(t)
	render.UploadBoard(&r, t)
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: r.Response(!public)}}, nil
}

// cmdLeaderboard ranks the players of a season (the current one unless
// the season option names another) by rating, over their games between
// people in the season, or in its last 7 or 30 days.
func (b *Bot) cmdLeaderboard(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	opts := options(ic)
	period, since := "", time.Time{}
	if o, ok := opts["period"]; ok {
		switch o.StringValue() {
		case "week":
			period, since = "last 7 days", b.now().Add(-7*24*time.Hour)
		case "month":
			period, since = "last 30 days", b.now().Add(-30*24*time.Hour)
		}
	}
	seasons, err := b.store.Seasons(ctx, ic.GuildID)
	if err != nil {
		return reply{}, err
	}
	se := seasons[len(seasons)-1]
	if o, ok := opts["season"]; ok {
		n := o.IntValue()
		if n > int64(len(seasons)) {
			return reply{}, &noSeasonError{asked: n, current: int64(se.Number)}
		}
		se = seasons[n-1]
	}
	board, err := b.store.Leaderboard(ctx, ic.GuildID, se.Number, since)
	if err != nil {
		return reply{}, err
	}
	uid, _ := user(ic)
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: renderLeaderboard(board, se, se.Number == len(seasons), period, uid).Response(false)}}, nil
}

// renderLeaderboard lists the top ten of a season's board, and the
// caller's line if lower; period, if not empty, names the part of the
// season it counts. Each player is one short line so it reads on a phone:
// rank, name, rating, wins–losses and games. Provisional ratings are
// marked with a ? and come after the settled ones, under a line that says
// what the mark means.
func renderLeaderboard(board []cribbage.Standing, se cribbage.Season, current bool, period, uid string) render.Message {
	title := "Cribbage leaderboard · " + seasonTitle(se)
	if period != "" {
		title += " · " + period
	}
	e := &discordgo.MessageEmbed{Title: title, Color: 0x2e7d32}
	if len(board) == 0 {
		e.Description = fmt.Sprintf("No games between people in %s yet.", seasonTitle(se))
		if period != "" {
			e.Description = fmt.Sprintf("No games between people in the %s.", period)
		}
		if current {
			e.Description += " Start one with `/cribbage start`!"
		}
		return render.Message{Embeds: []*discordgo.MessageEmbed{e}}
	}
	var lines []string
	marked := false
	add := func(s cribbage.Standing) {
		if s.Rating.Provisional && !marked {
			lines = append(lines, "*Provisional (?) — too few recent games to be sure yet:*")
			marked = true
		}
		lines = append(lines, fmt.Sprintf("**%d.** %s · **%s** · %d–%d · %s", s.Rank, s.Name, ratingNumber(s.Rating), s.Wins, s.Losses, games(s.Games)))
	}
	for i, s := range board {
		if i < 10 {
			add(s)
		} else if s.UserID == uid {
			lines = append(lines, "…")
			add(s)
		}
	}
	e.Description = strings.Join(lines, "\n")
	e.Footer = &discordgo.MessageEmbedFooter{Text: "rating · wins–losses · games between people · /cribbage-club seasons lists the seasons"}
	return render.Message{Embeds: []*discordgo.MessageEmbed{e}}
}

// games is "1 game" or "n games".
func games(n int) string { return fmt.Sprintf("%d game%s", n, render.Plural(n)) }

// ratingNumber is a rating as a whole number, with a ? while provisional.
func ratingNumber(r cribbage.Rating) string {
	n := strconv.Itoa(int(math.Round(r.R)))
	if r.Provisional {
		n += "?"
	}
	return n
}

// ratingLine is a rating with its uncertainty, as stats show it:
// "1610 ± 180 (provisional) · 5 games".
func ratingLine(r cribbage.Rating) string {
	line := fmt.Sprintf("**%d** ± %d", int(math.Round(r.R)), int(math.Round(r.RD)))
	if r.Provisional {
		line += " (provisional)"
	}
	return line + " · " + games(r.Games)
}

// cmdStats shows a player's record, and against another player if asked.
func (b *Bot) cmdStats(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	uid, name := user(ic)
	opts := options(ic)
	if o, ok := opts["user"]; ok {
		u := o.UserValue(nil)
		uid, name = u.ID, u.Username
		if m, ok := ic.ApplicationCommandData().Resolved.Members[u.ID]; ok && m.Nick != "" {
			name = m.Nick
		} else if ru, ok := ic.ApplicationCommandData().Resolved.Users[u.ID]; ok {
			name = displayName(ru)
		}
	}
	st, err := b.store.PlayerStats(ctx, ic.GuildID, uid)
	if err != nil {
		return reply{}, err
	}
	if st.Name != "" {
		name = st.Name
	}
	e := &discordgo.MessageEmbed{Title: "Cribbage stats · " + name, Color: 0x2e7d32}
	rated := fmt.Sprintf("Not rated yet in season %d: a game against a person rates you.", st.Season)
	if st.Rating.Games > 0 {
		rated = ratingLine(st.Rating)
	}
	e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: fmt.Sprintf("Rating · season %d", st.Season), Value: rated})
	e.Fields = append(e.Fields, recordFields("Against people", st.People)...)
	if st.People.Games > 0 {
		streak := "—"
		switch {
		case st.Streak > 0:
			streak = fmt.Sprintf("won %d in a row", st.Streak)
		case st.Streak < 0:
			streak = fmt.Sprintf("lost %d in a row", -st.Streak)
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Streak", Value: streak, Inline: true})
	}
	if m := st.Matches; m.Matches > 0 {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Matches", Value: fmt.Sprintf("%d won · %d lost", m.Won, m.Lost), Inline: true})
	}
	if st.Computer.Games > 0 {
		e.Fields = append(e.Fields, recordFields("Against the computer", st.Computer)...)
	}
	if o, ok := opts["vs"]; ok {
		other := o.UserValue(nil)
		h, err := b.store.HeadToHead(ctx, ic.GuildID, uid, other.ID)
		if err != nil {
			return reply{}, err
		}
		otherName := other.Username
		if ru, ok := ic.ApplicationCommandData().Resolved.Users[other.ID]; ok {
			otherName = displayName(ru)
		}
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: "Against " + otherName,
			Value: fmt.Sprintf("%d games: %d–%d", h.Games, h.AWins, h.BWins)})
	}
	if st.People.Games+st.Computer.Games == 0 {
		e.Description = "No finished games yet."
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Message{Embeds: []*discordgo.MessageEmbed{e}}.Response(true)}}, nil
}

// recordFields renders a record.
func recordFields(title string, r cribbage.Record) []*discordgo.MessageEmbedField {
	if r.Games == 0 {
		return []*discordgo.MessageEmbedField{{Name: title, Value: "no games yet"}}
	}
	avg := func(points, n int) string {
		if n == 0 {
			return "—"
		}
		return fmt.Sprintf("%.1f", float64(points)/float64(n))
	}
	return []*discordgo.MessageEmbedField{
		{Name: title, Value: fmt.Sprintf("%d games · %d wins · %d losses · %d games won", r.Games, r.Wins, r.Losses, r.GamesWon)},
		{Name: "Skunks", Value: fmt.Sprintf("given %d (+%d double) · taken %d (+%d double)", r.SkunksGiven, r.DoubleSkunksGiven, r.SkunksTaken, r.DoubleSkunksTaken), Inline: true},
		{Name: "Best hand", Value: fmt.Sprintf("%d · 29s: %d", r.BestHand, r.TwentyNines), Inline: true},
		{Name: "Averages", Value: fmt.Sprintf("hand %s · crib %s · pegging %s a hand", avg(r.HandPoints, r.Hands), avg(r.CribPoints, r.Cribs), avg(r.Pegging, r.Hands)), Inline: true},
	}
}

// displayName is a user's global name, or username.
func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// cmdCount counts any hand with its breakdown, as players say it aloud:
// privately, or to the channel with share.
func (b *Bot) cmdCount(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	opts := options(ic)
	hand, err := engine.ParseCards(opts["cards"].StringValue())
	if err != nil {
		return reply{resp: ephemeral(mustText(err))}, nil
	}
	starter, err := engine.ParseCard(opts["starter"].StringValue())
	if err != nil {
		return reply{resp: ephemeral("The starter isn't a card. Write cards like 5H, 10D, JC or Q♠.")}, nil
	}
	if len(hand) != 4 || engine.SetOf(hand...).Has(starter) {
		return reply{resp: ephemeral("Give four different cards, and a starter that isn't one of them.")}, nil
	}
	crib := false
	if o, ok := opts["crib"]; ok {
		crib = o.BoolValue()
	}
	bd := engine.ScoreShow(hand, starter, crib)
	what := "Hand"
	if crib {
		what = "Crib"
	}
	var lines []string
	lines = append(lines, fmt.Sprintf("**%s** %s + %s — **%d**", what, engine.DisplayCards(hand), starter.Display(), bd.Total), "*"+bd.Spoken()+"*")
	for _, it := range bd.Items {
		lines = append(lines, fmt.Sprintf("· %s %s — %d", it.Kind, engine.DisplayCards(it.Cards), it.Points))
	}
	// Private unless asked to share: a player checking a hand mid-game
	// shouldn't tell the table what they hold.
	share := false
	if o, ok := opts["share"]; ok {
		share = o.BoolValue()
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: render.Message{Content: strings.Join(lines, "\n")}.Response(!share)}}, nil
}

// rulesText summarises RULES.md for players.
const rulesText = `**Cribbage at this table**
• Deal: 6 cards each with 2 players (2 to the crib), 5 each with 3 or 4 (1 to the crib; with 3, one more from the deck). The crib is the dealer's.
• The cut: a jack as starter gives the dealer 2 (his heels).
• The play: lay cards in turn without passing 31. 15 = 2, 31 = 2, pair 2, three of a kind 6, four 12, runs of 3+ (any order) one a card. Can't play? The table says go for you; the last to play gets 1 (31 gets 2, never 3). The last card gets 1.
• The show: dealer's left first, dealer last, then the crib. Fifteens 2 each, pairs 2, runs, flush 4 (5 with the starter; the crib only scores 5), his nobs 1.
• First to 121 (or 61) wins at once — even mid-play. Loser on 90 or less: skunk (2 games); 60 or less: double skunk (4). In the 61 game, 30 or less is a skunk.
• Manual counting: claim your own points; too low and the rest is lost (or taken by muggins, if on); too high and you count again.`

// helpText explains the bot: every command, each in a few words.
const helpText = "**How to play**\n" +
	"1. `/cribbage start` opens a table here (options: players, teams, points, counting, muggins, computer: easy or strong, four-colour, match).\n" +
	"2. Others press **Join** (or `join`; `leave` gives the seat up). The game starts when every seat is taken, or when the host presses **Start** and the computer takes the empty seats.\n" +
	"3. **Show my hand** (or `/cribbage hand`) shows only you your cards. Choose your crib cards and **Confirm**, then play a card in turn. The table's thread tells the play and the show.\n" +
	"4. Games can last days: your buttons keep working, and you're pinged when the table has waited on you a while.\n" +
	"**Challenge** someone: `challenge user: @name` (or their name → Apps → **Challenge to cribbage**). They **Accept** or **Decline**; you may **Withdraw**; it lapses after a day.\n" +
	"**Matches**: `match: best of 3` (or 5), two players or two teams. Each game follows by itself, the deal passing on. Game points: a win 2, a skunk 3, a double skunk 4; a resigned or forfeited game 2. `resign` gives up the game or the whole match; a claimed forfeit ends the match.\n" +
	"**Rematch** on a finished table asks the others; it starts when everyone has accepted.\n" +
	"Also: `status` (a table), `games` (your tables), `replay` (a game hand by hand), `verify` (check a deal), `rules`, and `count` (count any hand, privately; `share: True` posts it).\n" +
	"**Tournaments**: **Sign up** on one's message: Swiss rounds, then a playoff.\n" +
	"**Records**, in any channel: `/cribbage-club leaderboard` (ratings this season, or a past `season`), `stats`, `seasons`, `tournament`.\n" +
	"**Admins** (Manage Server): `/cribbage-admin cancel` ends a stuck or abusive table, with no result; " +
	"`/cribbage-admin settings` sets reminder and forfeit times, default points, games channel, open tables per person, and a role that may also cancel; " +
	"`season new` starts a new rating season; `tournament open`, `computers`, `start`, `cancel` run one. " +
	"Who may use each command, and where: Server Settings → Integrations."

// cmdRules and cmdHelp answer privately with fixed text.
func (b *Bot) cmdRules(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	return reply{resp: ephemeral(rulesText)}, nil
}

func (b *Bot) cmdHelp(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	return reply{resp: ephemeral(helpText)}, nil
}

// autocomplete suggests the user's tables (for join: the open lobbies here).
func (b *Bot) autocomplete(ctx context.Context, ic *discordgo.Interaction) (reply, error) {
	uid, _ := user(ic)
	data := ic.ApplicationCommandData()
	var tables []*cribbage.Table
	var err error
	// Joining, and an admin's cancel, look for tables in this channel;
	// everything else for the user's own.
	if len(data.Options) > 0 && (data.Options[0].Name == "join" || data.Name == adminCommand) {
		tables, err = b.store.ChannelTables(ctx, ic.ChannelID)
	} else {
		tables, err = b.store.PlayerTables(ctx, ic.GuildID, uid)
	}
	if err != nil {
		return reply{}, err
	}
	var choices []*discordgo.ApplicationCommandOptionChoice
	for _, t := range tables {
		if len(choices) == 25 {
			break
		}
		if !here(t, ic) {
			// Only tables the command can act on here are offered.
			continue
		}
		var names []string
		for _, s := range t.Seats {
			names = append(names, s.Name)
		}
		label := fmt.Sprintf("Table %d · %s · %s", t.ID, strings.Join(names, ", "), t.Status)
		if r := []rune(label); len(r) > 100 {
			label = string(r[:99]) + "…"
		}
		choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: label, Value: t.ID})
	}
	return reply{resp: &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
		Data: &discordgo.InteractionResponseData{Choices: choices}}}, nil
}
