// Package rating is Glicko-2, the skill rating of Mark Glickman's
// "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf),
// written from the paper and checked against its worked example. It is
// pure arithmetic: no I/O, no clock and no state between calls.
//
// # What the numbers mean to a player
//
// A Rating has three numbers; players see the first and, as a mark, the
// second.
//
//   - The rating, R. Everyone starts at 1500. It means something only
//     next to other ratings in the same club: between two settled
//     players, the one 200 points ahead is expected to win about three
//     games in four. It weighs whom you beat, not how often you play, and
//     it expects upsets (the weaker player still wins one game in four),
//     so no single game moves a settled rating far: fitting for a game
//     with as much luck as cribbage.
//   - The rating deviation, RD: how unsure the rating still is, in rating
//     points. The paper reads R ± 2 RD as the range the player's true
//     strength lies in with 95% confidence, so a newcomer's 1500 with RD
//     350 says "anywhere from 800 to 2200". Each game narrows it; time
//     away widens it again (Idle), never past a newcomer's 350.
//   - The volatility, σ: how erratic the player's results have been.
//     It sets how fast the RD widens, and players need not see it.
//
// # Provisional ratings
//
// A rating is provisional while its RD is above ProvisionalRD, 110, and
// the bot shows it with a mark, as in "1623 (provisional)". 110 is where
// lichess, a large Glicko-2 site, puts its "?" on a rating, so players
// may know the idea already. It means the rating is known to within about
// ±220 points, close enough to rank on. A newcomer gets there after about
// ten games against settled players, or fourteen in a new club where
// everyone starts unknown (TestGamesToSettle): enough that a lucky first
// evening does not define anyone, few enough that a regular is settled
// within a couple of sessions. And it sits well above where a regular's
// RD settles (about 60, see below), so a regular does not flicker back to
// provisional after a short break.
//
// # Rating periods
//
// The paper rates all the games of a "rating period" at once and works
// best with ten or more games per player per period. The bot rates each
// game as its own period (Game, TeamGame), as online game servers do, so
// that a rating moves as soon as the game ends. The price is that the
// volatility learns slowly and a regular's RD settles at about 60 rather
// than falling further. How long a period without games is, and so how
// often to call Idle for someone who has not played, is the caller's
// choice: from a regular's settled 60 it takes 78 idle periods to turn
// provisional again (TestRegularStaysSettled), so about eleven weeks if
// an idle period is a day.
//
// # Teams and three-handed games
//
// Partners games are rated person by person against the other team taken
// as one player; TeamGame documents the choice and its limits.
// Three-handed games are not covered. One honest way, if the club wants
// them rated, is to treat the winner as having beaten each of the other
// two, and each of them as having lost to the winner, with each person's
// games in one period.
//
// The package never rounds or renders: the bot shows R as a whole number.
package rating
