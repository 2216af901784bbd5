package record

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"mafiaclub/mafia"
)

// unanimousNight: day 1 without a nomination, then night 2, whose shot at #1 the host recorded in one tap
// ("all at #1") for the blacks of the deal seats10 (#3, #7, #9), then the don's and the sheriff's checks.
func unanimousNight(unanimous bool, checks ...mafia.Event) []Event {
	var out []Event
	add := func(es ...mafia.Event) {
		for _, e := range es {
			out = append(out, Event{Event: e, At: "2026-12-01T20:00:00Z"})
		}
	}
	add(mafia.Day())
	for s := 1; s <= 10; s++ {
		add(mafia.Speech(s))
	}
	add(mafia.Night())
	for _, by := range []int{3, 7, 9} {
		out = append(out, Event{Event: mafia.Shot(by, 1), At: "2026-12-01T20:30:00Z", Unanimous: unanimous})
	}
	add(checks...)
	return out
}

func dealRecord(t *testing.T, seats string, events []Event) *Record {
	t.Helper()
	rec, err := Decode([]byte(doc("fiim-2025-club", "", seats, "[]")))
	if err != nil {
		t.Fatal(err)
	}
	rec.Events = events
	return rec
}

// swap gives two seats of seats10 each other's cards: the host typed them the wrong way round.
func swap(a, b string) string {
	s := strings.Replace(seats10, `"role": "`+a+`", "name": "`, `"role": "@", "name": "`, 1)
	s = strings.Replace(s, `"role": "`+b+`", "name": "`, `"role": "`+a+`", "name": "`, 1)
	return strings.Replace(s, `"role": "@"`, `"role": "`+b+`"`, 1)
}

// TestForDealMovesUnanimousShot: a night's shot recorded as "all at #1" is the shot of the blacks of the deal
// replayed, so a corrected deal (a red and a black card swapped after the night) keeps it: the corrected blacks
// shoot, the victim is the same. A shot recorded for one player, and a check, stay the recorded seat's, and a
// corrected deal that makes them impossible is still refused.
func TestForDealMovesUnanimousShot(t *testing.T) {
	checks := []mafia.Event{mafia.Check(7, 5), mafia.Check(5, 9), mafia.Day()}
	// seat 3 is a citizen and seat 4 the mafia: the host had typed them the other way round
	corrected := strings.Replace(strings.Replace(seats10, `"role": "mafia", "name": "C"`, `"role": "citizen", "name": "C"`, 1),
		`"role": "citizen", "name": "D"`, `"role": "mafia", "name": "D"`, 1)

	first := dealRecord(t, seats10, unanimousNight(true, checks...))
	want, err := first.Replay()
	if err != nil {
		t.Fatalf("the night as recorded: %v", err)
	}
	if events, from := first.ForDeal(); from != nil || !reflect.DeepEqual(events, first.Events) {
		t.Errorf("the deal the shot was recorded with moves it: %+v", events)
	}

	rec := dealRecord(t, corrected, unanimousNight(true, checks...))
	events, from := rec.ForDeal()
	if from == nil {
		t.Fatal("the corrected deal leaves the shot with #3, who is red now")
	}
	var shooters []int
	for i, e := range events {
		if e.Type == mafia.EvShot {
			shooters = append(shooters, int(e.Seat))
			if !e.Unanimous || e.Target != 1 || e.At != "2026-12-01T20:30:00Z" || from[i] != 12 {
				t.Errorf("moved shot %+v (from event %d), want a unanimous shot at #1 with the tap's time, from event 12", e, from[i]+1)
			}
		}
	}
	if !reflect.DeepEqual(shooters, []int{4, 7, 9}) {
		t.Errorf("the shot is by %v, want the corrected blacks #4, #7, #9", shooters)
	}
	if rec.Events[12].Seat != 3 {
		t.Errorf("ForDeal changed the record's own events: %+v", rec.Events[12])
	}
	rec.Events = events
	got, err := rec.Replay()
	if err != nil {
		t.Fatalf("the corrected deal does not replay: %v", err)
	}
	if got.Out(1).How != want.Out(1).How || got.Out(1).How == mafia.NotOut || got.Alive() != want.Alive() {
		t.Errorf("the corrected replay disagrees: #1 %+v, living %v; as recorded #1 %+v, living %v", got.Out(1), got.Alive(), want.Out(1), want.Alive())
	}

	// the same shots recorded one by one: #3's shot was his, and he is red
	single := dealRecord(t, corrected, unanimousNight(false, checks...))
	if events, from := single.ForDeal(); from != nil || !reflect.DeepEqual(events, single.Events) {
		t.Errorf("shots recorded one by one moved: %+v", events)
	}
	var re *mafia.ReplayError
	if _, err := single.Replay(); !errors.As(err, &re) || re.Index != 13 {
		t.Errorf("#3's own shot with #3 red: %v, want event 13 refused", err)
	}

	// the don and a citizen swapped: the shot follows, the don's check by #7 does not
	donSwap := dealRecord(t, swap("don", "citizen"), unanimousNight(true, checks...))
	if events, from := donSwap.ForDeal(); from != nil {
		donSwap.Events = events
	}
	if _, err := donSwap.Replay(); !errors.As(err, &re) || re.Event.Type != mafia.EvCheck {
		t.Errorf("the don's check with #7 no longer the don: %v, want the check refused", err)
	}
}

// TestUnanimousField: the record keeps "unanimous" on a shot, writes it back, and refuses it elsewhere.
func TestUnanimousField(t *testing.T) {
	e, err := DecodeEvent([]byte(`{"type": "shot", "by": 3, "target": 1, "unanimous": true}`), 10)
	if err != nil || !e.Unanimous {
		t.Fatalf("%+v %v", e, err)
	}
	if got := string(EncodeEvent(e)); got != `{"type": "shot", "by": 3, "target": 1, "unanimous": true}` {
		t.Errorf("written back as %s", got)
	}
	if e, err := DecodeEvent([]byte(`{"type": "shot", "by": 3, "target": 1}`), 10); err != nil || e.Unanimous {
		t.Errorf("a shot without the field: %+v %v", e, err)
	}
	if _, err := DecodeEvent([]byte(`{"type": "check", "by": 7, "target": 1, "unanimous": true}`), 10); err == nil || !strings.Contains(err.Error(), `unexpected field "unanimous"`) {
		t.Errorf("a check marked unanimous: %v", err)
	}
	if _, err := DecodeEvent([]byte(`{"type": "shot", "by": 3, "target": 1, "unanimous": 1}`), 10); err == nil {
		t.Error("unanimous 1 accepted")
	}
}
