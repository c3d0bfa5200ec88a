package engine

import (
	"encoding/binary"
	"math/rand/v2"
)

// Seed is the 32 bytes of randomness a hand is dealt from. The caller draws
// it from crypto/rand and stores it, so the hand can be replayed exactly.
type Seed [32]byte

// Shuffle returns the 52 cards in the order the seed shuffles them. The
// shuffle is a Fisher–Yates over the ChaCha8 stream with unbiased bounded
// draws written out here, so the order depends only on the seed and on
// ChaCha8 (whose output Go guarantees), never on a library's choice of
// algorithm. A golden test pins it.
func Shuffle(seed Seed) [52]Card {
	var deck [52]Card
	for i := range deck {
		deck[i] = cardAt(uint(i))
	}
	src := rand.NewChaCha8(seed)
	for i := len(deck) - 1; i > 0; i-- {
		j := boundedDraw(src, uint64(i+1))
		deck[i], deck[j] = deck[j], deck[i]
	}
	return deck
}

// boundedDraw returns a uniform number in [0, n) by rejection: draws from
// the top partial block of 2^64 are thrown away.
func boundedDraw(src *rand.ChaCha8, n uint64) uint64 {
	limit := -n % n // 2^64 mod n: the size of the biased top block
	for {
		x := src.Uint64()
		if x >= limit {
			return x % n
		}
	}
}

// SeedFromUint64 builds a seed from a number, for tests, examples and
// simulations that want reproducible games; real games draw seeds from
// crypto/rand.
func SeedFromUint64(n uint64) Seed {
	var s Seed
	binary.LittleEndian.PutUint64(s[:], n)
	return s
}
