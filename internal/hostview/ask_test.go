package hostview

import (
	"regexp"
	"strings"
	"testing"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
)

// TestRemovalsAskFirst: a foul, a warning, a disqualification or a team's loss that removes a player asks first,
// saying what the engine says it will do, in the host's language; a foul that removes nobody asks nothing.
func TestRemovalsAskFirst(t *testing.T) {
	cat := catalog(t)
	three := join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2), mafia.Foul(6), mafia.Foul(6), mafia.Foul(6))
	for _, lang := range i18n.Languages {
		st := game(t, "fiim-2025-club", tenRoles, three...)
		st.In.Lang = lang
		v, page := build(t, st)
		want := cat.T(lang, "taps.confirm", capital(cat.T(lang, "taps.leaves", 6)+"; "+cat.T(lang, "taps.vote_cancelled")), cat.T(lang, "taps.ask.foul", 6))
		if v.Seats[5].FoulConfirm != want {
			t.Errorf("%s: the 4th foul asks %q, want %q", lang, v.Seats[5].FoulConfirm, want)
		}
		if !strings.Contains(page, `data-confirm="`+attr(want)+`"><input type="hidden" name="version" value="0"><input type="hidden" name="key" value="k"><input type="hidden" name="type" value="foul"><input type="hidden" name="seat" value="6">`) {
			t.Errorf("%s: the page's foul form of #6 does not ask %q:\n%s", lang, want, regexp.MustCompile(`<form[^>]*><input[^>]*><input[^>]*><input type="hidden" name="type" value="foul"><input type="hidden" name="seat" value="6">`).FindString(page))
		}
		for i, s := range v.Seats {
			if i != 5 && s.FoulConfirm != "" {
				t.Errorf("%s: #%d's 1st foul asks %q", lang, s.N, s.FoulConfirm)
			}
			if s.DQConfirm == "" || !strings.Contains(s.DQConfirm, cat.T(lang, "taps.leaves", s.N)) || !strings.Contains(s.DQConfirm, cat.T(lang, "taps.ask.disqualify", s.N)) {
				t.Errorf("%s: #%d's disqualification asks %q", lang, s.N, s.DQConfirm)
			}
			if !strings.Contains(s.TeamConfirm, cat.T(lang, "taps.game_ends")) || !strings.HasPrefix(s.TeamConfirm, capital(cat.T(lang, "taps.team_loses", s.N))) {
				t.Errorf("%s: #%d's team's loss asks %q", lang, s.N, s.TeamConfirm)
			}
		}
		if n := strings.Count(page, `<option value="`); n < 20 || strings.Count(page, `" data-confirm="`) < 21 {
			t.Errorf("%s: the disqualification's and the team loss's seats do not each ask (%d options)", lang, n)
		}
	}
	// a player who has left, in his last word, and any player once the game is over: nobody leaves, the page says so
	killed := join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Day())
	if v, _ := build(t, game(t, "fiim-2025-club", tenRoles, killed...)); !strings.HasPrefix(v.Seats[0].DQConfirm, capital(cat.T("en", "taps.no_change", 1))) {
		t.Errorf("the disqualification of #1, killed, in his last word, asks %q", v.Seats[0].DQConfirm)
	}
	if v, _ := build(t, game(t, "fiim-2025-club", tenRoles, join(killed, mafia.TeamLoss(7))...)); !strings.HasPrefix(v.Seats[3].DQConfirm, capital(cat.T("en", "taps.after_end"))) || v.Seats[3].TeamConfirm != "" {
		t.Errorf("after the end the disqualification of #4 asks %q (the team's loss %q)", v.Seats[3].DQConfirm, v.Seats[3].TeamConfirm)
	}
	// home-ua: the 3rd warning removes the player
	ua := []mafia.Role{mafia.Citizen, mafia.Citizen, mafia.Mafia, mafia.Commissar, mafia.Citizen, mafia.Mafia, mafia.Citizen}
	v, _ := build(t, game(t, "home-ua", ua, mafia.Day(), mafia.Speech(1), mafia.Warning(5), mafia.Warning(5)))
	if w := v.Seats[4].WarnConfirm; !strings.Contains(w, cat.T("en", "taps.leaves", 5)) {
		t.Errorf("home-ua: the 3rd warning asks %q", w)
	}
	if v.Seats[3].WarnConfirm != "" {
		t.Errorf("home-ua: a 1st warning asks %q", v.Seats[3].WarnConfirm)
	}
}

// attr escapes a text as html/template writes it in an attribute.
func attr(s string) string {
	return strings.NewReplacer("&", "&amp;", "'", "&#39;", `"`, "&#34;", "<", "&lt;", ">", "&gt;", "+", "&#43;").Replace(s)
}
