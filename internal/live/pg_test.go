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

// One server's bus carries every club it serves on two connections: clubs attached after it started are heard
// (the listening connection is made again to listen on them too), each on its own channel only.
func TestPGBusAttachesClubs(t *testing.T) {
	url := storetest.PostgresURL(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bus, err := live.StartPGBus(ctx, url, log)
	if err != nil {
		t.Fatal(err)
	}
	chA, chB := live.ChannelOf("bus_club_a"), live.ChannelOf("bus_club_b")
	hubA, hubB := live.NewHub(), live.NewHub()
	bus.Attach(chA, hubA)
	bus.Attach(chB, hubB)
	subA, stopA := hubA.Subscribe(9)
	defer stopA()
	subB, stopB := hubB.Subscribe(9)
	defer stopB()
	other := live.NewHub() // club a on another server
	if _, err := live.StartPGOn(ctx, url, chA, other, log); err != nil {
		t.Fatal(err)
	}
	// the bus may be listening again after the attachments (and then tells its hubs to look again: -1)
	got := func(sub <-chan int64, want int64, what string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case v := <-sub:
				if v == want {
					return
				}
				if v != -1 {
					t.Fatalf("%s: version %d, want %d", what, v, want)
				}
			case <-deadline:
				t.Fatalf("%s: nothing within 10 s", what)
			}
		}
	}
	for v := int64(1); v <= 3; v++ { // published until heard: the bus may still be making its connection again
		other.Publish(9, v)
		select {
		case x := <-subA:
			if x == v {
				goto heard
			}
		case <-time.After(time.Second):
		}
	}
	got(subA, 3, "club a on the bus")
heard:
	time.Sleep(300 * time.Millisecond)
	for {
		select {
		case v := <-subB:
			if v != -1 {
				t.Fatalf("club b heard club a's game 9 (version %d)", v)
			}
			continue
		default:
		}
		break
	}
	bus.Detach(chA)
	hubA.Publish(9, 10) // no longer sent to the other servers: only here
	got(subA, 10, "club a's own subscriber after the detach")
}
