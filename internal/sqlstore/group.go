package sqlstore

import (
	"context"
	"sync"

	"mafiaclub/internal/club"
)

// Group commit. On SQLite every commit waits for its fsync (synchronous=FULL), and the one writer connection
// commits one transaction at a time: at 200 tables the hosts' actions queue behind each other's fsyncs. The
// appends that arrive while a commit is on its way are therefore committed together in the next transaction, each
// inside a savepoint of its own, so that one refused append (a stale version) leaves the others in, and each
// caller is answered only once the transaction that holds his events is durable. Nothing is acknowledged earlier
// than before, and nothing is weakened: a batch is one fsync instead of many.

// maxBatch bounds the appends of one transaction.
const maxBatch = 64

type appendReq struct {
	ctx     context.Context
	gameID  int64
	version int64
	key     club.ActionKey
	events  []club.StoredEvent
	done    chan error
}

type committer struct {
	once  sync.Once
	stop  sync.Once
	reqs  chan *appendReq
	quit  chan struct{}
	ended chan struct{}
}

// groupAppend hands an append to the committer and waits for the transaction that holds it.
func (db *DB) groupAppend(ctx context.Context, gameID, version int64, key club.ActionKey, events []club.StoredEvent) error {
	c := &db.group
	c.once.Do(func() {
		c.reqs, c.quit, c.ended = make(chan *appendReq), make(chan struct{}), make(chan struct{})
		go db.commitLoop()
	})
	if c.reqs == nil { // closed before any append
		return club.Errorf(club.Internal, "the database is closed")
	}
	req := &appendReq{ctx: ctx, gameID: gameID, version: version, key: key, events: events, done: make(chan error, 1)}
	select {
	case c.reqs <- req:
	case <-c.quit:
		return club.Errorf(club.Internal, "the database is closed")
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-req.done // even if ctx ends now: the batch may be committing it, and the answer must say so
}

func (db *DB) commitLoop() {
	c := &db.group
	defer close(c.ended)
	for {
		var first *appendReq
		select {
		case first = <-c.reqs:
		case <-c.quit:
			return
		}
		batch := []*appendReq{first}
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-c.reqs:
				batch = append(batch, r)
			default:
				break more
			}
		}
		db.commitBatch(batch)
	}
}

// commitBatch commits a batch of appends in one transaction, each in a savepoint, and answers each.
func (db *DB) commitBatch(batch []*appendReq) {
	if len(batch) == 1 {
		r := batch[0]
		r.done <- db.inTx(r.ctx, "game", func(tx *txn) error { return appendEvents(r.ctx, tx, r.gameID, r.version, r.key, r.events) })
		return
	}
	ctx := context.Background() // one request's end must not undo the others' transaction
	errs := make([]error, len(batch))
	answer := func(err error) {
		for i, r := range batch {
			if errs[i] == nil {
				errs[i] = err
			}
			r.done <- errs[i]
		}
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		answer(translate(err, "game"))
		return
	}
	defer tx.Rollback()
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			errs[i] = err // its caller has gone before it began: not written
			continue
		}
		if _, err := tx.ExecContext(ctx, `SAVEPOINT one_append`); err != nil {
			answer(translate(err, "game"))
			return
		}
		if err := appendEvents(ctx, tx, r.gameID, r.version, r.key, r.events); err != nil {
			errs[i] = err
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT one_append`); err != nil {
				answer(translate(err, "game"))
				return
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT one_append`); err != nil {
			answer(translate(err, "game"))
			return
		}
	}
	answer(translate(tx.Commit(), "game"))
}

// stopGroup ends the committer (Close): the batch being committed is finished first.
func (db *DB) stopGroup() {
	c := &db.group
	c.once.Do(func() {}) // never started: nothing to stop, and never start it after Close
	c.stop.Do(func() {
		if c.quit != nil {
			close(c.quit)
			<-c.ended
		}
	})
}
