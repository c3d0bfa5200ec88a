package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// sqlite is the dialect of a SQLite file: one writer at a time, whose
// writes this process queues and commits in groups.
type sqlite struct {
	// writeMu queues this process's write transactions. SQLite allows one
	// writer at a time and makes the others retry with growing sleeps (up
	// to 100 ms each); waiting on a mutex instead hands the lock on at
	// once. Other processes are still kept out by SQLite's own lock and
	// the version compare-and-swap.
	writeMu sync.Mutex
	// pending are write transactions waiting for writeMu; the writer that
	// gets it commits them all (see write).
	pendingMu sync.Mutex
	pending   []*writeRequest
	// migrated is set once the schema is final (Open sets it after the
	// migrations): from then on exec prepares each statement once and
	// keeps it. A migration's statements are not kept, and could not be:
	// a statement is prepared on another connection than the
	// transaction's, which cannot see the tables a migration has not
	// committed yet ("no such table").
	migrated bool
	// along is how long writeAlong waits for another's batch: alongWait,
	// unless a test sets it.
	along time.Duration
	// batches counts the batches committed or tried; lastBatch is when
	// the last began (Unix nanoseconds), and leaders how many writers are
	// leading one or waiting to.
	batches   atomic.Int64
	lastBatch atomic.Int64
	leaders   atomic.Int32
}

func (*sqlite) name() string { return "sqlite" }

// bind leaves the placeholders: SQLite reads ?.
func (*sqlite) bind(query string) string { return query }

// newID is the next number after the largest: SQLite has one writer at a
// time, so it is free.
func (*sqlite) newID(table string) string {
	return "(SELECT COALESCE(MAX(id), 0) + 1 FROM " + table + ")"
}

// migrations are the plain SQL files both databases read.
func (*sqlite) migrations() []string { return []string{"*.sql"} }

// lockMigrations has nothing to do: SQLite's own write lock serializes
// the migrations' transactions.
func (*sqlite) lockMigrations(context.Context, *conn) (func(), error) { return func() {}, nil }

// lockPeople has nothing to do: SQLite has one writer, and a batch of
// group-committed writes runs one after another in one transaction, each
// seeing the writes before it.
func (*sqlite) lockPeople(context.Context, *txn, string, []string) error { return nil }

// lockSeason has nothing to do: SQLite's writes are one at a time (write),
// so no season starts between a finish reading the current season and
// its commit.
func (*sqlite) lockSeason(context.Context, *txn, string, bool) error { return nil }

// exec runs a cached prepared statement, once the schema is final:
// SQLite otherwise parses the statement each time.
func (d *sqlite) exec(ctx context.Context, tx *txn, query string, args ...any) (sql.Result, error) {
	if !d.migrated {
		return tx.tx.ExecContext(ctx, query, args...)
	}
	st, err := tx.c.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return tx.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
}

// write runs fn in a write transaction.
//
// Writes are group-committed: a writer that finds others queued commits
// all of them in one transaction, each inside its own savepoint, so one
// change's failure undoes only that change. Under a burst of moves at
// many tables this turns a queue of commits into a few, while each fn
// still sees a transaction of its own.
func (d *sqlite) write(ctx context.Context, c *conn, fn func(tx *txn) error) error {
	return repanic(d.lead(c, d.queue(ctx, fn)))
}

// queue queues fn for the next batch.
func (d *sqlite) queue(ctx context.Context, fn func(tx *txn) error) *writeRequest {
	req := &writeRequest{ctx: ctx, fn: fn, done: make(chan error, 1)}
	d.pendingMu.Lock()
	d.pending = append(d.pending, req)
	d.pendingMu.Unlock()
	return req
}

// repanic panics with a write's own panic, as its caller would have
// without group commit (the others in the batch carried on), or returns
// err.
func repanic(err error) error {
	var p *panicError
	if errors.As(err, &p) {
		panic(p.value)
	}
	return err
}

// alongWait is how long a write that can wait (writeAlong) waits for
// another's batch to commit it before it commits on its own. Under load
// a batch begins every few milliseconds and takes it at no cost of its
// own.
const alongWait = 10 * time.Millisecond

// writeAlong is write, but when a batch is under way or began within
// alongWait, the write waits up to alongWait for the next leader to take
// it into its batch before it leads one. Every commit costs a begin, a
// commit and a write of each page it changed; at 900 tables the records
// of what Discord shows (two or three a move) led half the batches. When
// no batch has begun for alongWait the write goes at once, so a quiet
// server's live pass, which waits on it, is mostly not held up (waiting
// always, at 100 tables, put the table message's p99 from 5 to 23 ms
// behind). The guess can be wrong: a batch under way may already have
// taken its writes, and a pass's second record a few milliseconds after
// its first, on a server with nothing else to write, waits the full
// alongWait and then goes alone.
func (d *sqlite) writeAlong(ctx context.Context, c *conn, fn func(tx *txn) error) error {
	req := d.queue(ctx, fn)
	along := cmp.Or(d.along, alongWait)
	if d.leaders.Load() == 0 && time.Since(time.Unix(0, d.lastBatch.Load())) >= along {
		return repanic(d.lead(c, req))
	}
	wait := time.NewTimer(along)
	defer wait.Stop()
	select {
	case err := <-req.done:
		return repanic(err)
	case <-wait.C:
	}
	return repanic(d.lead(c, req))
}

// lead waits for the write lock; unless an earlier leader has committed
// req meanwhile, it commits every write queued, req among them.
func (d *sqlite) lead(c *conn, req *writeRequest) error {
	d.leaders.Add(1)
	defer d.leaders.Add(-1)
	d.writeMu.Lock()
	defer d.writeMu.Unlock()
	select {
	case err := <-req.done:
		return err // an earlier leader committed it
	default:
	}
	d.pendingMu.Lock()
	batch := d.pending
	d.pending = nil
	d.pendingMu.Unlock()
	if len(batch) > 0 {
		d.batches.Add(1)
		d.lastBatch.Store(time.Now().UnixNano())
	}
	commitBatch(c, batch)
	return <-req.done
}

// panicError carries a panic out of a batched write to its caller.
type panicError struct {
	value any
	stack []byte
}

func (p *panicError) Error() string {
	return fmt.Sprintf("store: panic in a write: %v\n%s", p.value, p.stack)
}

// writeRequest is one queued write transaction.
type writeRequest struct {
	ctx  context.Context
	fn   func(tx *txn) error
	done chan error
}

// commitBatch runs queued writes in one transaction, each in a savepoint,
// and tells each its outcome.
func commitBatch(c *conn, batch []*writeRequest) {
	if len(batch) == 0 {
		return
	}
	// A panic outside the writes' own (caught in runSavepoint), in the
	// driver's begin, savepoint or commit, fails every write of the
	// batch: each caller waits for its outcome, holding its table's lock,
	// and would otherwise wait for ever. It is not a panic of any one
	// write, so none of them panics with it. (A commit that panicked may
	// have committed after all: the callers are told it failed, as when
	// a commit's answer is lost, and a move's retry finds its interaction
	// claimed.)
	told := false
	defer func() {
		if told {
			return
		}
		if v := recover(); v != nil {
			err := fmt.Errorf("store: a batch of writes panicked: %v\n%s", v, debug.Stack())
			for _, r := range batch {
				r.done <- err
			}
		}
	}()
	tell := func(outcome func(i int) error) {
		told = true // each write's channel holds one outcome
		for i, r := range batch {
			r.done <- outcome(i)
		}
	}
	// The batch outlives any one caller's cancellation: others depend on it.
	ctx := context.WithoutCancel(batch[0].ctx)
	tx, err := c.begin(ctx)
	if err != nil {
		tell(func(int) error { return fmt.Errorf("store: begin: %w", err) })
		return
	}
	// Whatever happens below, the write lock is never left held.
	defer tx.tx.Rollback()
	results := make([]error, len(batch))
	for i, r := range batch {
		results[i] = runSavepoint(ctx, tx, r)
	}
	if err := tx.tx.Commit(); err != nil {
		tell(func(int) error { return fmt.Errorf("store: commit: %w", err) })
		return
	}
	tell(func(i int) error { return results[i] })
}

// runSavepoint runs one queued write inside a savepoint, undoing its
// writes if it fails or panics; a panic comes back as a *panicError.
func runSavepoint(ctx context.Context, tx *txn, r *writeRequest) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if _, err := tx.tx.ExecContext(ctx, `SAVEPOINT w`); err != nil {
		return err
	}
	err := callRecovering(r.fn, tx)
	if err != nil {
		if _, rbErr := tx.tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT w`); rbErr != nil {
			return fmt.Errorf("%w (and undoing it failed: %v)", err, rbErr)
		}
	}
	if _, relErr := tx.tx.ExecContext(ctx, `RELEASE SAVEPOINT w`); relErr != nil && err == nil {
		err = relErr
	}
	return err
}

// callRecovering calls fn, turning a panic into a *panicError.
func callRecovering(fn func(tx *txn) error, tx *txn) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{value: v, stack: debug.Stack()}
		}
	}()
	return fn(tx)
}
