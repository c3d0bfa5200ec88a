package render

// Counting aloud in the player's language: the engine scores a hand and
// groups its items into the phrases players use (engine.Phrase); the
// words are the catalogues'. English reads as the engine's own
// (Breakdown.Spoken), which the command line keeps.

import (
	"strings"

	"github.com/cribbage-bot/cribbage/bot/lang"
	"github.com/cribbage-bot/cribbage/engine"
)

// NumberWord is n in words in l, up to thirty-one; digits beyond.
func NumberWord(l lang.Lang, n int) string {
	words := strings.Split(l.T("speech.numbers"), ",")
	if n >= 0 && n < len(words) {
		return strings.TrimSpace(words[n])
	}
	return l.Int(n)
}

// capitalized is s with its first letter in upper case.
func capitalized(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

// andList joins parts as l lists them: "a, b and c".
func andList(l lang.Lang, parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return l.T("speech.and", "A", strings.Join(parts[:len(parts)-1], ", "), "B", parts[len(parts)-1])
}

// spoken is a show's breakdown the way players of l count aloud:
// "fifteen two, fifteen four and a pair is six"; a hand with nothing is
// "nineteen", the score that cannot be made.
func spoken(l lang.Lang, b engine.Breakdown) string {
	if b.Total == 0 {
		return l.T("speech.nineteen")
	}
	var parts []string
	running := 0
	for _, it := range b.Items {
		if it.Kind == engine.KindFifteen {
			running += it.Points
			parts = append(parts, l.T("speech.fifteen", "Total", NumberWord(l, running)))
		}
	}
	fifteensOnly := len(parts)
	for _, p := range b.Phrases() {
		running += p.Points
		parts = append(parts, l.T("speech.is", "What", phrase(l, p), "Total", NumberWord(l, running)))
	}
	if fifteensOnly == len(parts) {
		return strings.Join(parts, ", ")
	}
	return andList(l, parts)
}

// phrase names one phrase of a count in l.
func phrase(l lang.Lang, p engine.Phrase) string {
	switch p.Kind {
	case engine.KindRun:
		switch p.Runs {
		case 1:
			return l.T("speech.run", "Len", NumberWord(l, p.Len))
		case 2:
			return l.T("speech.double-run", "Len", NumberWord(l, p.Len))
		case 3:
			return l.T("speech.triple-run", "Len", NumberWord(l, p.Len))
		case 4:
			return l.T("speech.double-double-run")
		}
		return l.T("speech.runs", "Len", NumberWord(l, p.Len))
	case engine.KindPair:
		return pairWords(l, p.Points)
	case engine.KindFlush:
		return l.T("speech.flush", "Len", NumberWord(l, p.Len))
	}
	return l.T("speech.nobs")
}

// pairWords names cards of one rank by the points they make.
func pairWords(l lang.Lang, points int) string {
	switch points {
	case 6:
		return l.T("speech.three-of-a-kind")
	case 12:
		return l.T("speech.four-of-a-kind")
	}
	return l.T("speech.pair")
}

// spokenPlay says what a card laid in the play scored: "a pair and
// fifteen", "a run of four".
func spokenPlay(l lang.Lang, items []engine.ScoreItem) string {
	var parts []string
	for _, it := range items {
		switch it.Kind {
		case engine.KindFifteen:
			parts = append(parts, l.T("speech.play-fifteen"))
		case engine.KindPair:
			parts = append(parts, pairWords(l, it.Points))
		case engine.KindRun:
			parts = append(parts, l.T("speech.run", "Len", NumberWord(l, it.Points)))
		}
	}
	// Every part joined by "and", as the engine's English does.
	out := ""
	for i, p := range parts {
		if i == 0 {
			out = p
			continue
		}
		out = l.T("speech.and", "A", out, "B", p)
	}
	return out
}
