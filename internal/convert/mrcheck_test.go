package convert

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mafiaclub/mafia/record"
)

// mrCheckGame is the part of a mafiaratings game JSON that their own check (Game::check in their
// include/game.php) reads.
type mrCheckGame struct {
	Rules   string `json:"rules"`
	Players []struct {
		Role  string `json:"role"`
		Death *struct {
			Round int            `json:"round"`
			Type  string         `json:"type"`
			Time  map[string]any `json:"time"`
		} `json:"death"`
		Nominating []*int            `json:"nominating"`
		Voting     []json.RawMessage `json:"voting"`
		Shooting   []*int            `json:"shooting"`
		Legacy     []int             `json:"legacy"`
		Warnings   []map[string]any  `json:"warnings"`
	} `json:"players"`
}

// theirIssues says what of an export mafiaratings' own check would change, kind by kind
// (testdata/mafiaratings-check/README.md), by the fields it reads: each rule is theirs, restated for the shapes
// our exports take. Their check itself is the by-hand oracle (tools/mwt-oracle/oracle.php ... check).
func theirIssues(t *testing.T, out []byte) []string {
	t.Helper()
	var g mrCheckGame
	if err := json.Unmarshal(out, &g); err != nil {
		t.Fatal(err)
	}
	var issues []string
	add := func(format string, args ...any) { issues = append(issues, fmt.Sprintf(format, args...)) }
	black := func(i int) bool { return g.Players[i].Role == "maf" || g.Players[i].Role == "don" }
	discipline := func(i int) bool {
		d := g.Players[i].Death
		return d != nil && (d.Type == "warnings" || d.Type == "kickOut" || d.Type == "teamKickOut" || d.Type == "giveUp")
	}
	num := func(m map[string]any, k string) int { v, _ := m[k].(float64); return int(v) }
	// a seat's departure as their check orders it (get_player_death_time), with no departure the game's end
	deathAt := func(i int) (round int, time string, speaker int) {
		p := g.Players[i]
		switch {
		case p.Death == nil:
			return 1 << 20, "end", 0
		case p.Death.Time != nil:
			return num(p.Death.Time, "round"), fmt.Sprint(p.Death.Time["time"]), num(p.Death.Time, "speaker")
		case p.Death.Type == "night":
			return p.Death.Round, "shooting", 0
		case p.Death.Type == "warnings" && len(p.Warnings) > 3:
			return num(p.Warnings[3], "round"), fmt.Sprint(p.Warnings[3]["time"]), num(p.Warnings[3], "speaker")
		}
		return p.Death.Round, "voting", 0
	}
	votesOf := func(r int) (some bool, last map[int]int, killAll bool) {
		last = map[int]int{}
		for _, p := range g.Players {
			if r >= len(p.Voting) || string(p.Voting[r]) == "null" {
				continue
			}
			some = true
			var list []any
			if err := json.Unmarshal(p.Voting[r], &list); err != nil {
				var v float64
				json.Unmarshal(p.Voting[r], &v)
				list = []any{v}
			}
			if _, ok := list[len(list)-1].(bool); ok {
				killAll = true
				continue
			}
			if v, ok := list[len(list)-1].(float64); ok {
				last[int(v)]++
			}
		}
		return
	}
	// a departure by discipline that day, or the day before after its vote unless he led it (is_voting_canceled)
	cancelled := func(r int) bool {
		for i := range g.Players {
			if !discipline(i) {
				continue
			}
			if g.Players[i].Death.Round == r {
				return true
			}
			if g.Players[i].Death.Round == r-1 {
				dr, tm, _ := deathAt(i)
				_, last, _ := votesOf(r - 1)
				most := 0
				for _, c := range last {
					most = max(most, c)
				}
				led := most > 0 && last[i+1] == most
				if (dr > r-1 || gametimeOrder(tm) > gametimeOrder("voting kill all")) && !led {
					return true
				}
			}
		}
		return false
	}
	for i, p := range g.Players {
		seat := i + 1
		// legacy: only the first shooting night's victim (check_game_result)
		if len(p.Legacy) > 0 && (p.Death == nil || p.Death.Type != "night" || p.Death.Round > 1) {
			add("seat %d: a best move, but not the first shooting night's victim", seat)
		}
		// warnings: four at most, each a moment they accept (check_warnings, check_gametime)
		if len(p.Warnings) > 4 {
			add("seat %d: %d fouls", seat, len(p.Warnings))
		}
		for j, w := range p.Warnings {
			if msg := checkGametime(w); msg != "" {
				add("seat %d: foul %d at %v: %s", seat, j+1, w, msg)
			}
		}
		if p.Death != nil && p.Death.Time != nil {
			if msg := checkGametime(p.Death.Time); msg != "" {
				add("seat %d: departure at %v: %s", seat, p.Death.Time, msg)
			}
		}
	}
	for r := 0; r < 30; r++ {
		some, last, killAll := votesOf(r)
		noms := 0
		for _, p := range g.Players {
			if r < len(p.Nominating) && p.Nominating[r] != nil {
				noms++
			}
		}
		if !some {
			// nominations that want votes (check_voting: noms > 1 on day 0, any later) on a day they do not
			// take for cancelled
			if (noms > 1 || (r > 0 && noms > 0)) && !cancelled(r) {
				add("round %d: %d nominations and no votes", r, noms)
			}
			continue
		}
		if cancelled(r) {
			continue
		}
		// every player at the table when the voting starts votes (check_voting)
		for i, p := range g.Players {
			alive := p.Death == nil || p.Death.Round > r || (p.Death.Round == r && p.Death.Type == "day")
			if alive && (r >= len(p.Voting) || string(p.Voting[r]) == "null") {
				add("round %d: seat %d did not vote", r, i+1)
			}
		}
		// a single leader of the last round leaves by that vote, unless their first-day rule keeps him
		leader, most, ties := 0, 0, 0
		for s, c := range last {
			switch {
			case c > most:
				leader, most, ties = s, c, 1
			case c == most:
				ties++
			}
		}
		if !killAll && ties == 1 && !(r == 0 && len(g.Rules) > 4 && g.Rules[4] != '0') {
			if d := g.Players[leader-1].Death; d == nil || d.Round != r || d.Type != "day" {
				add("round %d: seat %d led the vote but did not leave by it", r, leader)
			}
		}
	}
	// shooting: every black at the table after a night's shots shot its victim (check_deaths)
	for v, p := range g.Players {
		if p.Death == nil || p.Death.Type != "night" || p.Death.Round < 1 {
			continue
		}
		R := p.Death.Round
		for j, q := range g.Players {
			if !black(j) {
				continue
			}
			r, tm, _ := deathAt(j)
			if r < R || (r == R && gametimeOrder(tm) <= gametimeOrder("shooting")) {
				continue
			}
			if R-1 >= len(q.Shooting) || q.Shooting[R-1] == nil || *q.Shooting[R-1] != v+1 {
				add("night %d: seat %d killed, but black seat %d at the table shot elsewhere", R, v+1, j+1)
			}
		}
	}
	// nominations: by and of players at the table then, in their speaking order (check_nominations)
	atStart := func(s, r int) bool {
		dr, tm, _ := deathAt(s - 1)
		return dr > r || (dr == r && gametimeOrder(tm) > gametimeOrder("night kill speaking"))
	}
	opener := func(r int) int {
		first := 0
		for d := 0; d <= r; d++ {
			for k := 1; k <= 10; k++ {
				if s := (first+k-1)%10 + 1; atStart(s, d) {
					first = s
					break
				}
			}
		}
		return first
	}
	for i, p := range g.Players {
		for r, n := range p.Nominating {
			if n == nil {
				continue
			}
			first := opener(r)
			pos := func(s int) int { return (s - first + 10) % 10 }
			for _, who := range []int{i, *n - 1} {
				if dr, tm, sp := deathAt(who); dr == r && tm == "speaking" && pos(sp) < pos(i+1) {
					add("round %d: seat %d nominated seat %d after seat %d had left (their speaking order)", r, i+1, *n, who+1)
				}
			}
		}
	}
	return issues
}

// Every generated game's export is one their check takes as it is, and ours -> mafiaratings -> ours replays to
// the same game: every rule set and option that changes the day, disqualifications and team losses in every
// phase, 4th fouls and fouls after them, ties, lifts, last words, declared draws.
func TestExportGeneratedPassesTheirCheck(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	n, exported := 1500, 0
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		rec := genRecord(rng)
		if rec == nil {
			continue
		}
		out, err := ExportRecord(rec, MRMeta{Draft: true})
		if err != nil {
			continue // not expressible there: the export says why (TestRoundTripGolden)
		}
		exported++
		if issues := theirIssues(t, out); len(issues) > 0 {
			t.Errorf("game %d (%s %s): their check would change the export: %s\n%s", i, rec.Rules.ID, rec.OptionJSON, strings.Join(issues, "; "), record.Encode(rec))
			continue
		}
		g, _ := rec.Replay()
		im, err := ImportMafiaratings(out)
		if err != nil {
			t.Errorf("game %d (%s %s): the export does not import: %v\n%s", i, rec.Rules.ID, rec.OptionJSON, err, record.Encode(rec))
			continue
		}
		g2, err := im.Record.Replay()
		if err != nil || string(record.ResultJSON(g, nil)) != string(record.ResultJSON(g2, nil)) {
			t.Errorf("game %d (%s %s): ours -> mafiaratings -> ours changes the game (%v)\n%s", i, rec.Rules.ID, rec.OptionJSON, err, record.Encode(rec))
		}
	}
	if exported < n*9/10 {
		t.Errorf("%d of %d generated games exported", exported, n)
	}
}

// The kept games (testdata/mafiaratings-check/KIND.rec.json), one of each kind their check changed in our
// export before, with what it made of that export (KIND.fixed-by-their-check.json): today's export of each is
// one it takes as it is, and imports back to the same game.
func TestExportKeptGamesPassTheirCheck(t *testing.T) {
	files, _ := filepath.Glob("testdata/mafiaratings-check/*.rec.json")
	if len(files) < 9 {
		t.Fatalf("%d kept games, want one of each of the nine kinds", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".rec.json"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rec, err := record.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ExportRecord(rec, oracleMeta())
			if err != nil {
				t.Fatal(err)
			}
			if issues := theirIssues(t, out); len(issues) > 0 {
				t.Errorf("their check would change the export: %s", strings.Join(issues, "; "))
			}
			roundTrip(t, rec)
		})
	}
}
