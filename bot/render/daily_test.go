package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
	"github.com/cribbage-bot/cribbage/engine/ai"
)

// dailyOn is a date's daily hand and day.
func dailyOn(t *testing.T, date string) (ai.Daily, cribbage.Day) {
	t.Helper()
	d, err := ai.DailyHand(date)
	if err != nil {
		t.Fatal(err)
	}
	at, _ := time.Parse(time.DateOnly, date)
	return d, cribbage.DayOf(at)
}

// TestGoldenDaily holds the daily hand's private view (two cards chosen
// at two players, none at three), an answer, and a server's post with
// the reveal of the day before to files under testdata/render
// (go test ./bot/render -update rewrites them).
func TestGoldenDaily(t *testing.T) {
	two, day := dailyOn(t, "2026-03-15")
	three, threeDay := dailyOn(t, "2026-03-14")
	chosen := engine.SetOf(two.Dealt.Cards()[:2]...)
	golden(t, "daily-view.json", DailyView(two, day, chosen, ""))
	golden(t, "daily-view-three.json", DailyView(three, threeDay, 0, ""))
	ans := cribbage.DailyAnswer{Day: day, UserID: "u1", Name: "Ann", GuildID: "g", Throw: chosen}
	_, ans.GaveUp, _ = two.Judge(chosen)
	golden(t, "daily-result.json", DailyResult(two, ans, []string{StreakLine(3)}, true))
	best := engine.SetOf(three.Splits[0].Throw...)
	other := engine.SetOf(three.Splits[2].Throw...)
	reveal := &Reveal{Hand: three, Day: threeDay, Answers: []cribbage.DailyAnswer{
		{UserID: "u1", Name: "Ann", Throw: best}, {UserID: "u2", Name: "Bob", Throw: other}, {UserID: "u3", Name: "Cid", Throw: best},
	}, Month: []cribbage.DailyTotal{{UserID: "u1", Name: "Ann", Days: 3, GaveUp: 0}, {UserID: "u2", Name: "Bob", Days: 1, GaveUp: 0.61}}}
	golden(t, "daily-post.json", DailyPost(two, day, reveal).Body())
}

// TestDailyNumbersAreTheCoachs: what the answer and the reveal say a
// throw is worth is what the coach's hint says of it, number for number.
func TestDailyNumbersAreTheCoachs(t *testing.T) {
	for _, date := range []string{"2026-03-14", "2026-03-15", "2026-06-01"} {
		d, day := dailyOn(t, date)
		coach := DiscardHint(lang.English, d.Options, ai.Splits(d.Options, 0, d.Dealer, d.Dealt), 3)
		for _, s := range d.Splits {
			ans := cribbage.DailyAnswer{Day: day, Throw: engine.SetOf(s.Throw...)}
			res := DailyResult(d, ans, nil, false).Content
			if !strings.Contains(res, coach) {
				t.Errorf("%s: the answer does not show the coach's hint:\n%s\nwant within it:\n%s", date, res, coach)
			}
			if !strings.Contains(res, fmt.Sprintf("expected %.2f", s.Total)) && !strings.Contains(res, fmt.Sprintf("expected **%.2f**", s.Total)) {
				t.Errorf("%s: the answer to %s does not show its total %.2f", date, engine.FormatCards(s.Throw), s.Total)
			}
		}
		post := DailyPost(d, day+1, &Reveal{Hand: d, Day: day}).Embeds[0].Description
		if !strings.Contains(post, coach) {
			t.Errorf("%s: the reveal does not show the coach's hint", date)
		}
	}
}
