package engine

import "fmt"

// The enums of this package (Phase, ActionKind, EventKind, ScoreKind) are
// written by name in JSON and transcripts; these two helpers do it from a
// name table so each enum only lists its names.

// nameOf returns k's name in names, or "unknown".
func nameOf[K comparable](names map[K]string, k K) string {
	if n, ok := names[k]; ok {
		return n
	}
	return "unknown"
}

// parseName sets *k to the value named text, wrapping errBase if there is
// none.
func parseName[K comparable](names map[K]string, text []byte, k *K, errBase error) error {
	for v, n := range names {
		if n == string(text) {
			*k = v
			return nil
		}
	}
	return fmt.Errorf("%w: unknown name %q", errBase, text)
}
