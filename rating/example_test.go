package rating_test

import (
	"fmt"

	"github.com/cribbage-bot/cribbage/rating"
)

// The paper's worked example, as the bot would show the result.
func ExampleUpdate() {
	player := rating.Rating{R: 1500, RD: 200, Volatility: 0.06}
	results := []rating.Result{
		{Opponent: rating.Rating{R: 1400, RD: 30, Volatility: 0.06}, Score: rating.Win},
		{Opponent: rating.Rating{R: 1550, RD: 100, Volatility: 0.06}, Score: rating.Loss},
		{Opponent: rating.Rating{R: 1700, RD: 300, Volatility: 0.06}, Score: rating.Loss},
	}
	after := rating.Update(player, results, rating.Config{})
	fmt.Printf("%.0f, RD %.2f, σ %.6f, provisional %v\n",
		after.R, after.RD, after.Volatility, after.Provisional(rating.ProvisionalRD))
	// Output:
	// 1464, RD 151.52, σ 0.059996, provisional true
}

// Two newcomers play their first game.
func ExampleGame() {
	a, b := rating.Config{}.Newcomer(), rating.Config{}.Newcomer()
	a, b = rating.Game(a, b, rating.Win, rating.Config{})
	fmt.Printf("winner %.0f ± %.0f, loser %.0f ± %.0f\n", a.R, a.RD, b.R, b.RD)
	// Output:
	// winner 1662 ± 290, loser 1338 ± 290
}

// A partners game: each person is rated against the other pair as one
// player, from everyone's ratings before the game. The less certain
// ratings move most: the 1390 with RD 250 gains 141, the 1610 with RD 80
// only 12.
func ExampleTeamGame() {
	us := []rating.Rating{{R: 1610, RD: 80, Volatility: 0.06}, {R: 1390, RD: 250, Volatility: 0.06}}
	them := []rating.Rating{{R: 1500, RD: 350, Volatility: 0.06}, {R: 1550, RD: 60, Volatility: 0.06}}
	us, them = rating.TeamGame(us, them, rating.Win, rating.Config{})
	fmt.Printf("us %.0f and %.0f, them %.0f and %.0f\n", us[0].R, us[1].R, them[0].R, them[1].R)
	// Output:
	// us 1622 and 1531, them 1327 and 1540
}
