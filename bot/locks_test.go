package bot

import (
	"sync"
	"testing"
)

// TestTableLocksAreDropped: a table's lock serialises its users and is
// forgotten once none holds or waits for it, so the map does not grow with
// every table ever played.
func TestTableLocksAreDropped(t *testing.T) {
	var l keyLocks[int64]
	var wg sync.WaitGroup
	inside, most := 0, 0
	var mu sync.Mutex
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock := l.lock(int64(i % 4))
			mu.Lock()
			inside++
			most = max(most, inside)
			mu.Unlock()
			mu.Lock()
			inside--
			mu.Unlock()
			unlock()
		}()
	}
	wg.Wait()
	if n := l.held(); n != 0 {
		t.Errorf("%d locks kept after every table was unlocked", n)
	}
	if most > 4 {
		t.Errorf("%d holders at once over 4 tables", most)
	}
}

// held returns how many keys' locks exist (held or waited for): a test
// looks, the bot never needs to.
func (l *keyLocks[K]) held() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.locks)
}
