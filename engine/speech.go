package engine

import (
	"strconv"
	"strings"
)

var numberWords = [...]string{
	"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
	"seventeen", "eighteen", "nineteen", "twenty", "twenty-one", "twenty-two",
	"twenty-three", "twenty-four", "twenty-five", "twenty-six", "twenty-seven",
	"twenty-eight", "twenty-nine", "thirty", "thirty-one",
}

// NumberWord returns n in words up to thirty-one, digits beyond.
func NumberWord(n int) string {
	if n >= 0 && n < len(numberWords) {
		return numberWords[n]
	}
	return strconv.Itoa(n)
}

// Spoken returns a show breakdown the way players count aloud: "fifteen
// two, fifteen four and a pair is six". Runs that share ranks are named as
// players name them (a double run of three is two runs and a pair), and a
// hand with nothing is "nineteen", the score that cannot be made.
func (b Breakdown) Spoken() string {
	if b.Total == 0 {
		return "nineteen"
	}
	var parts []string
	running := 0
	for _, it := range b.Items {
		if it.Kind == KindFifteen {
			running += it.Points
			parts = append(parts, "fifteen "+NumberWord(running))
		}
	}
	fifteensOnly := len(parts)
	for _, p := range groupShow(b.Items) {
		g := englishPhrase(p)
		running += g.points
		parts = append(parts, g.name+" is "+NumberWord(running))
	}
	if len(parts) == 1 || fifteensOnly == len(parts) {
		return strings.Join(parts, ", ")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// pairName names cards of one rank by the points they make: a pair is 2,
// three of a kind 6, four of a kind 12.
var pairName = map[int]string{2: "a pair", 6: "three of a kind", 12: "four of a kind"}

// SpokenPlay says what a card laid in the play scored, as players say it:
// "a pair and fifteen", "a run of four".
func SpokenPlay(items []ScoreItem) string {
	var parts []string
	for _, it := range items {
		switch it.Kind {
		case KindFifteen:
			parts = append(parts, "fifteen")
		case KindPair:
			parts = append(parts, pairName[it.Points])
		case KindRun:
			parts = append(parts, "a run of "+NumberWord(it.Points))
		}
	}
	return strings.Join(parts, " and ")
}

// Phrase is one phrase of a count as players say it, in no language:
// a run of Len cards (Runs of them sharing ranks: a double run is 2, with
// the pairs inside it), cards of one rank (a pair, three or four of a
// kind, by Points), a flush of Points cards, or his nobs. Points is what
// the phrase scores.
type Phrase struct {
	Kind   ScoreKind
	Len    int
	Runs   int
	Points int
}

// Phrases gathers a show's pairs, runs, flush and nobs into the phrases
// players use, in the order they say them; the fifteens come before, one
// by one.
func (b Breakdown) Phrases() []Phrase { return groupShow(b.Items) }

// spokenGroup is one phrase of a count: "a double run of three", 8 points.
type spokenGroup struct {
	name   string
	points int
}

// groupShow gathers the pairs, runs, flush and nobs of a show into the
// phrases players use.
func groupShow(items []ScoreItem) []Phrase {
	var groups []Phrase
	var runLen, runs int
	pairsByRank := map[Rank]int{}
	var pairOrder []Rank
	for _, it := range items {
		switch it.Kind {
		case KindRun:
			runLen, runs = len(it.Cards), runs+1
		case KindPair:
			r := it.Cards[0].Rank()
			if pairsByRank[r] == 0 {
				pairOrder = append(pairOrder, r)
			}
			pairsByRank[r]++
		}
	}
	if runs > 0 {
		// Pairs inside the run's ranks belong to the run's name.
		_, inRun := runName(runLen, runs)
		groups = append(groups, Phrase{Kind: KindRun, Len: runLen, Runs: runs, Points: runs*runLen + 2*inRun})
		for _, it := range items {
			if it.Kind == KindRun {
				for _, c := range it.Cards {
					if pairsByRank[c.Rank()] > 0 {
						pairsByRank[c.Rank()] = 0
					}
				}
				break
			}
		}
	}
	for _, r := range pairOrder {
		// n cards of a rank make n(n-1)/2 pairs worth 2 each.
		if points := 2 * pairsByRank[r]; pairName[points] != "" {
			groups = append(groups, Phrase{Kind: KindPair, Points: points})
		}
	}
	for _, it := range items {
		switch it.Kind {
		case KindFlush:
			groups = append(groups, Phrase{Kind: KindFlush, Len: it.Points, Points: it.Points})
		case KindNobs:
			groups = append(groups, Phrase{Kind: KindNobs, Points: 1})
		}
	}
	return groups
}

// englishPhrase names a phrase in English.
func englishPhrase(p Phrase) spokenGroup {
	switch p.Kind {
	case KindRun:
		name, _ := runName(p.Len, p.Runs)
		return spokenGroup{name, p.Points}
	case KindPair:
		return spokenGroup{pairName[p.Points], p.Points}
	case KindFlush:
		return spokenGroup{"a flush of " + NumberWord(p.Points), p.Points}
	}
	return spokenGroup{"his nobs", 1}
}

// runName names runs of one length that share ranks, and says how many
// pairs the name includes.
func runName(length, runs int) (name string, pairs int) {
	of := " of " + NumberWord(length)
	switch runs {
	case 1:
		return "a run" + of, 0
	case 2:
		return "a double run" + of, 1
	case 3:
		return "a triple run" + of, 3
	case 4:
		return "a double double run", 2
	}
	return "runs" + of, 0
}
