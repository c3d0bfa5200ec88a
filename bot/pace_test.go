package bot

import (
	"encoding/json"
	"fmt"
	"github.com/cribbage-bot/cribbage"
	"slices"
	"strings"
	"sync"
	"testing"
)

// posts builds outbox items of table 1 from kinds and contents: "p:text"
// is a story line, "t" a table refresh, "h" a thread.
func posts(specs ...string) []cribbage.OutboxItem {
	var out []cribbage.OutboxItem
	for i, s := range specs {
		it := cribbage.OutboxItem{ID: int64(i + 1), TableID: 1}
		switch {
		case strings.HasPrefix(s, "p:"):
			payload, _ := json.Marshal(postPayload{Content: s[2:], Mentions: []string{fmt.Sprint("u", len(s)%2)}})
			it.Kind, it.Payload = kindPost, string(payload)
		case s == "t":
			it.Kind = kindTable
		case s == "h":
			it.Kind = kindThread
		}
		out = append(out, it)
	}
	return out
}

func TestMergePosts(t *testing.T) {
	long := strings.Repeat("x", 1997) // "a\n" and this make 1999 characters
	tests := []struct {
		name    string
		items   []cribbage.OutboxItem
		through int64
		want    string
		merged  []int64
	}{
		{"lines in order, passing over table refreshes", posts("p:a", "t", "p:b", "p:c", "t"), 0, "a\nb\nc", []int64{3, 4}},
		{"stops at a thread", posts("p:a", "p:b", "h", "p:c"), 0, "a\nb", []int64{2}},
		{"stops before 2000 characters", posts("p:a", "p:"+long, "p:c"), 0, "a\n" + long, []int64{2}},
		{"one line alone", posts("p:a"), 0, "a", nil},
		{"a sealed post takes exactly its lines", posts("p:a", "p:b", "t", "p:c", "p:d"), 4, "a\nb\nc", []int64{2, 4}},
		{"another table's lines stay out", append(posts("p:a"), cribbage.OutboxItem{ID: 9, TableID: 2, Kind: kindPost, Payload: `{"content":"z"}`}), 0, "a", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var head postPayload
			json.Unmarshal([]byte(tt.items[0].Payload), &head)
			got, merged := mergePosts(tt.items[0], head, tt.items, tt.through)
			if got.Content != tt.want || !slices.Equal(merged, tt.merged) {
				t.Errorf("merged %q %v, want %q %v", got.Content, merged, tt.want, tt.merged)
			}
			if len([]rune(got.Content)) > maxContent {
				t.Errorf("%d characters", len([]rune(got.Content)))
			}
		})
	}
}

func TestMergePostsJoinsMentions(t *testing.T) {
	items := []cribbage.OutboxItem{
		{ID: 1, TableID: 1, Kind: kindPost, Payload: `{"content":"a","mentions":["1"]}`},
		{ID: 2, TableID: 1, Kind: kindPost, Payload: `{"content":"b","mentions":["2","1"]}`},
	}
	got, _ := mergePosts(items[0], postPayload{Content: "a", Mentions: []string{"1"}}, items, 0)
	if !slices.Equal(got.Mentions, []string{"1", "2"}) {
		t.Errorf("mentions %v", got.Mentions)
	}
}

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
