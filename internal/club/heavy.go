package club

import (
	"context"
	"sync/atomic"
)

// The heavy work of an admin (an import of game files, a backup from the site) takes memory and CPU in proportion to
// what it is given, so an unbounded number of them at once would take the server with them: 1,000 parallel imports
// of 1 MB once took it from 155 MiB to 1.33 GiB, and the rating page's p99 to 9 s. At most HeavySlots such jobs run
// at once and HeavyQueue more wait for a slot; one beyond that is refused at once with ErrHeavyBusy (503 and
// Retry-After), before its upload is read, which costs nothing. A club imports a season once and takes a backup a
// day: the bound is far above what an admin does, and far below what a flood does.
const (
	HeavySlots = 2
	HeavyQueue = 4
)

// ErrHeavyBusy refuses heavy work when HeavySlots jobs run and HeavyQueue wait already.
var ErrHeavyBusy = &Error{Code: Busy, Message: "the server is busy with other imports or backups; try again in a minute"}

// bound runs at most cap(slots) jobs at once, with at most queue more waiting; any more are refused.
type bound struct {
	slots   chan struct{}
	queue   int32
	waiting atomic.Int32
}

func newBound(slots, queue int) *bound {
	return &bound{slots: make(chan struct{}, slots), queue: int32(queue)}
}

// do runs f once a slot is free; it refuses with busy when the queue is full, and gives up (ctx's error) when ctx
// ends while it waits.
func (b *bound) do(ctx context.Context, busy error, f func() error) error {
	if b.waiting.Add(1) > b.queue+int32(cap(b.slots)) {
		b.waiting.Add(-1)
		return busy
	}
	defer b.waiting.Add(-1)
	select {
	case b.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-b.slots }()
	return f()
}

var heavy = newBound(HeavySlots, HeavyQueue)

// Heavy runs f as an admin's heavy work within the bound of HeavySlots running and HeavyQueue waiting, or refuses it
// with ErrHeavyBusy at once. The site calls it before it reads an import's upload; Backups.Start calls it itself.
func Heavy(ctx context.Context, f func() error) error { return heavy.do(ctx, ErrHeavyBusy, f) }
