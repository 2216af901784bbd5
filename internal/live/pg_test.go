package live_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"mafiaclub/internal/live"
	"mafiaclub/internal/storetest"
)

// Each club's servers hear only their club's live updates (issue 29): game 7 of one club is not game 7 of
// another, so a change published on one club's channel reaches the other servers of that club and nobody else.
func TestPGChannelsKeepClubsApart(t *testing.T) {
	url := storetest.PostgresURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	chA, chB := live.ChannelOf("x_club_a"), live.ChannelOf("x_club_b")
	if chA == chB || chA == live.Channel || len(chA) > 63 || live.ChannelOf("") != live.Channel {
		t.Fatalf("channels: %q %q %q", chA, chB, live.Channel)
	}
	hubs := map[string]*live.Hub{}
	for _, name := range []string{"a1", "a2", "b1", "own"} {
		ch := map[byte]string{'a': chA, 'b': chB, 'o': live.Channel}[name[0]]
		hubs[name] = live.NewHub()
		if _, err := live.StartPGOn(ctx, url, ch, hubs[name], log); err != nil {
			t.Fatal(err)
		}
	}
	subs := map[string]<-chan int64{}
	for name, h := range hubs {
		c, stop := h.Subscribe(7)
		defer stop()
		subs[name] = c
	}
	hubs["a1"].Publish(7, 3)
	<-subs["a1"] // its own subscribers, at once
	select {
	case v := <-subs["a2"]:
		if v != 3 {
			t.Errorf("club a's other server got version %d, want 3", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("club a's other server did not hear club a's change")
	}
	// PostgreSQL delivers notifications in order per sender: once a2 has it, give the others a moment more
	time.Sleep(300 * time.Millisecond)
	for _, name := range []string{"b1", "own"} {
		select {
		case v := <-subs[name]:
			t.Errorf("%s (another club's server) heard club a's game 7 (version %d)", name, v)
		default:
		}
	}
}
