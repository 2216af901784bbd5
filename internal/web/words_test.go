package web_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// langGet reads a page in a language (the lang cookie, as the menu's language buttons set it).
func (h *harness) langGet(c *http.Client, lang, path string) response {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	req.AddCookie(&http.Cookie{Name: "lang", Value: lang})
	return h.do(c, req)
}

// wordsGame plays a club game of the demo club's members to its end as the host (a red win with club extras, the
// last vote on day 3, a correction of +0.3) and returns its id; saved, it is also saved as rated.
func wordsGame(t *testing.T, h *harness, saved bool) int64 {
	t.Helper()
	ctx := context.Background()
	host, err := h.store.UserByLogin(ctx, club.DemoHostLogin)
	if err != nil {
		t.Fatal(err)
	}
	games := h.site.Services().Games
	ng := club.NewGame{Rules: club.ClubRules, Rated: true}
	for i, nick := range []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"} {
		ng.Seats = append(ng.Seats, club.NewSeat{Name: nick, Role: tenRoles[i], Guest: i == 9}) // the demo club's members
	}
	g, err := games.Start(ctx, host, ng)
	if err != nil {
		t.Fatal(err)
	}
	speeches := func(from, to int) []mafia.Event {
		var out []mafia.Event
		for s := from; s <= to; s++ {
			out = append(out, mafia.Speech(s))
		}
		return out
	}
	var events []mafia.Event
	for _, part := range [][]mafia.Event{
		{mafia.Day(), mafia.Speech(1), mafia.Nominate(1, 3), mafia.Speech(2), mafia.Nominate(2, 7)}, speeches(3, 10),
		{mafia.Vote(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Check(7, 5),
			mafia.Check(5, 9), mafia.Day(), mafia.BestMove(1, 7, 9, 10), mafia.Speech(2), mafia.Nominate(2, 9), mafia.Speech(4),
			mafia.Nominate(4, 7)}, speeches(5, 10),
		{mafia.Vote(9, 2, 4, 5, 6, 8, 10), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 10), mafia.Check(7, 2), mafia.Check(5, 7),
			mafia.Day(), mafia.Speech(4), mafia.Speech(5), mafia.Nominate(5, 7), mafia.Speech(6), mafia.Speech(7), mafia.Speech(8),
			mafia.Speech(2), mafia.VoteRest(7), mafia.Adjust(5, 30)},
	} {
		events = append(events, part...)
	}
	recs := make([]record.Event, len(events))
	for i, e := range events {
		recs[i] = record.Event{Event: e}
	}
	st, err := games.Act(ctx, host, g.ID, g.Version, recs)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Play.Finished() {
		t.Fatal("the game is not over")
	}
	if saved {
		if _, err := games.Save(ctx, host, g.ID, st.Game.Version, true); err != nil {
			t.Fatal(err)
		}
	}
	return g.ID
}

// TestGamesListRuleSetNames: the games' lists (/games, /history) name each game's rule set in the reader's
// language, as the game's own pages do, never by its id ("fiim-2025-club").
func TestGamesListRuleSetNames(t *testing.T) {
	h := newHarness(t)
	cat := mustCatalog(t)
	wordsGame(t, h, false)
	wordsGame(t, h, true)
	c := h.login(club.DemoHostLogin, club.DemoHostPassword)
	rs, _ := mafia.RuleSet(club.ClubRules)
	cell := regexp.MustCompile(`<td title="` + regexp.QuoteMeta(rs.ID) + `">([^<]*)</td>`)
	for _, lang := range i18n.Languages {
		name := cat.T(lang, "ruleset."+rs.ID)
		for path, want := range map[string]int{"/games": 2, "/history": 1} {
			body := h.langGet(c, lang, path).Body
			got := cell.FindAllStringSubmatch(body, -1)
			if len(got) != want {
				t.Errorf("%s in %s: %d games name their rule set (%q), want %d", path, lang, len(got), name, want)
			}
			for _, m := range got {
				if html.UnescapeString(m[1]) != name {
					t.Errorf("%s in %s: a game's rule set reads %q, want %q", path, lang, m[1], name)
				}
			}
			if strings.Contains(body, "<td>"+rs.ID+"</td>") || strings.Contains(body, ">"+rs.ID+"</option>") {
				t.Errorf("%s in %s: the rule set's id is shown as its name", path, lang)
			}
		}
	}
}

// section cuts the HTML from the first start to the first end after it, "" when there is none.
func section(body, start, end string) string {
	i := strings.Index(body, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(body[i:], end)
	if j < 0 {
		return ""
	}
	return body[i : i+j]
}

var (
	pointDecimal = regexp.MustCompile(`\d\.\d`)
	commaDecimal = regexp.MustCompile(`\d,\d`)
)

// TestDecimalsByLanguage: a number with decimals reads as the reader's language writes it, one separator per
// language (a comma in Ukrainian and Russian, a point in English), on the host page's points table and its
// corrections, the chronology, the protocol, the game's public page, the rating, a player's figures and the front
// door's best players (which wrote "56.40" in Ukrainian until it went through the same writer); before,
// "0.94" and "+0.1" stood beside "0,3". Forms still send what the server reads: a correction's value keeps the
// point, a correction typed with a comma is read, and the new-game form's best-move points, shown with commas, are
// read back. The CSV export keeps the point.
func TestDecimalsByLanguage(t *testing.T) {
	h := newHarness(t)
	live := wordsGame(t, h, false)
	saved := wordsGame(t, h, true)
	c := h.login(club.DemoHostLogin, club.DemoHostPassword)
	player := ""
	if m := regexp.MustCompile(`href="/players/(\d+)`).FindStringSubmatch(h.langGet(c, "en", "/rating").Body); m != nil {
		player = m[1]
	}
	if player == "" {
		t.Fatal("the rating lists nobody")
	}
	for _, lang := range i18n.Languages {
		want, wrong := commaDecimal, pointDecimal
		if lang == "en" {
			want, wrong = pointDecimal, commaDecimal
		}
		host := h.langGet(c, lang, fmt.Sprintf("/games/%d", live)).Body
		record := h.langGet(c, lang, fmt.Sprintf("/history/%d", saved)).Body
		parts := map[string]string{
			"the host page's points":      section(host, `id="points-section"`, `</section>`),
			"the host page's chronology":  section(host, `id="chronology"`, `</ol>`),
			"the protocol":                section(h.langGet(c, lang, fmt.Sprintf("/history/%d?view=protocol", saved)).Body, `id="protocol"`, `</article>`),
			"the game's page":             section(record, `id="points"`, `</table>`),
			"the game's chronology":       section(record, `id="chronology"`, `</ol>`),
			"the rating":                  section(h.langGet(c, lang, "/rating").Body, `<tbody>`, `</tbody>`),
			"the player's figures":        section(h.langGet(c, lang, "/players/"+player).Body, `id="player-totals"`, `</ul>`),
			"the host page's corrections": section(host, `class="row adjust"`, `</form>`),
			"the front door's best":       section(h.langGet(c, lang, "/").Body, `id="home-top"`, `</ol>`),
		}
		for what, part := range parts {
			if what == "the host page's corrections" {
				// the options' labels, not their values (the server reads "0.3")
				part = regexp.MustCompile(`value="[^"]*"`).ReplaceAllString(part, "")
			}
			switch {
			case part == "":
				t.Errorf("%s: %s is not on its page", lang, what)
			case wrong.MatchString(part):
				t.Errorf("%s: %s writes %q", lang, what, wrong.FindString(part))
			case !want.MatchString(part):
				t.Errorf("%s: %s has no number with decimals", lang, what)
			}
		}
		if !strings.Contains(host, `<option value="0.3">&#43;`+i18n.Decimal(lang, "0.3")+`</option>`) {
			t.Errorf("%s: the correction of 0.3 is not offered with the value 0.3 and the label +%s", lang, i18n.Decimal(lang, "0.3"))
		}
	}
	// a correction typed with a decimal comma is read
	h.mustAct(c, live, "type", "adjust", "seat", "4", "points", "-0,3")
	var total int
	for _, sr := range h.replay(live).Result().Seats {
		if sr.Seat == 4 {
			for _, it := range sr.Score {
				if it.Item == mafia.ItemAdjust {
					total += it.Points
				}
			}
		}
	}
	if total != -30 {
		t.Errorf("seat 4's corrections after -0,3: %d hundredths, want -30", total)
	}
	// the CSV export keeps the point
	rows, err := csv.NewReader(strings.NewReader(h.langGet(c, "uk", "/rating.csv").Body)).ReadAll()
	if err != nil || len(rows) < 2 || rows[0][5] != "points" {
		t.Fatalf("the rating's CSV: %v %q", err, rows)
	}
	for _, row := range rows[1:] {
		if !regexp.MustCompile(`^-?\d+\.\d\d$`).MatchString(row[5]) {
			t.Errorf("the rating's CSV read in Ukrainian gives %s the points %q", row[1], row[5])
		}
	}
	// the new-game form shows the best move's points in the language, and reads them back
	form := h.langGet(c, "uk", "/games/new?rules="+club.ClubRules).Body
	field := regexp.MustCompile(`name="opt_bm_points" value="([^"]*)"`).FindStringSubmatch(form)
	if field == nil || field[1] != "0,5; 0,7" {
		t.Fatalf("the new-game form in Ukrainian shows the best move's points as %q, want \"0,5; 0,7\"", field)
	}
	for text, want := range map[string][2]int{"0,4; 0,6": {40, 60}, "0.3, 0.5": {30, 50}} {
		id := h.newGame(c, club.ClubRules, tenRoles, url.Values{"opt_bm_points": {text}})
		if got := h.replay(id).Options().BMPoints; got != want {
			t.Errorf("the best move's points %q start a game with %v, want %v", text, got, want)
		}
	}
}
