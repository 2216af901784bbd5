package live

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fastLen is how many of the topic's streams its fan-out writes now (not passed by as slow).
func (t *Topic) fastLen() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, c := range t.fast {
		c.mu.Lock()
		if !c.slow && !c.dead {
			n++
		}
		c.mu.Unlock()
	}
	return n
}

// readFrames reads events from rd until the one with id want, checking that each is whole (its id, its event and
// every data line, as published) and that ids only grow; it returns the ids read.
func readFrames(t *testing.T, rd *bufio.Reader, want int, payload string) []int {
	t.Helper()
	var got []int
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("after frames %v: %v", got, err)
		}
		id, ok := strings.CutPrefix(line, "id: ")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(id))
		if err != nil {
			t.Fatalf("a torn frame: id line %q", line)
		}
		if ev, err := rd.ReadString('\n'); ev != "event: view\n" {
			t.Fatalf("frame %d: event line %q (%v)", n, ev, err)
		}
		if data, err := rd.ReadString('\n'); data != "data: "+payload+strconv.Itoa(n)+"\n" {
			t.Fatalf("frame %d torn: data line of %d bytes (%v)", n, len(data), err)
		}
		if len(got) > 0 && n <= got[len(got)-1] {
			t.Fatalf("frame %d after %v", n, got)
		}
		got = append(got, n)
		if n == want {
			return got
		}
	}
}

// TestFanoutSlowStreamCatchesUp: over real sockets, a client that stops reading while frames far larger than its
// socket's buffers are published is passed by (the client that reads gets every frame meanwhile); when it reads
// again it gets whole frames in order up to the latest, and is then written by the fan-out again, with the frames
// that follow. When both go, the fan-out's goroutine ends.
func TestFanoutSlowStreamCatchesUp(t *testing.T) {
	left := make(chan int, 4)
	topic := NewTopic(func(n int) { left <- n })
	payload := strings.Repeat("x", 32<<10)
	topic.Publish(NewFrame("0", "view", []byte(payload+"0")))
	done := make(chan struct{})
	defer close(done)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Stream{Heartbeat: time.Hour, WriteTimeout: 20 * time.Second, Done: done}.Serve(w, r, topic)
	}))
	defer srv.Close()
	open := func(readBuf int) (net.Conn, *bufio.Reader) {
		conn, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.(*net.TCPConn).SetReadBuffer(readBuf)
		fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		return conn, bufio.NewReaderSize(conn, 64<<10)
	}
	slow, slowRd := open(64 << 10)
	defer slow.Close()
	readFrames(t, slowRd, 0, payload)
	fast, fastRd := open(256 << 10)
	defer fast.Close()
	readFrames(t, fastRd, 0, payload)
	for topic.fastLen() < 2 {
		time.Sleep(time.Millisecond)
	}

	// publish until the client that does not read is passed by (its socket's buffers and the server's are full),
	// and a few frames more
	paused, passedBy := 0, 0
	for paused < 1000 && passedBy < 5 {
		paused++
		topic.Publish(NewFrame(strconv.Itoa(paused), "view", []byte(payload+strconv.Itoa(paused))))
		readFrames(t, fastRd, paused, payload) // the reading client is never held up by the other
		if topic.fastLen() == 1 {
			passedBy++
		}
	}
	if passedBy == 0 {
		t.Fatalf("after %d frames the client that does not read was still written by the fan-out", paused)
	}
	got := readFrames(t, slowRd, paused, payload)
	if got[0] != 1 {
		t.Errorf("the slow client's frames after its pause began at %d, want 1 (it had 0)", got[0])
	}
	for deadline := time.Now().Add(5 * time.Second); topic.fastLen() < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the client that caught up was not taken back by the fan-out")
		}
	}
	for i := paused + 1; i <= paused+3; i++ {
		topic.Publish(NewFrame(strconv.Itoa(i), "view", []byte(payload+strconv.Itoa(i))))
		readFrames(t, fastRd, i, payload)
		readFrames(t, slowRd, i, payload)
	}

	slow.Close()
	fast.Close()
	for n := 2; n > 0; n-- {
		select {
		case <-left:
		case <-time.After(5 * time.Second):
			t.Fatal("a client that went was not let go")
		}
	}
	topic.mu.Lock()
	idle := topic.sweep == nil && topic.quit == nil && len(topic.fast) == 0
	topic.mu.Unlock()
	if !idle {
		t.Error("the fan-out still runs with no streams")
	}
}
