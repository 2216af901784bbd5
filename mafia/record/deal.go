package record

import "mafiaclub/mafia"

// ForDeal returns the record's events with its unanimous shots given to the black players of its deal: each run
// of consecutive shots marked Unanimous at one target (one tap of "all at #N") becomes one shot by each black
// player who, with the record's cards, is alive and has not shot yet at that point of the night, in seat order.
// Every other event is kept as it is, so that a correction of the cards that makes a recorded event impossible
// (a shot recorded for one player who turns out red, a check by a seat that is not the sheriff) still fails the
// replay. A run with nobody left to shoot, and everything from an event the engine refuses, are kept as they are
// too: the replay then names the event. from[k] is the index in the record's events of the event events[k] was
// made from (the run's first shot, for a moved shot). The record's own events are never changed: when no shot
// moves, ForDeal returns them, and a nil from.
func (r *Record) ForDeal() (events []Event, from []int) {
	g, err := mafia.NewGame(r.Rules, r.Options, r.Roles())
	if err != nil {
		return r.Events, nil
	}
	changed := false
	out := make([]Event, 0, len(r.Events))
	src := make([]int, 0, len(r.Events))
	rest := func(i int) ([]Event, []int) {
		if !changed {
			return r.Events, nil
		}
		for k := i; k < len(r.Events); k++ {
			out, src = append(out, r.Events[k]), append(src, k)
		}
		return out, src
	}
	for i := 0; i < len(r.Events); {
		e := r.Events[i]
		if !e.Unanimous || e.Type != mafia.EvShot {
			if err := g.Apply(e.Event); err != nil {
				return rest(i)
			}
			out, src = append(out, e), append(src, i)
			i++
			continue
		}
		end := i + 1
		for end < len(r.Events) && r.Events[end].Unanimous && r.Events[end].Type == mafia.EvShot && r.Events[end].Target == e.Target {
			end++
		}
		run := r.Events[i:end]
		shooters := g.Shooters().List()
		if len(shooters) == 0 {
			return rest(i)
		}
		moved := len(shooters) != len(run)
		shots := make([]Event, len(shooters))
		for k, by := range shooters {
			shots[k] = e // the run's time, note and reason (its first shot's)
			shots[k].Event = mafia.Shot(by, int(e.Target))
			if k < len(run) && run[k].Seat != shots[k].Seat {
				moved = true
			}
			if err := g.Apply(shots[k].Event); err != nil {
				return rest(i)
			}
		}
		if moved {
			changed = true
			for range shots {
				src = append(src, i)
			}
			out = append(out, shots...)
		} else {
			for k := i; k < end; k++ {
				out, src = append(out, r.Events[k]), append(src, k)
			}
		}
		i = end
	}
	if !changed {
		return r.Events, nil
	}
	return out, src
}
