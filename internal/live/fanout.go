package live

import (
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The fan-out. A stream on a plain connection (HTTP/1.1, no TLS in this process) is not woken for each frame:
// its topic's fan-out goroutine writes every such stream in turn, each with one system call that does not wait
// (the connection's socket takes the frame, or the stream is handed to its own goroutine). Waking one goroutine
// per stream per frame (its select, the scheduler's hand-over, the goroutine's own stack) was a fifth of a server's
// time at 10,000 spectators; a stream's goroutine now sleeps until it has something of its own to do: its client
// goes, the server stops, a heartbeat is due, or a write could not finish at once.
//
// A stream whose write did not finish (the client reads slowly, or its socket's buffer is full for a moment) is
// "slow": the fan-out passes it by, and its goroutine writes what was left and then every frame it lacks, waiting
// on each write as the streams always did (a client that does not read is cut at the write's deadline), until it
// holds the current frame; then the fan-out takes it back. So a slow client still costs the others nothing and the
// publisher never waits for anyone.

// sweepChunk is how many streams one of the fan-out's workers takes at a time.
const sweepChunk = 128

// addFast puts c in the topic's fan-out, starting the fan-out's goroutine if it was idle.
func (t *Topic) addFast(c *Client) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sweep == nil {
		t.sweep, t.quit = make(chan struct{}, 1), make(chan struct{})
		go t.fanout(t.sweep, t.quit)
	}
	c.at = len(t.fast)
	t.fast = append(t.fast, c)
}

// removeFast takes c out of the fan-out; the last one out stops the fan-out's goroutine.
func (t *Topic) removeFast(c *Client) {
	t.mu.Lock()
	defer t.mu.Unlock()
	end := len(t.fast) - 1
	last := t.fast[end]
	t.fast[c.at], last.at = last, c.at
	t.fast[end] = nil
	t.fast = t.fast[:end]
	if end == 0 {
		close(t.quit)
		t.fast, t.sweep, t.quit = nil, nil, nil
	}
}

// fanout writes the topic's latest frames to its fast streams each time it is signalled, until quit.
func (t *Topic) fanout(sweep, quit chan struct{}) {
	var list []*Client
	for {
		select {
		case <-quit:
			return
		case <-sweep:
		}
		t.mu.Lock()
		list = append(list[:0], t.fast...)
		t.mu.Unlock()
		pushAll(list, time.Now())
		clear(list) // a stream that ends is not held here until the next frame
	}
}

// pushAll writes to every stream of list what it lacks, on as many cores as there are, a chunk at a time.
func pushAll(list []*Client, now time.Time) {
	workers := min(runtime.GOMAXPROCS(0), (len(list)+sweepChunk-1)/sweepChunk)
	if workers <= 1 {
		var p pusher
		for _, c := range list {
			p.push(c, now)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			var p pusher
			for {
				i := int(next.Add(sweepChunk)) - sweepChunk
				if i >= len(list) {
					return
				}
				for _, c := range list[i:min(i+sweepChunk, len(list))] {
					p.push(c, now)
				}
			}
		}()
	}
	wg.Wait()
}

// pusher is one fan-out worker's scratch.
type pusher struct {
	fs  []*Frame
	buf []byte
}

// push writes to c, without waiting, what it lacks to hold the current frame; a slow or ended stream is passed by.
func (p *pusher) push(c *Client, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.slow || c.dead {
		return
	}
	p.fs, _ = c.next(p.fs[:0])
	switch len(p.fs) {
	case 0:
		return
	case 1:
		c.write(p.fs[0].chunk, now)
	default:
		p.buf = p.buf[:0]
		for _, f := range p.fs {
			p.buf = append(p.buf, f.chunk...)
		}
		c.write(p.buf, now)
	}
	clear(p.fs)
}

// write writes b to c's connection without waiting (c.mu held). What the socket does not take at once is kept for
// c's goroutine, which is told that c is slow; a failed write marks c dead and tells its goroutine so.
func (c *Client) write(b []byte, now time.Time) {
	n, err := tryWrite(c.raw, b)
	switch {
	case err == nil && n == len(b):
		c.last = now
		return
	case err == nil || err == syscall.EAGAIN || err == syscall.EINTR:
		c.pend = append(c.pend[:0], b[n:]...)
		c.slow = true
	default:
		c.dead = true
	}
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// beat writes a heartbeat to c when nothing was written to it in the last half period.
func (c *Client) beat(every time.Duration, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.slow || c.dead || now.Sub(c.last) < every/2 {
		return
	}
	c.write(heartbeat[0].chunk, now)
}

// serveFast is a fast stream's goroutine: it puts the stream in its topic's fan-out and sleeps until the client
// goes, the server stops, a heartbeat is due, or the fan-out hands the stream over because a write did not finish;
// then it writes the stream itself until it has caught up.
func (s Stream) serveFast(c *Client, out *connSink, raw syscall.RawConn, tick *time.Ticker) {
	c.raw, c.kick, c.last = raw, make(chan struct{}, 1), time.Now()
	c.t.addFast(c)
	defer func() {
		c.t.removeFast(c)
		c.mu.Lock()
		c.dead = true // a sweep under way that still holds c writes nothing more to it
		c.mu.Unlock()
	}()
	var p pusher
	p.push(c, time.Now()) // what it lacks at joining, unless a sweep came first
	for {
		select {
		case <-out.done():
			return
		case <-s.Done:
			return
		case now := <-tick.C:
			c.beat(s.Heartbeat, now)
		case <-c.kick:
		}
		c.mu.Lock()
		dead, slow, pend := c.dead, c.slow, c.pend
		c.pend = nil
		c.mu.Unlock()
		if dead || slow && !c.catchUp(out, pend) {
			return
		}
	}
}

// catchUp writes a slow stream (which the fan-out passes by): what its last write left, then each frame it lacks,
// waiting on each write (at most the write's deadline), until it holds the current frame and goes back to the
// fan-out. False when a write failed.
func (c *Client) catchUp(out *connSink, pend []byte) bool {
	if len(pend) > 0 && !out.write(pend, time.Now()) {
		return false
	}
	var fs []*Frame
	for {
		c.mu.Lock()
		fs, _ = c.next(fs[:0])
		if len(fs) == 0 {
			c.slow, c.last = false, time.Now()
			c.mu.Unlock()
			return true
		}
		c.mu.Unlock()
		if !out.frames(fs, time.Now()) {
			return false
		}
	}
}
