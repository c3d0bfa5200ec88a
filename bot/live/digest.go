package live

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"

	"github.com/cribbage-bot/cribbage/bot/render"
)

// renderSum is a digest of a rendered message's text, embeds and buttons.
// Its pictures are left out: a new board is sent when the key of the board
// shown differs (see showTable).
//
// It walks the message's values rather than their JSON: every field of
// every component, by kind, each string with its length and each
// interface with its type, so two messages share a digest only if they
// are the same values. Marshalling V2's nested components to JSON, each
// level validated again by the level above, was a fiftieth of the CPU of
// the 900-table benchmark, and the same message is digested several
// times.
func renderSum(r render.Message) [32]byte {
	buf := digestBuffers.Get().(*[]byte)
	defer digestBuffers.Put(buf)
	b := (*buf)[:0]
	b = appendValue(b, reflect.ValueOf(r.Content))
	b = appendValue(b, reflect.ValueOf(r.Embeds))
	b = appendValue(b, reflect.ValueOf(r.Components))
	*buf = b
	return sha256.Sum256(b)
}

var digestBuffers = sync.Pool{New: func() any { return new([]byte) }}

// appendValue appends v's kind and value to b, unambiguously: a string
// or a list says its length first, a pointer or an interface whether it
// is nil, and an interface the type it holds.
func appendValue(b []byte, v reflect.Value) []byte {
	b = append(b, byte(v.Kind()))
	switch v.Kind() {
	case reflect.String:
		b = binary.AppendUvarint(b, uint64(v.Len()))
		return append(b, v.String()...)
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1)
		}
		return append(b, 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(b, v.Uint())
	case reflect.Float32, reflect.Float64:
		return binary.BigEndian.AppendUint64(b, math.Float64bits(v.Float()))
	case reflect.Pointer:
		if v.IsNil() {
			return append(b, 0)
		}
		return appendValue(append(b, 1), v.Elem())
	case reflect.Interface:
		if v.IsNil() {
			return append(b, 0)
		}
		e := v.Elem()
		name := e.Type().String()
		b = binary.AppendUvarint(append(b, 1), uint64(len(name)))
		return appendValue(append(b, name...), e)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return append(b, 0)
		}
		b = binary.AppendUvarint(append(b, 1), uint64(v.Len()))
		for i := range v.Len() {
			b = appendValue(b, v.Index(i))
		}
		return b
	case reflect.Struct:
		for i := range v.NumField() {
			b = appendValue(b, v.Field(i))
		}
		return b
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0)
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int {
			return cmp.Compare(fmt.Sprint(x), fmt.Sprint(y))
		})
		b = binary.AppendUvarint(append(b, 1), uint64(len(keys)))
		for _, k := range keys {
			b = appendValue(appendValue(b, k), v.MapIndex(k))
		}
		return b
	}
	// Channels and functions have no place in a message.
	panic(fmt.Sprintf("live: a message holds a %s", v.Type()))
}
