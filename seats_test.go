package cribbage

import "testing"

// TestWhoSitsAtATable: a table has a person if any seat is one, and a
// computer if any seat is one; a tournament's game between computer
// entrants has no person, and is played quietly.
func TestWhoSitsAtATable(t *testing.T) {
	person, computer := Seat{UserID: "u", Name: "Ann"}, Seat{Computer: "easy", Name: "Computer 2 (easy)"}
	for _, c := range []struct {
		name             string
		seats            []Seat
		person, computer bool
	}{
		{"people", []Seat{person, person}, true, false},
		{"a person and a computer", []Seat{person, computer}, true, true},
		{"computers", []Seat{computer, computer}, false, true},
		{"nobody yet", nil, false, false},
	} {
		tb := &Table{Seats: c.seats}
		if got := tb.HasPerson(); got != c.person {
			t.Errorf("%s: HasPerson = %v", c.name, got)
		}
		if got := tb.HasComputer(); got != c.computer {
			t.Errorf("%s: HasComputer = %v", c.name, got)
		}
	}
}
