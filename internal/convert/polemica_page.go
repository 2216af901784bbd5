package convert

import (
	"encoding/json"
	"sort"
	"strings"

	"mafiaclub/mafia"
)

// Polemica serves a game in two forms. The API's match JSON is the game itself (players, votes, shots, checks,
// result at the top). The match page's JSON wraps that game in a "data" object and sets beside it the page's own
// facts, derived by the platform from the game: per player (in the page's "players" list, or in the game's own
// players) "quit_index" (the order in which he left), "w_l" (whether he won), "points" (the platform's score)
// and "firstKilled" (he was the first night's victim). The importer reads the game from either form and, in the
// page's, replays it and compares the replay with the facts: an import that disagrees is refused, naming the
// first difference.

// polemicaFacts are the page's facts, by seat.
type polemicaFacts struct {
	quit       map[int]int    // seat -> quit_index, for the seats that left
	quitKnown  map[int]bool   // seats with a quit_index field (null: stayed)
	quitWhere  map[int]string // seat -> the field
	won        map[int]bool
	wonWhere   map[int]string
	first      int // the first night's victim, 0 none
	firstKnown bool
	firstWhere string
	points     bool // the page has the platform's points
}

// polemicaUnwrap returns the game object and, in the page's form, the page (the object around "data").
func polemicaUnwrap(top map[string]json.RawMessage) (game, page map[string]json.RawMessage, err error) {
	if !present(top, "data") {
		return top, nil, nil
	}
	data, err := objOf(top["data"], "data")
	if err != nil {
		return nil, nil, err
	}
	return data, top, nil
}

// polemicaPlayerSeat finds the seat of a page's player entry: its position (seat, number), else the game's player
// with the same id, else its place in the list.
func polemicaPlayerSeat(p map[string]json.RawMessage, i, n int, ids map[string]int, where string) (int, error) {
	for _, k := range []string{"position", "seat", "number"} {
		if present(p, k) {
			return seatOf(p[k], n, where+"."+k)
		}
	}
	for _, k := range []string{"player", "id"} {
		if present(p, k) {
			if s, ok := ids[polemicaID(p[k])]; ok {
				return s, nil
			}
		}
	}
	if i >= n {
		return 0, inputErr(where, "the page lists more players than the game's %d", n)
	}
	return i + 1, nil
}

// polemicaID is a player's id as a string: the number, or the "id" of a player object.
func polemicaID(raw json.RawMessage) string {
	if strings.HasPrefix(strings.TrimSpace(string(raw)), "{") {
		if o, err := objOf(raw, ""); err == nil && present(o, "id") {
			raw = o["id"]
		}
	}
	return strings.TrimSpace(string(raw))
}

// readPolemicaFacts reads the page's facts: from the page's players (beside data) and from the game's own
// players, where the page keeps them there.
func readPolemicaFacts(game, page map[string]json.RawMessage) (*polemicaFacts, error) {
	f := &polemicaFacts{quit: map[int]int{}, quitKnown: map[int]bool{}, quitWhere: map[int]string{},
		won: map[int]bool{}, wonWhere: map[int]string{}}
	var gplayers []json.RawMessage
	if present(game, "players") {
		l, err := listOf(game["players"], "data.players")
		if err != nil {
			return nil, err
		}
		gplayers = l
	}
	n := len(gplayers)
	if n == 0 {
		return f, nil // the game's reader names what is missing
	}
	ids := map[string]int{}
	for i, raw := range gplayers {
		p, err := objOf(raw, fieldf("data.players[%d]", i))
		if err != nil {
			return nil, err
		}
		if !present(p, "position") {
			continue // the game's reader names it
		}
		s, err := seatOf(p["position"], n, fieldf("data.players[%d].position", i))
		if err != nil {
			return nil, err
		}
		if present(p, "player") {
			ids[polemicaID(p["player"])] = s
		}
		if err := f.readPlayer(p, s, fieldf("data.players[%d] (seat %d)", i, s)); err != nil {
			return nil, err
		}
	}
	if present(page, "players") {
		l, err := listOf(page["players"], "players")
		if err != nil {
			return nil, err
		}
		for i, raw := range l {
			where := fieldf("players[%d]", i)
			p, err := objOf(raw, where)
			if err != nil {
				return nil, err
			}
			s, err := polemicaPlayerSeat(p, i, n, ids, where)
			if err != nil {
				return nil, err
			}
			if err := f.readPlayer(p, s, fieldf("players[%d] (seat %d)", i, s)); err != nil {
				return nil, err
			}
		}
	}
	for _, o := range []struct {
		m     map[string]json.RawMessage
		where string
	}{{page, "firstKilled"}, {game, "data.firstKilled"}} {
		if !present(o.m, "firstKilled") || f.firstKnown {
			continue
		}
		raw := o.m["firstKilled"]
		if b, ok := boolOf(raw); ok && !b {
			f.firstKnown, f.firstWhere = true, o.where
			continue
		}
		s, err := intOf(raw, o.where)
		if err != nil {
			return nil, err
		}
		if s != 0 {
			if s, err = seatOf(raw, n, o.where); err != nil {
				return nil, err
			}
		}
		f.first, f.firstKnown, f.firstWhere = s, true, o.where
	}
	return f, nil
}

func (f *polemicaFacts) readPlayer(p map[string]json.RawMessage, s int, where string) error {
	if raw, ok := p["quit_index"]; ok {
		w := where + ".quit_index"
		if !isNull(raw) {
			q, err := intOf(raw, w)
			if err != nil {
				return err
			}
			if q >= 0 {
				f.quit[s] = q
			}
		}
		f.quitKnown[s], f.quitWhere[s] = true, w
	}
	if present(p, "w_l") {
		w := where + ".w_l"
		won, err := polemicaWon(p["w_l"], w)
		if err != nil {
			return err
		}
		f.won[s], f.wonWhere[s] = won, w
	}
	if present(p, "points") {
		f.points = true
	}
	if raw, ok := p["firstKilled"]; ok {
		w := where + ".firstKilled"
		yes, ok := boolOf(raw)
		if !ok && !isNull(raw) {
			v, err := intOf(raw, w)
			if err != nil || v < 0 || v > 1 {
				return inputErr(w, "must be true or false (or 1 or 0), not %s", short(raw))
			}
			yes = v == 1
		}
		if !f.firstKnown || f.first == 0 {
			f.firstKnown = true
			if yes {
				f.first, f.firstWhere = s, w
			} else if f.firstWhere == "" {
				f.firstWhere = w
			}
		} else if yes && f.first != s {
			return inputErr(w, "seats %d and %d are both the first night's victim", f.first, s)
		}
	}
	return nil
}

// polemicaWon reads w_l: 1 or 0, true or false, "w" or "l" (win, loss).
func polemicaWon(raw json.RawMessage, where string) (bool, error) {
	if b, ok := boolOf(raw); ok {
		return b, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "w", "win", "won", "1":
			return true, nil
		case "l", "loss", "lose", "lost", "0":
			return false, nil
		}
		return false, inputErr(where, "%q is neither a win nor a loss (1 or 0, \"w\" or \"l\")", s)
	}
	v, err := intOf(raw, where)
	if err != nil || v < 0 || v > 1 {
		return false, inputErr(where, "must be 1 (won) or 0 (lost), not %s", short(raw))
	}
	return v == 1, nil
}

// check compares the replay with the page's facts: who won, the first night's victim and the order of
// departures. The first difference is the error.
func (f *polemicaFacts) check(g *mafia.Game, id string) error {
	rules := RuleSet(id)
	n := g.Players()
	if g.Finished() {
		res := g.Result() // who won is the engine's word (a seat's Won), not worked out again here
		for s := 1; s <= n; s++ {
			want, ok := f.won[s]
			if !ok {
				continue
			}
			if got := res.Seats[s-1].Won; got != want {
				return gameErr(f.wonWhere[s], "the platform's page says seat %d %s; under %s he %s (%s)",
					s, wonText(want), rules, wonText(got), winnerText(g.Winner()))
			}
		}
	}
	if f.firstKnown {
		got := 0
		for s := 1; s <= n; s++ {
			if o := g.Out(s); o.How == mafia.OutKilled && o.Phase == mafia.PhaseNight && o.Number == 2 {
				got = s
			}
		}
		phase, num := g.Phase()
		reached := g.Finished() || num > 2 || (num == 2 && phase == mafia.PhaseDay) // night 2 is over
		if got != f.first && (reached || got != 0) {
			return gameErr(f.firstWhere, "the platform's page says the first night's victim is %s; under %s it is %s",
				seatOrNobody(f.first), rules, seatOrNobody(got))
		}
	}
	if len(f.quitKnown) == 0 {
		return nil
	}
	// The platform's departures in groups of equal quit_index (players who left together), in order.
	byIndex := map[int][]int{}
	for s, q := range f.quit {
		byIndex[q] = append(byIndex[q], s)
	}
	idx := sortedKeys(byIndex)
	var replay []int // the replay's departures, in order
	for s := 1; s <= n; s++ {
		if g.Out(s).How != mafia.NotOut {
			replay = append(replay, s)
		}
	}
	sort.Slice(replay, func(i, j int) bool { return g.Out(replay[i]).Order < g.Out(replay[j]).Order })
	pos := 0
	for _, q := range idx {
		group := byIndex[q]
		sort.Ints(group)
		for k, s := range group {
			nth := pos + k + 1
			if nth > len(replay) {
				return gameErr(f.quitWhere[s], "the platform's page has seat %d leave %s (quit_index %d); under %s %s",
					s, Ordinal(nth), q, rules, stayedText(g, s))
			}
		}
		got := replay[pos : pos+len(group)]
		for k, s := range group {
			if !containsInt(got, s) {
				nth := pos + k + 1
				other := got[k]
				for _, o := range got {
					if !containsInt(group, o) {
						other = o
						break
					}
				}
				return gameErr(f.quitWhere[s], "the platform's page has seat %d leave %s (quit_index %d); under %s seat %d leaves %s (%s), and seat %d %s",
					s, Ordinal(nth), q, rules, other, Ordinal(nth), leftText(g.Out(other)), s, stayedText(g, s))
			}
		}
		pos += len(group)
	}
	for _, s := range replay[pos:] {
		if f.quitKnown[s] {
			return gameErr(f.quitWhere[s], "the platform's page says seat %d stayed (no quit_index); under %s %s, the %s to leave",
				s, rules, outOf(g.Out(s)), Ordinal(g.Out(s).Order))
		}
	}
	return nil
}

// stayedText says in words whether a seat stays or when he leaves.
func stayedText(g *mafia.Game, s int) Phrase {
	o := g.Out(s)
	if o.How == mafia.NotOut {
		return phrase("stays at the table")
	}
	return phrase("leaves %s (%s)", Ordinal(o.Order), leftText(o))
}

// leftText says how and when a seat that left did: "by vote on day 2".
func leftText(o mafia.Out) Phrase { return outText(o.How, o.Phase, int(o.Number)) }

func wonText(w bool) Phrase {
	if w {
		return phrase("won")
	}
	return phrase("lost")
}

func seatOrNobody(s int) Phrase {
	if s == 0 {
		return phrase("nobody")
	}
	return phrase("seat %d", s)
}

func containsInt(l []int, x int) bool {
	for _, v := range l {
		if v == x {
			return true
		}
	}
	return false
}
