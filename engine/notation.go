package engine

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// String writes the action in the notation ParseAction reads:
//
//	deal 0 seed=<64 hex digits>
//	discard 1 AH 2H
//	play 1 KH
//	claim 1 12
//	muggins 0 #2
//	resign 1
//	forfeit 0 1
func (a Action) String() string {
	head := a.Kind.String() + " " + strconv.Itoa(a.Seat)
	switch a.Kind {
	case ActDeal:
		if a.Seed != nil {
			return head + " seed=" + hex.EncodeToString(a.Seed[:])
		}
	case ActDiscard:
		return head + " " + FormatCards(a.Cards)
	case ActPlay:
		return head + " " + a.Card.String()
	case ActClaim:
		return head + " " + strconv.Itoa(a.Points)
	case ActMuggins:
		return head + " #" + strconv.Itoa(a.Index)
	case ActForfeit:
		return head + " " + strconv.Itoa(a.Other)
	}
	return head
}

// ParseAction reads an action written by Action.String.
func ParseAction(s string) (Action, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return Action{}, fmt.Errorf("%w: %q", ErrBadAction, s)
	}
	var a Action
	if err := a.Kind.UnmarshalText([]byte(f[0])); err != nil {
		return Action{}, err
	}
	seat, err := strconv.Atoi(f[1])
	if err != nil {
		return Action{}, fmt.Errorf("%w: seat %q", ErrBadAction, f[1])
	}
	a.Seat = seat
	args := f[2:]
	arg := ""
	if len(args) > 0 {
		arg = args[0]
	}
	switch a.Kind {
	case ActDeal:
		raw, err := hex.DecodeString(strings.TrimPrefix(arg, "seed="))
		if err != nil || len(raw) != len(Seed{}) {
			return Action{}, fmt.Errorf("%w: seed %q", ErrBadAction, arg)
		}
		a.Seed = new(Seed)
		copy(a.Seed[:], raw)
	case ActDiscard:
		a.Cards, err = ParseCards(strings.Join(args, " "))
	case ActPlay:
		a.Card, err = ParseCard(arg)
	case ActClaim:
		a.Points, err = strconv.Atoi(arg)
	case ActMuggins:
		a.Index, err = strconv.Atoi(strings.TrimPrefix(arg, "#"))
	case ActForfeit:
		a.Other, err = strconv.Atoi(arg)
	}
	if err != nil {
		return Action{}, fmt.Errorf("%w: %q: %v", ErrBadAction, s, err)
	}
	return a, nil
}

// String writes the event on one line, for transcripts and logs.
func (e Event) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s seat=%d", e.Kind, e.Seat)
	if e.Kind == EvMuggins {
		fmt.Fprintf(&b, " from=%d", e.Other)
	}
	if e.Crib {
		b.WriteString(" crib")
	}
	if e.Card != NoCard {
		fmt.Fprintf(&b, " card=%s", e.Card)
	}
	if len(e.Cards) > 0 {
		fmt.Fprintf(&b, " cards=%s", strings.ReplaceAll(FormatCards(e.Cards), " ", ","))
	}
	if e.Count > 0 {
		fmt.Fprintf(&b, " count=%d", e.Count)
	}
	if e.N > 0 {
		fmt.Fprintf(&b, " n=%d", e.N)
	}
	if e.Kind == EvClaim {
		fmt.Fprintf(&b, " claimed=%d missed=%d", e.Claimed, e.Missed)
	}
	for _, it := range e.Items {
		fmt.Fprintf(&b, " %s", it.Kind)
		if len(it.Cards) > 0 {
			fmt.Fprintf(&b, "(%s)", strings.ReplaceAll(FormatCards(it.Cards), " ", ","))
		}
		fmt.Fprintf(&b, "=%d", it.Points)
	}
	if e.Points > 0 {
		fmt.Fprintf(&b, " points=%d", e.Points)
	}
	if len(e.Scores) > 0 {
		fmt.Fprintf(&b, " scores=%s", joinInts(e.Scores))
	}
	if r := e.Result; r != nil {
		fmt.Fprintf(&b, " winner=%d reason=%s skunks=%s games=%d", r.Winner, r.Reason, joinInts(r.Skunks), r.Games)
	}
	return b.String()
}

// joinInts writes numbers separated by commas.
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}
