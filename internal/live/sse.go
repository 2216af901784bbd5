package live

import (
	"bytes"
	"net/http"
	"sync"
	"time"
)

// Frame is one server-sent event, encoded once and written as is to every client of a topic.
type Frame struct {
	ID   string
	wire []byte
}

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
	return &Frame{ID: id, wire: b.Bytes()}
}

// Bytes is the frame as written.
func (f *Frame) Bytes() []byte { return f.wire }

// ClientQueue bounds the frames waiting for one client: a client that falls this far behind is dropped (its
// browser reconnects and resumes with Last-Event-ID), so a slow client never holds more than this many pointers to
// shared frames and never slows the others.
const ClientQueue = 8

// Topic is one stream's current frame and its clients. Each frame is the whole view (not a difference), so a
// client that resumes needs only the current frame, and only when its last id is not the current one.
type Topic struct {
	mu      sync.Mutex
	cur     *Frame
	clients map[*Client]struct{}
	left    func(remaining int) // told when a client leaves
}

// NewTopic returns a topic with no frame yet; left, when not nil, is called after each client leaves.
func NewTopic(left func(remaining int)) *Topic {
	return &Topic{clients: map[*Client]struct{}{}, left: left}
}

// Client is one open stream of a topic.
type Client struct {
	ch   chan *Frame
	gone chan struct{} // closed when the topic drops the client
}

// Publish makes f the current frame and queues it for every client; a client whose queue is full is dropped.
func (t *Topic) Publish(f *Frame) { t.PublishDelta(f, nil) }

// PublishDelta makes f the current frame and queues delta (the change from the current frame to f; f itself when
// nil) for every client: every client holds the current frame, since it was sent each frame in order from its
// join (which sends it the whole current frame). A client whose queue is full is dropped (it reconnects and is
// sent the whole frame).
func (t *Topic) PublishDelta(f, delta *Frame) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != nil && t.cur.ID == f.ID {
		return
	}
	send := f
	if delta != nil && t.cur != nil {
		send = delta
	}
	t.cur = f
	for c := range t.clients {
		select {
		case c.ch <- send:
		default:
			delete(t.clients, c)
			close(c.gone)
		}
	}
}

// Current returns the current frame, nil when none.
func (t *Topic) Current() *Frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cur
}

// Len returns the number of clients.
func (t *Topic) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.clients)
}

// join adds a client that last saw the frame lastID; the current frame is queued for it unless it has it.
func (t *Topic) join(lastID string) *Client {
	c := &Client{ch: make(chan *Frame, ClientQueue), gone: make(chan struct{})}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != nil && t.cur.ID != lastID {
		c.ch <- t.cur
	}
	t.clients[c] = struct{}{}
	return c
}

func (t *Topic) leave(c *Client) {
	t.mu.Lock()
	delete(t.clients, c)
	n := len(t.clients)
	t.mu.Unlock()
	if t.left != nil {
		t.left(n)
	}
}

// Stream serves topics as server-sent events.
type Stream struct {
	// Heartbeat is the time between comments sent to keep proxies from closing an idle stream.
	Heartbeat time.Duration
	// WriteTimeout bounds one write: a client that does not read is cut.
	WriteTimeout time.Duration
	// Done, when closed, ends every stream (the server is shutting down).
	Done <-chan struct{}
}

// Serve streams t to the client until it goes, is dropped or the server stops. The client's last id is the
// Last-Event-ID header (a browser's reconnection) or else lastID (the id of the frame the page was drawn from).
func (s Stream) Serve(w http.ResponseWriter, r *http.Request, t *Topic, lastID string) {
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		lastID = id
	}
	rc := http.NewResponseController(w)
	// a stream outlives the server's read timeout, whose expiry would cancel the request; each write is bounded
	// below instead
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	c := t.join(lastID)
	defer t.leave(c)
	write := func(b []byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(s.WriteTimeout))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	w.WriteHeader(http.StatusOK)
	if !write([]byte("retry: 2000\n\n")) {
		return
	}
	tick := time.NewTicker(s.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.Done:
			return
		case <-c.gone:
			return
		case f := <-c.ch:
			if !write(f.wire) {
				return
			}
			// a stream that has just been written to needs no heartbeat: heartbeats go only to idle streams, so
			// that 5,000 of them do not fall due together in the middle of a frame's fan-out
			tick.Reset(s.Heartbeat)
		case <-tick.C:
			if !write([]byte(": heartbeat\n\n")) {
				return
			}
		}
	}
}
