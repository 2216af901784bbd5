package main

import (
	"math/rand/v2"
	"net/url"
	"strconv"

	"mafiaclub/internal/demo"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// script is a table's game as the host records it: one form post per event, in order.
type script struct {
	roles []mafia.Role
	steps []url.Values
}

// newScript deals a table of ten at rules and plays a whole game at random through the engine (demo.Play), so
// that every step is valid when the steps before it were taken.
func newScript(rng *rand.Rand, rules string) (*script, error) {
	roles := demo.Deal(rng, rules, 10)
	actions, err := demo.Play(rng, rules, roles)
	if err != nil {
		return nil, err
	}
	s := &script{roles: roles}
	for _, a := range actions {
		for _, e := range a.Events {
			s.steps = append(s.steps, formOf(e.Event))
		}
	}
	return s, nil
}

// formOf is the host page's action form (hostview.EventsFromForm reads it) that records e.
func formOf(e mafia.Event) url.Values {
	f := url.Values{"type": {e.Type.String()}}
	seat := func(k string, s uint8) { f.Set(k, strconv.Itoa(int(s))) }
	voters := func() {
		for _, s := range e.Voters.List() {
			f.Add("voters", strconv.Itoa(s))
		}
		if e.VotersGiven && e.Voters == 0 {
			f.Set("nobody", "yes")
		}
	}
	switch e.Type {
	case mafia.EvSpeech, mafia.EvFoul, mafia.EvWarning:
		seat("seat", e.Seat)
	case mafia.EvDisqualify, mafia.EvTeamLoss:
		seat("seat", e.Seat)
		f.Set("reason", "clubload")
	case mafia.EvAdjust:
		seat("seat", e.Seat)
		f.Set("points", record.FormatPoints(int(e.Points)))
	case mafia.EvNominate, mafia.EvShot, mafia.EvCheck, mafia.EvHeal:
		seat("by", e.Seat)
		seat("target", e.Target)
	case mafia.EvVote:
		seat("target", e.Target)
		voters()
	case mafia.EvLift:
		voters()
		if !e.VotersGiven {
			f.Set("nobody", "yes")
		}
	case mafia.EvBestMove:
		seat("by", e.Seat)
		for i := 0; i < int(e.NTargets); i++ {
			f.Add("targets", strconv.Itoa(int(e.Targets[i])))
		}
	}
	return f
}
