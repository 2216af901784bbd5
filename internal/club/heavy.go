package club

import (
	"context"
	"sync/atomic"
)

// The heavy work of an admin (an import of game files, a backup from the site) takes memory and CPU in proportion to
// what it is given, so an unbounded number of them at once would take the server with them: 1,000 parallel imports
// of 1 MB once took it from 155 MiB to 1.33 GiB, and the rating page's p99 to 9 s. Two bounds hold it:
//
//   - each club has its share: at most HeavyClubSlots of its jobs run at once and HeavyClubQueue more wait; one
//     beyond that is refused at once with ErrHeavyBusy (503 and Retry-After), before its upload is read, which
//     costs nothing. One club's flood fills its own share only: another club's import still gets in.
//   - the installation runs at most HeavySlots jobs at once over all its clubs, so that its memory stays bounded
//     however many clubs it serves. A club's running job waits for one of them in turn with the other clubs' (at
//     most HeavyClubSlots each, so no club can take them all); a job that waits holds nothing of its upload.
//
// A club imports a season once and takes a backup a day: the bounds are far above what an admin does, and far below
// what a flood does.
const (
	HeavySlots     = 2
	HeavyClubSlots = 1
	HeavyClubQueue = 2
)

// ErrHeavyBusy refuses heavy work when HeavyClubSlots of the club's jobs run and HeavyClubQueue wait already.
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
	if err := b.take(ctx); err != nil {
		return err
	}
	defer func() { <-b.slots }()
	return f()
}

// take waits for a slot, or gives up when ctx ends. The goroutines that wait take the slots in the order they came:
// a channel's blocked senders are served first in, first out.
func (b *bound) take(ctx context.Context) error {
	select {
	case b.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// installation is the bound of every club's heavy work together: the slots only (the clubs' shares bound who waits).
var installation = newBound(HeavySlots, 0)

// HeavyWork is a club's share of the installation's heavy work; each club's services have their own (Services.Heavy).
type HeavyWork struct{ club *bound }

// NewHeavyWork is a club's share: HeavyClubSlots running and HeavyClubQueue waiting.
func NewHeavyWork() *HeavyWork { return &HeavyWork{club: newBound(HeavyClubSlots, HeavyClubQueue)} }

// Do runs f as an admin's heavy work once it has a slot of the club's share and then one of the installation's, or
// refuses it with ErrHeavyBusy at once when the club's share is full. The site calls it before it reads an
// import's upload, and around a backup.
func (h *HeavyWork) Do(ctx context.Context, f func() error) error {
	return h.club.do(ctx, ErrHeavyBusy, func() error {
		if err := installation.take(ctx); err != nil {
			return err
		}
		defer func() { <-installation.slots }()
		return f()
	})
}
