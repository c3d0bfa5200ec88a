package bot

import "sync"

// keyLocks is a lock per key that lives only while someone holds or waits
// for it, so the map stays as small as what is in use. The bot keeps one
// per table, so clicks on a table queue instead of racing (the store's
// version check guards against other processes), and one per rate-limit
// bucket, so the sender's check of a bucket and its request on it are not
// split by another request.
type keyLocks[K comparable] struct {
	mu    sync.Mutex
	locks map[K]*keyLock
}

// keyLock is one key's lock and how many hold or wait for it.
type keyLock struct {
	sync.Mutex
	users int
}

// lock locks a key and returns its unlock.
func (l *keyLocks[K]) lock(key K) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[K]*keyLock{}
	}
	kl, ok := l.locks[key]
	if !ok {
		kl = &keyLock{}
		l.locks[key] = kl
	}
	kl.users++
	l.mu.Unlock()
	kl.Lock()
	return func() {
		kl.Unlock()
		l.mu.Lock()
		if kl.users--; kl.users == 0 {
			delete(l.locks, key)
		}
		l.mu.Unlock()
	}
}
