package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/cribbage-bot/cribbage"
)

// queue appends announcements to the outbox inside a transaction. Ids grow
// with every row, which is the delivery order.
func (s *Store) queue(ctx context.Context, tx *txn, tableID int64, items []cribbage.Outbound) error {
	if len(items) == 0 {
		return nil
	}
	now := millis(s.now())
	for _, it := range items {
		if _, err := tx.exec(ctx, `INSERT INTO outbox (id, table_id, channel_id, kind, payload, waits, created_at)
			VALUES (`+s.db.d.newID("outbox")+`, ?, ?, ?, ?, ?, ?)`,
			tableID, it.ChannelID, it.Kind, it.Payload, boolInt(it.Waits), now); err != nil {
			return fmt.Errorf("store: queue announcement: %w", err)
		}
	}
	return nil
}

// OutboxDepth counts the undelivered announcements ready to send (not
// those waiting for a later one) and says when the oldest was queued.
func (s *Store) OutboxDepth(ctx context.Context) (int, time.Time, error) {
	var n int
	var oldest sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), MIN(created_at) FROM outbox WHERE delivered_at = 0 AND waits = 0`).Scan(&n, &oldest); err != nil {
		return 0, time.Time{}, err
	}
	return n, fromMillis(oldest.Int64), nil
}

// PendingOutbox returns up to limit undelivered announcements in delivery
// order, due or not, passing over those that wait for a later one. No
// process delivers from it (a sender claims with ClaimOutbox): it is for
// tests and for looking into a store, which is why it is not a service.
func (s *Store) PendingOutbox(ctx context.Context, limit int) ([]cribbage.OutboxItem, error) {
	return s.pendingAfter(ctx, 0, limit)
}

// pendingAfter is PendingOutbox for the tables with an announcement after
// id after: all of their pending announcements, the earlier ones too.
// A table whose lease another process held when its earlier ones were
// read, and let go since, is read whole: what this process reads of a
// table always begins with the table's first pending announcement.
func (s *Store) pendingAfter(ctx context.Context, after int64, limit int) ([]cribbage.OutboxItem, error) {
	if after == 0 {
		return s.outboxRows(ctx, `SELECT `+outboxColumns+` FROM outbox WHERE delivered_at = 0 AND waits = 0 ORDER BY id LIMIT ?`, limit)
	}
	return s.outboxRows(ctx, `SELECT `+outboxColumns+` FROM outbox WHERE delivered_at = 0 AND waits = 0
		AND table_id IN (SELECT table_id FROM outbox WHERE delivered_at = 0 AND waits = 0 AND id > ?) ORDER BY id LIMIT ?`, after, limit)
}

// ClaimOutbox returns the undelivered announcements of the tables whose
// lease owner holds or takes now: all of them, or (after above 0) all
// those of the tables with one queued after id after. A lease is taken (or
// renewed) by an upsert that only succeeds when the table has no lease,
// owner's own, or one that lapsed: two processes cannot both hold a table.
// A lease this handle took for owner is renewed only once half of it has
// run: a sender claims many times a second, and renewing every table each
// time was a write per table per pass. A process whose clock runs ahead
// of this one's by more than half a lease could take a table this one
// still thinks it holds; replicas keep their clocks in step (NTP) far
// closer than that.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, after int64, limit int, lease time.Duration) ([]cribbage.OutboxItem, error) {
	items, err := s.pendingAfter(ctx, after, limit)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	now := s.now()
	held := map[int64]bool{}
	var renew []int64
	for _, it := range items {
		if _, seen := held[it.TableID]; seen {
			continue
		}
		held[it.TableID] = s.leases.holds(owner, it.TableID, now.Add(lease/2))
		if !held[it.TableID] {
			renew = append(renew, it.TableID)
		}
	}
	if len(renew) > 0 {
		until := now.Add(lease)
		taken := map[int64]bool{}
		err = s.inTx(ctx, func(tx *txn) error {
			clear(taken)
			for _, id := range renew {
				n, err := tx.affected(ctx, `INSERT INTO outbox_leases (table_id, owner, until) VALUES (?, ?, ?)
					ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, until = excluded.until
					WHERE outbox_leases.owner = excluded.owner OR outbox_leases.until < ?`,
					id, owner, millis(until), millis(now))
				if err != nil {
					return fmt.Errorf("store: lease table %d's announcements: %w", id, err)
				}
				taken[id] = n == 1
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, id := range renew {
			held[id] = taken[id]
			s.leases.record(owner, id, until, taken[id])
		}
	}
	var out []cribbage.OutboxItem
	for _, it := range items {
		if held[it.TableID] {
			out = append(out, it)
		}
	}
	return out, nil
}

// ReleaseOutbox gives up owner's leases.
func (s *Store) ReleaseOutbox(ctx context.Context, owner string) error {
	s.leases.forget(owner)
	return s.exec(ctx, `DELETE FROM outbox_leases WHERE owner = ?`, owner)
}

// leaseBook remembers the outbox leases a handle took and until when, so
// a claim need not write to learn that its owner still holds a table.
// Only this handle's owners are in it; another process can take a table
// only once its lease lapsed, which a claim renews long before.
type leaseBook struct {
	mu    sync.Mutex
	until map[leaseKey]time.Time
	// sweepAt is the size at which the book next forgets old leases.
	sweepAt int
}

// leaseKey is a table's lease as one owner holds it.
type leaseKey struct {
	owner string
	table int64
}

// holds reports whether owner holds table's lease past the time by.
func (b *leaseBook) holds(owner string, table int64, by time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	until, ok := b.until[leaseKey{owner, table}]
	return ok && until.After(by)
}

// record notes that owner took (or failed to take) table's lease until
// then. The book forgets leases that ended an hour before as it grows, so
// a process that runs for months does not remember every table it ever
// sent for, and sweeps again only once it has doubled.
func (b *leaseBook) record(owner string, table int64, until time.Time, taken bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.until == nil {
		b.until = map[leaseKey]time.Time{}
	}
	k := leaseKey{owner, table}
	if !taken {
		delete(b.until, k)
		return
	}
	if len(b.until) >= max(b.sweepAt, leaseSweep) {
		for k, u := range b.until {
			if u.Before(until.Add(-time.Hour)) {
				delete(b.until, k)
			}
		}
		b.sweepAt = 2 * len(b.until)
	}
	b.until[k] = until
}

// leaseSweep is the least size at which a lease book forgets old leases.
const leaseSweep = 4096

// forget drops owner's leases, which it is giving up.
func (b *leaseBook) forget(owner string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k := range b.until {
		if k.owner == owner {
			delete(b.until, k)
		}
	}
}

// outboxColumns are the columns outboxRows reads.
const outboxColumns = `id, table_id, channel_id, kind, payload, waits, attempts, sealed_through, next_attempt_at, created_at`

// outboxRows runs a query for outbox rows.
func (s *Store) outboxRows(ctx context.Context, query string, args ...any) ([]cribbage.OutboxItem, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []cribbage.OutboxItem
	for rows.Next() {
		var it cribbage.OutboxItem
		var next, created, waits int64
		if err := rows.Scan(&it.ID, &it.TableID, &it.ChannelID, &it.Kind, &it.Payload, &waits, &it.Attempts, &it.SealedThrough, &next, &created); err != nil {
			return nil, err
		}
		it.Waits = waits != 0
		it.NextAttemptAt, it.CreatedAt = fromMillis(next), fromMillis(created)
		out = append(out, it)
	}
	return out, rows.Err()
}

// TablePending returns one table's undelivered announcements in order.
func (s *Store) TablePending(ctx context.Context, tableID int64) ([]cribbage.OutboxItem, error) {
	return s.outboxRows(ctx, `SELECT `+outboxColumns+` FROM outbox WHERE table_id = ? AND delivered_at = 0 ORDER BY id`, tableID)
}

// TableOutbox returns every announcement queued for a table, delivered or
// not, in delivery order. A sealed one carries the lines merged into it.
func (s *Store) TableOutbox(ctx context.Context, tableID int64) ([]cribbage.OutboxItem, error) {
	return s.outboxRows(ctx, `SELECT `+outboxColumns+` FROM outbox WHERE table_id = ? ORDER BY id`, tableID)
}

// MarkDelivered records that announcements were delivered (or given up:
// attempts says how hard each was tried), in one transaction.
func (s *Store) MarkDelivered(ctx context.Context, ids ...int64) error {
	if len(ids) == 0 {
		return nil
	}
	now := millis(s.now())
	return s.inTx(ctx, func(tx *txn) error {
		for _, id := range ids {
			if _, err := tx.exec(ctx, `UPDATE outbox SET delivered_at = ?, attempts = attempts + 1 WHERE id = ?`, now, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// Seal records that announcement id is sent with the announcements after
// it up to through merged in, unless it was sealed or delivered already
// (then ErrStale): a post resent after a crash carries the same text under
// the same nonce.
func (s *Store) Seal(ctx context.Context, id, through int64) error {
	return s.inTx(ctx, func(tx *txn) error {
		n, err := tx.affected(ctx, `UPDATE outbox SET sealed_through = ? WHERE id = ? AND sealed_through = 0 AND delivered_at = 0`, through, id)
		if err != nil {
			return fmt.Errorf("store: seal announcement: %w", err)
		}
		if n != 1 {
			return cribbage.ErrStale
		}
		return nil
	})
}

// MarkFailed counts a failed delivery and sets when to try again.
func (s *Store) MarkFailed(ctx context.Context, id int64, next time.Time) error {
	return s.exec(ctx, `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?`, millis(next), id)
}

// Prune deletes delivered announcements and processed interaction ids older
// than age, which are not needed once Discord can no longer retry, and the
// hand views of finished tables.
func (s *Store) Prune(ctx context.Context, age time.Duration) error {
	cutoff := millis(s.now().Add(-age))
	return s.inTx(ctx, func(tx *txn) error {
		if _, err := tx.exec(ctx, `DELETE FROM outbox WHERE delivered_at > 0 AND delivered_at < ?`, cutoff); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `DELETE FROM outbox_leases WHERE until < ?`, cutoff); err != nil {
			return err
		}
		// A finished table's hand views will never be edited again.
		if _, err := tx.exec(ctx, `DELETE FROM hand_views WHERE table_id IN (SELECT id FROM tables WHERE status IN ('finished', 'closed'))`); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `DELETE FROM interactions WHERE created_at < ?`, cutoff)
		return err
	})
}
