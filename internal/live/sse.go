package live

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Frame is one server-sent event, encoded once and written as is to every client of a topic.
type Frame struct {
	ID    string
	wire  []byte
	chunk []byte // wire as one chunk of HTTP/1.1's chunked encoding, for streams written to their connection
}

// chunked encodes b as one chunk of HTTP/1.1's chunked transfer encoding.
func chunked(b []byte) []byte {
	out := strconv.AppendInt(make([]byte, 0, len(b)+12), int64(len(b)), 16)
	out = append(out, "\r\n"...)
	out = append(out, b...)
	return append(out, "\r\n"...)
}

var (
	heartbeat = []*Frame{{wire: []byte(": heartbeat\n\n"), chunk: chunked([]byte(": heartbeat\n\n"))}}
	lastChunk = []byte("0\r\n\r\n")
)

// NewFrame encodes an event with its id, name and data (each line of data its own "data:" line).
func NewFrame(id, event string, data []byte) *Frame {
	var b bytes.Buffer
	b.WriteString("id: " + id + "\nevent: " + event + "\n")
	for _, line := range bytes.Split(data, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(bytes.TrimRight(line, "\r"))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return &Frame{ID: id, wire: b.Bytes(), chunk: chunked(b.Bytes())}
}

// Bytes is the frame as written.
func (f *Frame) Bytes() []byte { return f.wire }

// Backlog is how many of a topic's latest frames it keeps for clients a little behind: a client that was sent the
// frame seq and wakes when the topic is at most Backlog frames further is sent those frames (deltas, mostly) in
// order; one further behind is sent only the whole current view. So a slow client costs the topic nothing (no
// queue of its own, whatever it misses) and never holds anything up: the publisher does not wait for any client.
const Backlog = 8

// Topic is one stream's current frame and its clients. Publishing stores a new snapshot and wakes every client at
// once by closing the previous snapshot's channel; each client then writes, in its own goroutine, what it lacks.
type Topic struct {
	mu    sync.Mutex // serialises publishers and the clients' count
	state atomic.Pointer[snapshot]
	n     int
	left  func(remaining int) // told when a client leaves

	// The streams its fan-out writes (fanout.go), under mu: the list, and the fan-out's signals while it has any.
	fast  []*Client
	sweep chan struct{} // (1) a new frame to write
	quit  chan struct{} // closed when the list is empty: the fan-out's goroutine ends
}

// snapshot is a topic's state as of its frame seq; never changed once stored.
type snapshot struct {
	seq  uint64          // the current frame's number (0: none yet)
	cur  *Frame          // the whole current view
	sent [Backlog]*Frame // sent[s%Backlog] took a client from frame s-1 to frame s (a delta, or a whole view)
	wake chan struct{}   // closed when the next snapshot is stored
}

// NewTopic returns a topic with no frame yet; left, when not nil, is called after each client leaves.
func NewTopic(left func(remaining int)) *Topic {
	t := &Topic{left: left}
	t.state.Store(&snapshot{wake: make(chan struct{})})
	return t
}

// Client is one open stream of a topic: what it has been sent.
type Client struct {
	t     *Topic
	seq   uint64 // the last frame sent to it
	whole bool   // it holds no view: it must be sent the whole current frame

	// A stream written by its topic's fan-out (fanout.go) has these; mu guards them and seq and whole.
	mu   sync.Mutex
	raw  syscall.RawConn // its connection, written without waiting
	at   int             // its place in the topic's fast list
	slow bool            // a write did not finish at once: its own goroutine writes it until it has caught up
	dead bool            // it ended or a write failed: nothing more is written to it
	pend []byte          // what the fan-out's write left unwritten, for its goroutine to write first
	kick chan struct{}   // (1) the fan-out tells its goroutine that it is slow or dead
	last time.Time       // its last write
}

// Publish makes f the current frame and sends it whole to every client.
func (t *Topic) Publish(f *Frame) { t.PublishDelta(f, nil) }

// PublishDelta makes f the current frame; delta (the change from the current frame to f; f itself when nil) is
// what a client that holds the current frame is sent. It never blocks on a client.
func (t *Topic) PublishDelta(f, delta *Frame) {
	t.mu.Lock()
	old := t.state.Load()
	if old.cur != nil && old.cur.ID == f.ID {
		t.mu.Unlock()
		return
	}
	next := *old
	next.seq++
	next.cur = f
	next.sent[next.seq%Backlog] = f
	if delta != nil && old.cur != nil {
		next.sent[next.seq%Backlog] = delta
	}
	next.wake = make(chan struct{})
	t.state.Store(&next)
	sweep := t.sweep
	t.mu.Unlock()
	close(old.wake) // every waiting client at once, outside the lock they do not need
	if sweep != nil {
		select { // the fan-out writes the streams it holds; one signal pending is enough, it writes the latest
		case sweep <- struct{}{}:
		default:
		}
	}
}

// Current returns the current frame, nil when none.
func (t *Topic) Current() *Frame { return t.state.Load().cur }

// Len returns the number of clients.
func (t *Topic) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}

// join adds a client that last saw the frame lastID; it is sent the current frame unless it has it.
func (t *Topic) join(lastID string) *Client {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n++
	st := t.state.Load()
	return &Client{t: t, seq: st.seq, whole: st.cur != nil && st.cur.ID != lastID}
}

// next appends to buf what c lacks to hold the current frame (nothing when it has it) and returns it with the
// channel closed at the next frame; c then counts as having been sent it.
func (c *Client) next(buf []*Frame) ([]*Frame, <-chan struct{}) {
	st := c.t.state.Load()
	switch {
	case c.whole || st.seq-c.seq > Backlog:
		buf = append(buf, st.cur)
	default:
		for s := c.seq + 1; s <= st.seq; s++ {
			buf = append(buf, st.sent[s%Backlog])
		}
	}
	c.seq, c.whole = st.seq, false
	return buf, st.wake
}

func (t *Topic) leave(c *Client) {
	t.mu.Lock()
	t.n--
	n := t.n
	t.mu.Unlock()
	if t.left != nil {
		t.left(n)
	}
}

// Stream serves topics as server-sent events.
type Stream struct {
	// Heartbeat is the time between comments sent to keep proxies from closing an idle stream.
	Heartbeat time.Duration
	// WriteTimeout bounds one write: a client that does not read is cut when a write has waited WriteTimeout/2 to
	// WriteTimeout (see deadline).
	WriteTimeout time.Duration
	// Done, when closed, ends every stream (the server is shutting down).
	Done <-chan struct{}
}

// Serve streams t to the client until it goes, is dropped or the server stops. A client that comes back with the
// current frame's id in Last-Event-ID (a browser's reconnection) is not sent it again.
func (s Stream) Serve(w http.ResponseWriter, r *http.Request, t *Topic) {
	rc := http.NewResponseController(w)
	// a stream outlives the server's read timeout, whose expiry would cancel the request; each write is bounded
	// below instead
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	if r.Method == http.MethodHead { // a GET route answers HEAD too: the head, and no stream after it
		w.WriteHeader(http.StatusOK)
		return
	}
	c := t.join(r.Header.Get("Last-Event-ID"))
	defer t.leave(c)
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write([]byte("retry: 2000\n\n")); err != nil || rc.Flush() != nil {
		return
	}
	// From here on the stream is written straight to its connection, each frame (or the frames a client lacks)
	// in one system call of pre-encoded chunks: net/http's path (its buffers, the chunk's header formatted per
	// write, the flush through each middleware's writer) was a measurable part of a fan-out to 5,000 clients. A
	// server that cannot hand its connection over (HTTP/2) writes through the response as before.
	// HTTP/1.0 (a proxy's default towards its servers) has no chunks: it is written through the response too.
	var out sink
	var raw syscall.RawConn
	if conn, brw, err := hijack(r, rc); err == nil {
		defer conn.Close()
		gone := make(chan struct{})
		in := brw.Reader // only the reader: the writer's buffer is not kept for the stream's life
		go func() {      // the client sends nothing more on a stream: a byte or its close ends it
			_, _ = in.Read(make([]byte, 1))
			close(gone)
		}()
		out = &connSink{conn: conn, dl: deadline{timeout: s.WriteTimeout}, gone: gone}
		defer out.(*connSink).end()
		raw = rawConn(conn)
	} else {
		out = &responseSink{w: w, rc: rc, dl: deadline{timeout: s.WriteTimeout}, gone: r.Context().Done()}
	}
	// heartbeats go only to idle streams (none written to in the last half period), so that 5,000 of them do not
	// fall due in the middle of a frame's fan-out; the ticker itself is never reset, which would cost a timer's
	// change per frame and client
	tick := time.NewTicker(s.Heartbeat)
	defer tick.Stop()
	if raw != nil { // a plain connection: the topic's fan-out writes it (fanout.go)
		s.serveFast(c, out.(*connSink), raw, tick)
		return
	}
	var frames []*Frame
	last := time.Now()
	for {
		var wake <-chan struct{}
		frames, wake = c.next(frames[:0])
		if len(frames) > 0 {
			last = time.Now()
			if !out.frames(frames, last) {
				return
			}
			continue
		}
		select {
		case <-out.done():
			return
		case <-s.Done:
			return
		case <-wake:
		case <-tick.C:
			if now := time.Now(); now.Sub(last) >= s.Heartbeat/2 {
				last = now
				if !out.frames(heartbeat, now) {
					return
				}
			}
		}
	}
}

func hijack(r *http.Request, rc *http.ResponseController) (net.Conn, *bufio.ReadWriter, error) {
	if !r.ProtoAtLeast(1, 1) {
		return nil, nil, http.ErrNotSupported
	}
	return rc.Hijack()
}

// sink is where a stream's frames are written.
type sink interface {
	frames(fs []*Frame, now time.Time) bool
	done() <-chan struct{} // closed when the client is gone
}

// deadline moves a write's deadline only when less than half of timeout is left of it: a timer's change per
// write, times 5,000 clients per frame, was a measurable part of a fan-out. So a write starts with timeout/2 to
// timeout left, and a client that does not read is cut when a write has waited that long.
type deadline struct {
	at      time.Time
	timeout time.Duration
}

func (d *deadline) due(now time.Time) (time.Time, bool) {
	if d.at.Sub(now) >= d.timeout/2 {
		return d.at, false
	}
	d.at = now.Add(d.timeout)
	return d.at, true
}

// connSink writes chunks straight to a hijacked connection.
type connSink struct {
	conn net.Conn
	dl   deadline
	gone chan struct{}
	bufs net.Buffers
}

func (s *connSink) frames(fs []*Frame, now time.Time) bool {
	if len(fs) == 1 {
		return s.write(fs[0].chunk, now)
	}
	if at, move := s.dl.due(now); move {
		_ = s.conn.SetWriteDeadline(at)
	}
	s.bufs = s.bufs[:0]
	for _, f := range fs {
		s.bufs = append(s.bufs, f.chunk)
	}
	out := s.bufs // WriteTo consumes the copy, the scratch keeps its room
	_, err := out.WriteTo(s.conn)
	return err == nil
}

// write writes b (whole chunks) to the connection, waiting at most the write's deadline.
func (s *connSink) write(b []byte, now time.Time) bool {
	if at, move := s.dl.due(now); move {
		_ = s.conn.SetWriteDeadline(at)
	}
	_, err := s.conn.Write(b)
	return err == nil
}

func (s *connSink) done() <-chan struct{} { return s.gone }

// end closes the chunked body, so that a client sees the stream end rather than break.
func (s *connSink) end() {
	_ = s.conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = s.conn.Write(lastChunk)
}

// responseSink writes through the response (HTTP/2).
type responseSink struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	dl   deadline
	gone <-chan struct{}
}

func (s *responseSink) frames(fs []*Frame, now time.Time) bool {
	if at, move := s.dl.due(now); move {
		_ = s.rc.SetWriteDeadline(at)
	}
	for _, f := range fs {
		if _, err := s.w.Write(f.wire); err != nil {
			return false
		}
	}
	return s.rc.Flush() == nil
}

func (s *responseSink) done() <-chan struct{} { return s.gone }
