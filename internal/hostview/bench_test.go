package hostview

import (
	"io"
	"testing"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// benchState is a club game well into day 2: 30 events.
func benchState(b *testing.B) *State {
	b.Helper()
	roles := []mafia.Role{mafia.Citizen, mafia.Citizen, mafia.Mafia, mafia.Citizen, mafia.Sheriff, mafia.Citizen, mafia.Don, mafia.Citizen, mafia.Mafia, mafia.Citizen}
	var seats []record.Seat
	for i, r := range roles {
		seats = append(seats, record.Seat{Seat: i + 1, Role: r, Name: "Player " + string(rune('A'+i))})
	}
	rec, err := record.New(mafia.DefaultRuleSetID, nil, seats, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	st := &State{In: Input{Game: 1, Live: true, Lang: "en"}, Record: rec}
	if st.Play, err = rec.Replay(); err != nil {
		b.Fatal(err)
	}
	for len(st.Record.Events) < 30 && !st.Play.Finished() {
		next := st.Play.Next()
		var e mafia.Event
		switch {
		case next.Allowed.Has(mafia.EvShot):
			e = mafia.Shot(next.Actors.List()[0], 2)
		case next.Allowed.Has(mafia.EvSpeech):
			e = mafia.Event{Type: mafia.EvSpeech, Seat: uint8(next.Actors.List()[0])}
		case next.Allowed.Has(mafia.EvDay):
			e = mafia.Event{Type: mafia.EvDay}
		case next.Allowed.Has(mafia.EvNight):
			e = mafia.Event{Type: mafia.EvNight}
		default:
			b.Fatalf("no simple action at %v", next.Allowed)
		}
		if st, err = st.Apply([]record.Event{{Event: e}}, "19:00:00"); err != nil {
			b.Fatal(err)
		}
	}
	return st
}

func BenchmarkBuild(b *testing.B) {
	st := benchState(b)
	cat := i18n.Catalog{"en": {}}
	for b.Loop() {
		Build(st, cat, func() string { return "k" })
	}
}

func BenchmarkRender(b *testing.B) {
	st := benchState(b)
	v := Build(st, i18n.Catalog{"en": {}}, func() string { return "k" })
	for b.Loop() {
		Render(io.Discard, v)
	}
}

// BenchmarkRenderAhead draws what the browser's engine draws after a tap: the page after each action it offers
// (here: a nomination of every seat, a foul of every seat, the next speech), with the parts cached or not.
func BenchmarkRenderAhead(b *testing.B) {
	st := benchState(b)
	cat := i18n.Catalog{"en": {}}
	var views []*View
	add := func(e mafia.Event) {
		next, err := st.Apply([]record.Event{{Event: e}}, "19:00:00")
		if err == nil {
			views = append(views, Build(next, cat, func() string { return "" }))
		}
	}
	add(mafia.Event{Type: mafia.EvSpeech, Seat: uint8(st.Play.Next().Actors.List()[0])})
	speaker := Build(st, cat, func() string { return "" }).Speaker
	for s := 1; s <= 10; s++ {
		add(mafia.Nominate(speaker, s))
		add(mafia.Foul(s))
	}
	if len(views) < 10 {
		b.Fatalf("%d pages", len(views))
	}
	b.Run("uncached", func(b *testing.B) {
		for b.Loop() {
			for _, v := range views {
				Render(io.Discard, v)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			var c PartCache // a new page's drawings ahead, from a cache that has none of its parts yet
			for _, v := range views {
				RenderCached(io.Discard, v, &c)
			}
		}
	})
	b.ReportMetric(float64(len(views)), "pages")
}
