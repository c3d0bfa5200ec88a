package render

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/click"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// Message is a message's full content: content, embeds and components are
// always sent together, because an edit that leaves embeds unset clears them.
// A V2 message (Components V2, v2.go) is components alone.
type Message struct {
	// V2 says the message is laid out in components (flag
	// IS_COMPONENTS_V2): Content and Embeds are empty, and every send and
	// edit of it carries the flag, which Discord never takes off again.
	V2         bool
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	// Mentions are the users a post may notify; nobody else is.
	Mentions []string
	// Files are pictures to upload with the message, and Attachments the
	// list that names them: with one, an edit keeps exactly those files.
	Files       []*discordgo.File
	Attachments []*discordgo.MessageAttachment
}

// AllowedMentions limits notifications to the mentioned users, if any,
// in content and text displays alike.
func (r Message) AllowedMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: r.Mentions}
}

// Flags are the message flags the render is sent with: IS_COMPONENTS_V2
// for a V2 message.
func (r Message) Flags() discordgo.MessageFlags {
	if r.V2 {
		return discordgo.MessageFlagsIsComponentsV2
	}
	return 0
}

// Send is the render as a new channel message.
func (r Message) Send() *discordgo.MessageSend {
	return &discordgo.MessageSend{Content: r.Content, Embeds: r.Embeds, Components: r.componentsOrEmpty(), AllowedMentions: r.AllowedMentions(), Files: r.Files, Flags: r.Flags()}
}

// Edit is the render as a full edit of message id in channel. It clears
// the content and embeds the message had, so a V2 render edits a message
// sent before it was drawn in components (legacy) into V2.
func (r Message) Edit(channelID, id string) *discordgo.MessageEdit {
	content := r.Content
	embeds := r.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	components := r.componentsOrEmpty()
	e := &discordgo.MessageEdit{ID: id, Channel: channelID, Content: &content, Embeds: &embeds, Components: &components, AllowedMentions: r.AllowedMentions(), Files: r.Files, Flags: r.Flags()}
	if r.Attachments != nil {
		e.Attachments = &r.Attachments
	}
	return e
}

// Response is the render as interaction response data.
func (r Message) Response(ephemeral bool) *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{Content: r.Content, Embeds: r.Embeds, Components: r.componentsOrEmpty(), AllowedMentions: r.AllowedMentions(), Files: r.Files, Flags: r.Flags()}
	if r.Attachments != nil {
		d.Attachments = &r.Attachments
	}
	if d.Embeds == nil {
		d.Embeds = []*discordgo.MessageEmbed{}
	}
	if ephemeral {
		d.Flags |= discordgo.MessageFlagsEphemeral
	}
	return d
}

// componentsOrEmpty are the components a body sends: an empty list for
// none, since a body without them would keep the message's.
func (r Message) componentsOrEmpty() []discordgo.MessageComponent {
	if r.Components == nil {
		return []discordgo.MessageComponent{}
	}
	return r.Components
}

// WaitingFor says whom the game waits on and for what, in l.
func WaitingFor(l lang.Lang, t *cribbage.Table) (seats []int, verb string) {
	seats = t.Waiting()
	if len(seats) == 0 {
		return nil, ""
	}
	switch g := t.State; g.Phase {
	case engine.PhaseDiscard:
		return seats, l.T("wait.throw")
	case engine.PhasePlay:
		return seats, l.T("wait.play")
	case engine.PhaseShow:
		if _, crib := g.ShowOrder(g.Shown); crib {
			return seats, l.T("wait.count-crib")
		}
		return seats, l.T("wait.count-hand")
	case engine.PhaseDeal:
		return seats, l.T("wait.deal")
	}
	return nil, ""
}

// optionsLine summarises a table's options.
func optionsLine(l lang.Lang, o engine.Options) string {
	parts := []string{l.N("table.players", o.Players)}
	if o.Partners {
		parts[0] = l.T("table.partners")
	}
	parts = append(parts, l.N("table.points", o.Target))
	if o.ManualCounting {
		parts = append(parts, l.T("table.manual"))
		if o.Muggins {
			parts = append(parts, l.T("table.muggins"))
		}
	} else {
		parts = append(parts, l.T("table.automatic"))
	}
	return strings.Join(parts, " · ")
}

// Table is the public table message: options, seats and scores,
// whose turn it is and since when, and the table's buttons. It shows no
// card that is still hidden in a hand. board is the key of the board
// picture the message has already (cribbage.TableMessage.Board), which it
// shows, or empty for none: a new message, or one whose board is sent
// with it (UploadBoard).
//
// It is drawn for a phone first, in one Container (Components V2): the
// title and the hand, the board, the sides and their scores, then what
// the table waits for right above the buttons that do it, and the
// options last. The container's accent is the colour of the side whose
// turn it is (its pegs' colour on the board), neutral when no one side's.
// The container's id is the table's version, so a reader of the message
// (a test, a log) can tell which version of the table it shows.
//
// It speaks l, the language of the table's channel (see lang.Server).
func Table(l lang.Lang, t *cribbage.Table, board string) Message {
	footer := optionsLine(l, t.Options)
	if t.Match != nil {
		footer += " · " + l.T("table.best-of", "BestOf", t.Match.BestOf)
	}
	if t.State != nil {
		// The time of the last move, so a reader sees the table is current.
		footer += " · " + l.T("table.last-move", "At", t.LastActionAt.Unix())
	}
	head := []string{"### " + l.T("table.title", "ID", t.ID)}
	var desc []string
	var call string // a line to the person challenged, which pings them
	switch {
	case t.Challenge != nil && (t.Status == cribbage.StatusLobby || t.Status == cribbage.StatusClosed):
		desc = append(desc, challengeLines(l, t)...)
		if t.Status == cribbage.StatusLobby {
			// The challenge's message mentions the person challenged, and
			// notifies them alone (edits notify nobody).
			call = l.T("table.challenges-you", "User", t.Challenge.UserID, "Host", NameOf(t, t.HostID))
		}
	case t.Status == cribbage.StatusLobby:
		free := t.Options.Players - len(t.Seats)
		desc = append(desc, l.N("table.waiting-players", free))
		if t.Computer != "" {
			desc = append(desc, l.T("table.computer-fills", "Level", LevelName(l, t.Computer)))
		}
		if t.Options.Partners {
			desc = append(desc, l.T("table.partners-sit"))
		}
		if m := t.Match; m != nil {
			desc = append(desc, l.N("table.match-lobby", m.Needed(), "BestOf", m.BestOf))
		}
	case t.Status == cribbage.StatusPlaying:
		head = append(head, MatchLine(l, t))
		head = append(head, handLines(l, t)...)
		desc = append(desc, turnLines(l, t)...)
	case t.Status == cribbage.StatusFinished:
		desc = append(desc, ResultLine(l, t, t.State.Result))
		for _, line := range []string{MatchLine(l, t), nextGameLine(l, t), offerLine(l, t)} {
			if line != "" {
				desc = append(desc, line)
			}
		}
	case t.Status == cribbage.StatusClosed:
		desc = append(desc, l.T("table.closed"))
	case t.Status == cribbage.StatusCancelled:
		desc = append(desc, "🚫 "+CancelledLine(l, t), CountsForNobody(l))
		// Only a game that began was part of a match; a lobby (or a
		// challenge) that would have opened one leaves no match behind.
		if t.Match != nil && t.State != nil {
			desc = append(desc, l.T("table.match-cancelled"))
		}
	}
	box := Container(turnAccent(t), TextDisplay(head...), TextDisplay(seatLines(l, t)...), TextDisplay(desc...))
	box.ID = int(t.Version & 0x7fffffff)
	box.Components = append(box.Components, tableButtons(l, t)...)
	box.Components = append(box.Components, TextDisplay("-# "+footer))
	r := V2(TextDisplay(call), box)
	if call != "" {
		r.Mentions = []string{t.Challenge.UserID}
	}
	showBoard(&r, t, board)
	return r
}

// handLines say which hand it is and, once cut, the starter.
func handLines(l lang.Lang, t *cribbage.Table) []string {
	g := t.State
	var lines []string
	if g.HandNo > 0 {
		lines = append(lines, l.T("table.hand-deals", "N", g.HandNo, "Dealer", SeatName(t, g.Dealer)))
	}
	if g.StarterUp && g.Phase != engine.PhaseDeal {
		lines = append(lines, l.T("table.starter", "Card", g.Starter.Display()))
	}
	return lines
}

// turnLines say what the play stands at and whom the table waits on.
func turnLines(l lang.Lang, t *cribbage.Table) []string {
	g := t.State
	var lines []string
	if g.Phase == engine.PhasePlay {
		series := g.Series()
		if len(series) > 0 {
			lines = append(lines, l.T("table.count-cards", "Count", g.Count, "Cards", engine.DisplayCards(series)))
		} else {
			lines = append(lines, l.T("table.count-zero"))
		}
	}
	if seats, verb := WaitingFor(l, t); len(seats) > 0 {
		var names []string
		for _, s := range seats {
			names = append(names, SeatName(t, s))
		}
		// <t:…:R> is Discord's: each reader's client writes it in their
		// own language.
		since := t.Since().Unix()
		lines = append(lines, l.T("table.waiting-since", "Names", strings.Join(names, "**, **"), "Verb", verb, "Since", since))
	}
	return lines
}

// seatLines list the seats before the game, and the sides with their
// scores in it, each marked with its pegs' colour.
func seatLines(l lang.Lang, t *cribbage.Table) []string {
	var lines []string
	if t.State == nil {
		for seat := 0; seat < t.Options.Players; seat++ {
			name := l.T("seat.open")
			if seat == 1 && t.Challenge != nil && len(t.Seats) < 2 && t.Status == cribbage.StatusLobby {
				name = l.T("seat.held", "Name", t.Challenge.Name)
			} else if t.Status != cribbage.StatusLobby {
				name = "—" // a table closed before its game: no seat is open
			}
			if seat < len(t.Seats) {
				name = t.Seats[seat].Name
				if t.Seats[seat].UserID == t.HostID {
					name += " " + l.T("seat.host")
				}
			}
			lines = append(lines, "**"+l.T("seat.n", "N", seat+1)+"** · "+name)
		}
		return lines
	}
	g := t.State
	for side := 0; side < t.Options.Sides(); side++ {
		line := fmt.Sprintf("%s %s · **%d**", sideMark(side), sideName(t, side), g.Scores[side])
		if g.Phase == engine.PhaseDiscard || g.Phase == engine.PhasePlay {
			var notes []string
			for seat := range t.Seats {
				if t.Options.SideOf(seat) != side {
					continue
				}
				if seat == g.Dealer {
					notes = append(notes, l.T("seat.deals", "Name", SeatName(t, seat)))
				}
				if g.Phase == engine.PhasePlay {
					notes = append(notes, l.T("seat.holds", "Name", SeatName(t, seat), "Held", g.Remaining(seat).Len()))
				}
			}
			if len(notes) > 0 {
				line += " · " + strings.Join(notes, ", ")
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// tableButtons are the table message's buttons: Join, Leave and Start in
// the lobby; Show my hand (and Deal, where a person deals) in a game.
func tableButtons(l lang.Lang, t *cribbage.Table) []discordgo.MessageComponent {
	var buttons []discordgo.MessageComponent
	switch t.Status {
	case cribbage.StatusLobby:
		if t.Challenge != nil {
			buttons = append(buttons,
				discordgo.Button{Label: l.T("button.accept"), Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Accept, Table: t.ID}.String()},
				discordgo.Button{Label: l.T("button.decline"), Style: discordgo.DangerButton, CustomID: click.ID{Action: click.Decline, Table: t.ID}.String()},
				discordgo.Button{Label: l.T("button.withdraw"), Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.Withdraw, Table: t.ID}.String()})
			break
		}
		full := len(t.Seats) >= t.Options.Players
		buttons = append(buttons,
			discordgo.Button{Label: l.T("button.join"), Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Join, Table: t.ID}.String(), Disabled: full},
			discordgo.Button{Label: l.T("button.leave"), Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.Leave, Table: t.ID}.String()},
			discordgo.Button{Label: l.T("button.start"), Style: discordgo.PrimaryButton, CustomID: click.ID{Action: click.Begin, Table: t.ID}.String()},
		)
	case cribbage.StatusPlaying:
		buttons = append(buttons, discordgo.Button{Label: l.T("button.show-hand"), Style: discordgo.PrimaryButton, CustomID: click.ID{Action: click.Hand, Table: t.ID}.String(), Emoji: &discordgo.ComponentEmoji{Name: "🃏"}})
		if t.State.Phase == engine.PhaseDeal {
			buttons = append(buttons, discordgo.Button{Label: l.T("button.deal"), Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Deal, Table: t.ID}.String()})
		}
		if !t.ForfeitOfferedAt.Before(t.Since()) {
			buttons = append(buttons, discordgo.Button{Label: l.T("button.claim-win"), Style: discordgo.DangerButton, CustomID: click.ID{Action: click.ClaimWin, Table: t.ID}.String()})
		}
	case cribbage.StatusFinished:
		buttons = append(buttons, rematchButtons(l, t)...)
		buttons = append(buttons, discordgo.Button{Label: l.T("button.replay"), Style: discordgo.SecondaryButton, CustomID: click.ID{Action: click.Replay, Table: t.ID, Index: 1}.String()})
	default:
		return nil
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}
}

// rematchButtons are a finished table's: Rematch, or Accept and Decline
// while an offer is open; none once the next game is made, or while a
// match goes on (its next game starts by itself), or at a tournament's
// game (the tournament pairs the next).
func rematchButtons(l lang.Lang, t *cribbage.Table) []discordgo.MessageComponent {
	switch {
	case t.RematchID != 0 || t.Match != nil && !t.Match.Over() || t.Tournament != nil:
		return nil
	case t.Offer != nil:
		return []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("button.accept-rematch"), Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Rematch, Table: t.ID}.String()},
			discordgo.Button{Label: l.T("button.decline"), Style: discordgo.DangerButton, CustomID: click.ID{Action: click.NoRematch, Table: t.ID}.String()},
		}
	}
	return []discordgo.MessageComponent{discordgo.Button{Label: l.T("button.rematch"), Style: discordgo.SuccessButton, CustomID: click.ID{Action: click.Rematch, Table: t.ID}.String()}}
}

// LevelName names a computer level in l: easy, strong.
func LevelName(l lang.Lang, level string) string {
	switch label := ai.Label(level); label {
	case LevelEasy:
		return l.T("level.easy")
	case LevelStrong:
		return l.T("level.strong")
	default:
		return label
	}
}

// Plural returns "s" unless n is 1.
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
