package live

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// ids is what a client is sent on waking: the frames' ids, in order.
func ids(c *Client) []string {
	fs, _ := c.next(nil)
	var out []string
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

// TestBehindClientCatchesUp: a client a few frames behind is sent each of them in order (the deltas it needs); one
// further behind than the backlog is sent only the whole current view; the publisher never waits for either, and
// neither holds frames of its own.
func TestBehindClientCatchesUp(t *testing.T) {
	topic := NewTopic(nil)
	topic.Publish(NewFrame("0", "view", []byte("whole 0")))
	near := topic.join("0")
	far := topic.join("0")
	if got := ids(near); len(got) != 0 {
		t.Fatalf("a client up to date was sent %v", got)
	}
	for i := 1; i <= 3; i++ {
		topic.PublishDelta(NewFrame(fmt.Sprint(i), "view", []byte("whole")), NewFrame(fmt.Sprint(i), "view", []byte("delta")))
	}
	fs, _ := near.next(nil)
	if len(fs) != 3 || fs[0].ID != "1" || fs[2].ID != "3" || string(fs[1].wire) != string(NewFrame("2", "view", []byte("delta")).wire) {
		t.Fatalf("a client 3 frames behind was sent %v, want the deltas 1, 2, 3", fs)
	}
	for i := 4; i <= 3+2*Backlog; i++ {
		topic.PublishDelta(NewFrame(fmt.Sprint(i), "view", []byte("whole")), NewFrame(fmt.Sprint(i), "view", []byte("delta")))
	}
	fs, wake := far.next(nil)
	last := fmt.Sprint(3 + 2*Backlog)
	if len(fs) != 1 || fs[0].ID != last || string(fs[0].wire) != string(NewFrame(last, "view", []byte("whole")).wire) {
		t.Fatalf("a client %d frames behind was sent %v, want only the whole frame %s", 3+2*Backlog, fs, last)
	}
	select {
	case <-wake:
		t.Fatal("the next frame's signal fired before any frame")
	default:
	}
	topic.Publish(NewFrame("next", "view", []byte("x")))
	select {
	case <-wake:
	default:
		t.Fatal("a new frame did not wake the client")
	}
	if got := ids(far); len(got) != 1 || got[0] != "next" {
		t.Errorf("after catching up the client was sent %v, want [next]", got)
	}
	if topic.Len() != 2 {
		t.Errorf("%d clients, want 2", topic.Len())
	}
}

// TestResumeSendsCurrentOnce: a client that comes back with the current frame's id gets nothing until the next
// frame; one with an older id gets the current frame once, whole.
func TestResumeSendsCurrentOnce(t *testing.T) {
	topic := NewTopic(nil)
	topic.Publish(NewFrame("a", "view", []byte("1")))
	topic.PublishDelta(NewFrame("b", "view", []byte("2")), NewFrame("b", "view", []byte("d")))
	if got := ids(topic.join("b")); len(got) != 0 {
		t.Errorf("a client up to date got %v", got)
	}
	c := topic.join("a")
	if fs, _ := c.next(nil); len(fs) != 1 || fs[0] != topic.Current() {
		t.Errorf("a client behind got %v, want the whole current frame", fs)
	}
	if got := ids(c); len(got) != 0 {
		t.Errorf("the current frame was sent twice: then %v", got)
	}
	topic.Publish(NewFrame("b", "view", []byte("2")))
	if got := ids(topic.join("")); len(got) != 1 {
		t.Errorf("a new client got %v, want the current frame once", got)
	}
}

// TestSlowClientCut: over real sockets, a client that stops reading is cut once a write has waited (WriteTimeout/2
// to WriteTimeout), while a client that reads gets every frame without waiting for it.
func TestSlowClientCut(t *testing.T) {
	left := make(chan int, 4)
	topic := NewTopic(func(n int) { left <- n })
	topic.Publish(NewFrame("0", "view", []byte("start")))
	done := make(chan struct{})
	defer close(done)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Stream{Heartbeat: time.Hour, WriteTimeout: 300 * time.Millisecond, Done: done}.Serve(w, r, topic)
	}))
	defer srv.Close()
	slow, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	_ = slow.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(slow, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") // and never reads
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	for topic.Len() < 2 {
		time.Sleep(time.Millisecond)
	}
	big := []byte(strings.Repeat("x", 64<<10))
	rd := bufio.NewReader(resp.Body)
	start := time.Now()
	for i := 1; i <= 200; i++ {
		id := fmt.Sprint(i)
		topic.Publish(NewFrame(id, "view", big))
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("the reading client: %v", err)
			}
			if line == "id: "+id+"\n" {
				break
			}
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the reading client took %v for 200 frames: it waited for the one that does not read", d)
	}
	select {
	case n := <-left:
		if n != 1 {
			t.Errorf("%d clients left after the cut, want 1", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the client that does not read was never cut")
	}
}

// noHijack is a response that cannot hand its connection over, as HTTP/2's cannot.
type noHijack struct{ http.ResponseWriter }

func (n noHijack) Flush() { n.ResponseWriter.(http.Flusher).Flush() }

// TestStreamWire: the stream's bytes: a multi-line frame as data lines, heartbeats as comments, then a frame's
// delta; the same whether the stream is written to its connection or through the response (HTTP/2).
func TestStreamWire(t *testing.T) {
	for _, through := range []string{"connection", "response"} {
		t.Run(through, func(t *testing.T) {
			topic := NewTopic(nil)
			topic.Publish(NewFrame("k1", "view", []byte("<p>\none</p>")))
			done := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if through == "response" {
					w = noHijack{w}
				}
				Stream{Heartbeat: 20 * time.Millisecond, WriteTimeout: time.Second, Done: done}.Serve(w, r, topic)
			}))
			defer srv.Close()
			defer close(done)
			resp, err := http.Get(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			read := func(want string) string {
				buf := make([]byte, 0, 4096)
				for !strings.Contains(string(buf), want) {
					b := make([]byte, 512)
					n, err := resp.Body.Read(b)
					buf = append(buf, b[:n]...)
					if err != nil {
						t.Fatalf("%v after %q", err, buf)
					}
				}
				return string(buf)
			}
			if got := read(": heartbeat"); !strings.Contains(got, "id: k1\nevent: view\ndata: <p>\ndata: one</p>\n\n") {
				t.Errorf("stream: %q", got)
			}
			topic.PublishDelta(NewFrame("k2", "view", []byte("whole")), NewFrame("k2", "delta", []byte("d")))
			if got := read("data: d\n\n"); !strings.Contains(got, "id: k2\nevent: delta\ndata: d\n\n") {
				t.Errorf("after a change: %q", got)
			}
		})
	}
}

// TestStreamEnds: a client that goes is let go at once (nothing published meanwhile), and a server that stops
// ends its streams with the chunked body's last chunk, so that a client reads a finished stream, not a broken one.
func TestStreamEnds(t *testing.T) {
	left := make(chan int, 4)
	topic := NewTopic(func(n int) { left <- n })
	topic.Publish(NewFrame("k1", "view", []byte("x")))
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Stream{Heartbeat: time.Hour, WriteTimeout: time.Second, Done: done}.Serve(w, r, topic)
	}))
	defer srv.Close()

	gone, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(gone.Body).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	gone.Body.Close()
	select {
	case n := <-left:
		if n != 0 {
			t.Errorf("%d clients after the only one went", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a client that went was not let go")
	}

	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	for topic.Len() < 1 {
		time.Sleep(time.Millisecond)
	}
	close(done)
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the stream broke instead of ending: %v (after %q)", err, body)
	}
	if !strings.HasPrefix(string(body), "retry: 2000\n\nid: k1\n") {
		t.Errorf("stream: %q", body)
	}
}

// TestStreamHTTP10: a client speaking HTTP/1.0 (a proxy's default towards its servers) gets the events as they
// are, not wrapped in HTTP/1.1's chunks, which it would read as part of the stream.
func TestStreamHTTP10(t *testing.T) {
	topic := NewTopic(nil)
	topic.Publish(NewFrame("k1", "view", []byte("x")))
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Stream{Heartbeat: time.Hour, WriteTimeout: time.Second, Done: done}.Serve(w, r, topic)
	}))
	defer srv.Close()
	defer close(done)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET / HTTP/1.0\r\nHost: x\r\n\r\n")
	rd := bufio.NewReader(conn)
	var got strings.Builder
	for !strings.Contains(got.String(), "data: x\n\n") {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("%v after %q", err, got.String())
		}
		got.WriteString(line)
	}
	head, body, _ := strings.Cut(got.String(), "\r\n\r\n")
	if strings.Contains(strings.ToLower(head), "chunked") || body != "retry: 2000\n\nid: k1\nevent: view\ndata: x\n\n" {
		t.Errorf("an HTTP/1.0 stream: head %q, body %q", head, body)
	}
}

// TestHubEveryGame: a subscription to game 0 hears every game; a slow subscriber keeps the newest version.
func TestHubEveryGame(t *testing.T) {
	h := NewHub()
	all, stop := h.Subscribe(0)
	defer stop()
	one, stop1 := h.Subscribe(7)
	defer stop1()
	h.Publish(7, 1)
	h.Publish(7, 2)
	h.Publish(8, 5)
	if v := <-one; v != 2 {
		t.Errorf("game 7's subscriber got %d, want the newest 2", v)
	}
	if v := <-all; v != 5 {
		t.Errorf("the every-game subscriber got %d, want 5", v)
	}
}
