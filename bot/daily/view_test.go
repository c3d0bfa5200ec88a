package daily

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cribbage-bot/cribbage/internal/golden"

	"github.com/cribbage-bot/cribbage"
	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/bot/render"
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
// the reveal of the day before to files under testdata/render, in
// English and in French (go test ./bot/daily -update rewrites them).
func TestGoldenDaily(t *testing.T) {
	fr, _ := lang.ByCode("fr")
	for _, tc := range []struct {
		prefix string
		l      lang.Lang
	}{{"", lang.English}, {"fr-", fr}} {
		l := tc.l
		two, day := dailyOn(t, "2026-03-15")
		three, threeDay := dailyOn(t, "2026-03-14")
		chosen := engine.SetOf(two.Dealt.Cards()[:2]...)
		golden.JSON(t, tc.prefix+"daily-view.json", View(l, two, day, chosen, ""))
		golden.JSON(t, tc.prefix+"daily-view-three.json", View(l, three, threeDay, 0, ""))
		ans := cribbage.DailyAnswer{Day: day, UserID: "u1", Name: "Ann", GuildID: "g", Throw: chosen}
		_, ans.GaveUp, _ = two.Judge(chosen)
		golden.JSON(t, tc.prefix+"daily-result.json", Result(l, two, ans, []string{StreakLine(l, 3)}, true))
		best := engine.SetOf(three.Splits[0].Throw...)
		other := engine.SetOf(three.Splits[2].Throw...)
		reveal := &Reveal{Hand: three, Day: threeDay, Answers: []cribbage.DailyAnswer{
			{UserID: "u1", Name: "Ann", Throw: best}, {UserID: "u2", Name: "Bob", Throw: other}, {UserID: "u3", Name: "Cid", Throw: best},
		}, Month: []cribbage.DailyTotal{{UserID: "u1", Name: "Ann", Days: 3, GaveUp: 0}, {UserID: "u2", Name: "Bob", Days: 1, GaveUp: 0.61}}}
		golden.JSON(t, tc.prefix+"daily-post.json", BodyOf(Post(l, two, day, reveal)))
	}
}

// TestDatesInTheReadersWords: a day and a month are written with the
// names of each language, as its readers write dates.
func TestDatesInTheReadersWords(t *testing.T) {
	_, day := dailyOn(t, "2026-03-14")
	for code, want := range map[string][2]string{
		"en":    {"Saturday 14 March 2026", "March 2026"},
		"fr":    {"samedi 14 mars 2026", "mars 2026"},
		"es":    {"sábado 14 de marzo de 2026", "marzo de 2026"},
		"pt-BR": {"sábado, 14 de março de 2026", "março de 2026"},
	} {
		l, _ := lang.ByCode(code)
		if got := Date(l, day); got != want[0] {
			t.Errorf("%s: the day is %q, want %q", code, got, want[0])
		}
		if got := MonthName(l, day); got != want[1] {
			t.Errorf("%s: the month is %q, want %q", code, got, want[1])
		}
	}
}

// TestDailyNumbersAreTheCoachs: what the answer and the reveal say a
// throw is worth is what the coach's hint says of it, number for number.
func TestDailyNumbersAreTheCoachs(t *testing.T) {
	for _, date := range []string{"2026-03-14", "2026-03-15", "2026-06-01"} {
		d, day := dailyOn(t, date)
		coach := render.DiscardHint(lang.English, d.Options, ai.Splits(d.Options, 0, d.Dealer, d.Dealt), 3)
		for _, s := range d.Splits {
			ans := cribbage.DailyAnswer{Day: day, Throw: engine.SetOf(s.Throw...)}
			res := Result(lang.English, d, ans, nil, false).Content
			if !strings.Contains(res, coach) {
				t.Errorf("%s: the answer does not show the coach's hint:\n%s\nwant within it:\n%s", date, res, coach)
			}
			if !strings.Contains(res, fmt.Sprintf("expected %.2f", s.Total)) && !strings.Contains(res, fmt.Sprintf("expected **%.2f**", s.Total)) {
				t.Errorf("%s: the answer to %s does not show its total %.2f", date, engine.FormatCards(s.Throw), s.Total)
			}
		}
		post := Post(lang.English, d, day+1, &Reveal{Hand: d, Day: day}).Embeds[0].Description
		if !strings.Contains(post, coach) {
			t.Errorf("%s: the reveal does not show the coach's hint", date)
		}
	}
}
