package hostview

import (
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"mafiaclub/mafia"
)

// An action that removes a player asks first (issue 24), saying what the engine says it will do
// (mafia.Game.Effect): "#7 leaves the game without a last word; today's vote is cancelled. Disqualify #7?". A 4th
// foul (a 3rd warning where warnings count), a disqualification and a team's loss; a foul that removes nobody asks
// nothing.

// asks writes, for each seat, what the page asks before each action on him that may remove a player.
func (v *View) asks(g *mafia.Game) {
	var scratch *mafia.Game
	catalog := reflect.ValueOf(v.cat).Pointer()
	ask := func(e mafia.Event, always bool, question string) string {
		if scratch == nil {
			scratch = g.Clone()
		}
		x, err := g.Effect(e, scratch)
		if err != nil {
			return ""
		}
		key := askKey{catalog, v.Lang, e.Type, int(e.Seat), x, v.Finished}
		if text, ok := asked.Load(key); ok {
			return text.(string)
		}
		text := v.effectText(int(e.Seat), x, e.Type == mafia.EvTeamLoss)
		if text == "" && !always {
			return ""
		}
		switch {
		case text == "" && v.Finished:
			text = v.T("taps.after_end") // a penalty's only
		case text == "":
			text = v.T("taps.no_change", e.Seat) // he has left already (his last word)
		}
		text = v.T("taps.confirm", capital(text), v.T(question, e.Seat))
		if askedN.Add(1) <= maxAsked {
			asked.Store(key, text)
		}
		return text
	}
	for i := range v.Seats {
		s := &v.Seats[i]
		if v.Allowed["team_loss"] {
			s.TeamConfirm = ask(mafia.TeamLoss(s.N), true, "taps.ask.team_loss")
		}
		if !g.Disciplinable(s.N) {
			continue
		}
		if v.Allowed["foul"] {
			s.FoulConfirm = ask(mafia.Foul(s.N), false, "taps.ask.foul")
		}
		if v.Allowed["warning"] && v.WarningsMatter {
			s.WarnConfirm = ask(mafia.Warning(s.N), false, "taps.ask.warning")
		}
		if v.Allowed["disqualify"] {
			s.DQConfirm = ask(mafia.Disqualify(s.N), true, "taps.ask.disqualify")
		}
	}
}

// asked keeps the questions made so far, by what they say: a page's drawings (the server's, and the browser's
// engine's drawings ahead, a dozen or more a tap) ask the same few again and again, and writing them each time was a
// fifth of Build. A foul that removes nobody asks nothing and is not kept. The catalogue is a key, as a map's
// identity: one process has one.
var (
	asked  sync.Map // askKey -> string
	askedN atomic.Int64
)

const maxAsked = 1 << 14 // a game's seats, actions and effects in three languages fit many times over

type askKey struct {
	catalog uintptr
	lang    string
	typ     mafia.EventType
	seat    int
	x       mafia.Effect
	over    bool
}

// effectText says what an action on seat will do, as the engine's effect has it: "#7 leaves the game without a
// last word; today's vote is cancelled". "" when it changes nothing of the kind.
func (v *View) effectText(seat int, x mafia.Effect, team bool) string {
	var parts []string
	if team {
		parts = append(parts, v.T("taps.team_loses", seat))
	}
	for _, s := range x.Leaves.List() {
		if x.LastWord.Has(s) {
			parts = append(parts, v.T("taps.leaves_last_word", s))
		} else {
			parts = append(parts, v.T("taps.leaves", s))
		}
	}
	if x.VoteCancelled {
		parts = append(parts, v.T("taps.vote_cancelled"))
	}
	if x.VoteUnsure {
		parts = append(parts, v.T("taps.vote_unsure"))
	}
	if x.RoundAgain {
		parts = append(parts, v.T("taps.round_again"))
	}
	if x.NextVoteCancelled {
		parts = append(parts, v.T("taps.next_vote_cancelled"))
	}
	if x.Ends {
		parts = append(parts, v.T("taps.game_ends"))
	}
	return strings.Join(parts, "; ")
}

// capital writes a sentence's first letter as a capital: "the team of #7 loses" opens the question.
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
