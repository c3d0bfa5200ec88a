package cribbage

import (
	"reflect"
	"testing"
	"time"
)

// TestTournamentEqualSeesEveryField: Equal tells a tournament from one that
// differs from it in any single field, so a field added to Tournament and
// left out of Equal fails here.
func TestTournamentEqualSeesEveryField(t *testing.T) {
	base := &Tournament{}
	if !base.Equal(base.Clone()) {
		t.Fatal("a tournament is not Equal to its clone")
	}
	typ := reflect.TypeOf(*base)
	for i := range typ.NumField() {
		changed := base.Clone()
		f := reflect.ValueOf(changed).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int, reflect.Int64:
			f.SetInt(1)
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Struct:
			f.Set(reflect.ValueOf(time.Unix(1, 0)))
		default:
			t.Fatalf("the test cannot change %s, a %s: teach it", typ.Field(i).Name, f.Type())
		}
		if base.Equal(changed) || changed.Equal(base) {
			t.Errorf("Equal misses %s", typ.Field(i).Name)
		}
	}
}
