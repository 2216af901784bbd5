package live

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestSlowClientDropped: a client that stops reading is dropped once its queue is full, while a client that
// reads gets every frame; the publisher never waits.
func TestSlowClientDropped(t *testing.T) {
	topic := NewTopic(nil)
	slow := topic.join("")
	fast := topic.join("")
	got := 0
	for i := 1; i <= 3*ClientQueue; i++ {
		topic.Publish(NewFrame(fmt.Sprint(i), "view", []byte("x")))
		f := <-fast.ch
		if f.ID != fmt.Sprint(i) {
			t.Fatalf("the reading client got %s, want %d", f.ID, i)
		}
		got++
	}
	select {
	case <-slow.gone:
	default:
		t.Fatal("the client that does not read was not dropped")
	}
	if len(slow.ch) != ClientQueue {
		t.Errorf("the dropped client holds %d frames, want its bound %d", len(slow.ch), ClientQueue)
	}
	if topic.Len() != 1 {
		t.Errorf("%d clients left, want the reading one", topic.Len())
	}
}

// TestResumeSendsCurrentOnce: a client that comes back with the current frame's id gets nothing until the next
// frame; one with an older id gets the current frame once.
func TestResumeSendsCurrentOnce(t *testing.T) {
	topic := NewTopic(nil)
	topic.Publish(NewFrame("a", "view", []byte("1")))
	topic.Publish(NewFrame("b", "view", []byte("2")))
	if c := topic.join("b"); len(c.ch) != 0 {
		t.Error("a client up to date got a frame")
	}
	if c := topic.join("a"); len(c.ch) != 1 || (<-c.ch).ID != "b" {
		t.Error("a client behind did not get the current frame")
	}
	topic.Publish(NewFrame("b", "view", []byte("2")))
	if c := topic.join(""); len(c.ch) != 1 {
		t.Error("a new client did not get the current frame once")
	}
}

// TestStreamWire: the stream's bytes: a multi-line frame as data lines, heartbeats as comments.
func TestStreamWire(t *testing.T) {
	topic := NewTopic(nil)
	topic.Publish(NewFrame("k1", "view", []byte("<p>\none</p>")))
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Stream{Heartbeat: time.Millisecond, WriteTimeout: time.Second, Done: done}.Serve(w, r, topic, "")
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 0, 4096)
	for !strings.Contains(string(buf), ": heartbeat") {
		b := make([]byte, 512)
		n, err := resp.Body.Read(b)
		buf = append(buf, b[:n]...)
		if err == io.EOF {
			break
		}
	}
	close(done)
	if !strings.Contains(string(buf), "id: k1\nevent: view\ndata: <p>\ndata: one</p>\n\n") {
		t.Errorf("stream: %q", buf)
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
