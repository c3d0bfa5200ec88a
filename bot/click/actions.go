package click

// Action names a kind of click: the first segment of its custom_id.
type Action string

// The actions, one per button or form.
const (
	Join        Action = "join"        // take a seat in a lobby
	Leave       Action = "leave"       // give up a seat in a lobby
	Begin       Action = "begin"       // the host starts, computers filling seats
	Hand        Action = "hand"        // show my hand
	Refresh     Action = "refresh"     // show my hand again
	Deal        Action = "deal"        // the dealer deals (muggins tables)
	Select      Action = "sel"         // toggle a card for the crib
	Discard     Action = "discard"     // confirm the throw
	Play        Action = "play"        // lay a card
	Claim       Action = "claim"       // open the claim form (manual counting)
	Claimed     Action = "claimed"     // the claim form submitted
	Muggins     Action = "muggins"     // take points an opponent missed
	Resign      Action = "resign"      // concede, after confirming
	Hint        Action = "hint"        // ask the coach
	Review      Action = "review"      // the coach reviews the last discard
	ClaimWin    Action = "claimwin"    // claim the win from a player who did not move in time
	Rematch     Action = "rematch"     // offer a new game with the same seats, or accept the offer
	NoRematch   Action = "norematch"   // decline the rematch offer
	Replay      Action = "replay"      // a hand of a game's replay
	ResignMatch Action = "resignmatch" // resign the match, after confirming
	Accept      Action = "accept"      // the person challenged accepts
	Decline     Action = "decline"     // the person challenged declines
	Withdraw    Action = "withdraw"    // the challenger takes the challenge back
	TSignUp     Action = "tsignup"     // sign up for a tournament
	TWithdraw   Action = "twithdraw"   // withdraw from a tournament before it starts
	TStart      Action = "tstart"      // start a tournament (an admin, or whoever opened it)
	DailyOpen   Action = "dopen"       // the daily hand, from a server's post of it
	DailySelect Action = "dsel"        // toggle a card of the daily hand for the crib
	DailyThrow  Action = "dthrow"      // answer the daily hand
	DailyMonth  Action = "dmonth"      // the server's month of daily hands
)

// patterns are the actions' custom_id patterns. Their placeholders:
// {table} a table id (a tournament's id for a tournament's buttons, the
// day's number, cribbage.Day, for the daily hand's),
// {view} the seat's view version, {cards} a card set in hex, {card} a
// card, {index} a small number.
var patterns = map[Action]string{
	Join:        "/join/{table}",
	Leave:       "/leave/{table}",
	Begin:       "/begin/{table}",
	Hand:        "/hand/{table}",
	Refresh:     "/refresh/{table}",
	Deal:        "/deal/{table}",
	Select:      "/sel/{table}/{view}/{cards}",
	Discard:     "/discard/{table}/{view}/{cards}",
	Play:        "/play/{table}/{view}/{card}",
	Claim:       "/claim/{table}/{view}",
	Claimed:     "/claimed/{table}/{view}",
	Muggins:     "/muggins/{table}/{view}/{index}",
	Resign:      "/resign/{table}",
	Hint:        "/hint/{table}/{view}",
	Review:      "/review/{table}",
	ClaimWin:    "/claimwin/{table}",
	Rematch:     "/rematch/{table}",
	NoRematch:   "/norematch/{table}",
	Replay:      "/replay/{table}/{index}",
	ResignMatch: "/resignmatch/{table}",
	Accept:      "/accept/{table}",
	Decline:     "/decline/{table}",
	Withdraw:    "/withdraw/{table}",
	TSignUp:     "/tsignup/{table}",
	TWithdraw:   "/twithdraw/{table}",
	TStart:      "/tstart/{table}",
	DailyOpen:   "/dopen/{table}",
	DailySelect: "/dsel/{table}/{cards}",
	DailyThrow:  "/dthrow/{table}/{cards}",
	DailyMonth:  "/dmonth/{table}",
}

// Daily reports whether an action is one of the daily hand's, which are
// answered in a DM with the bot too: they name a day, never a table.
func Daily(a Action) bool {
	switch a {
	case DailyOpen, DailySelect, DailyThrow, DailyMonth:
		return true
	}
	return false
}

// Actions returns every action, for a route table to check it has a
// handler for each.
func Actions() []Action {
	as := make([]Action, 0, len(patterns))
	for a := range patterns {
		as = append(as, a)
	}
	return as
}
