package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// The conformance games (../shared/conformance, laid beside the checkout by CI) are real games written by other
// platforms. Every one is imported and replayed here, and the replay is checked against what the platform
// recorded: for mafiaratings against its own derived data (derived-players.json), for Polemica against the
// departures its data implies, derived here independently of the importer.
const conformanceDir = "../../../shared/conformance"

func conformance(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(conformanceDir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the conformance games are missing (%v); CI lays shared/ beside the checkout", err)
		}
		t.Skipf("no conformance games at %s", conformanceDir)
	}
	return conformanceDir
}

// documentedDifferences are the conformance games that no rule set of ours can replay as recorded, each with the
// test that asserts the difference of rules. Every game imports now: the candidate's hand against himself
// (4871, 4875, 4876, 272910) is the option candidate_self_vote, Polemica's liftOnly zero voting (334187) the
// option day1_lift_only; TestImportedSelfVote and TestPolemicaZeroVotingLiftOnly show them.
var documentedDifferences = map[string]string{}

func readConformance(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(conformance(t), name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// replayImported decodes the imported record's JSON afresh and replays it: every event must be accepted.
func replayImported(t *testing.T, im *Imported) *mafia.Game {
	t.Helper()
	rec, err := record.Decode(im.JSON())
	if err != nil {
		t.Fatalf("the imported record does not decode: %v", err)
	}
	if again := record.Encode(rec); string(again) != string(im.JSON()) {
		t.Errorf("the imported record is not in canonical form")
	}
	g, err := rec.Replay()
	if err != nil {
		t.Fatalf("the imported record does not replay: %v", err)
	}
	if !g.Finished() {
		t.Fatalf("the imported game is not finished")
	}
	return g
}

type derivedPlayer struct {
	Number    string `json:"number"`
	Role      string `json:"role"`
	KillRound string `json:"kill_round"`
	KillType  string `json:"kill_type"`
	Warns     string `json:"warns"`
	Won       string `json:"won"`
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	if s == "" {
		return -1
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("derived-players.json: %q is not a number", s)
	}
	return v
}

func TestConformanceMafiaratings(t *testing.T) {
	var derived map[string][]derivedPlayer
	if err := json.Unmarshal(readConformance(t, "mafiaratings/derived-players.json"), &derived); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(derived))
	for id := range derived {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	if len(ids) != 11 {
		t.Errorf("%d games in derived-players.json, want 11", len(ids))
	}
	for _, id := range ids {
		name := "mafiaratings/" + id + ".json"
		t.Run(id, func(t *testing.T) {
			data := readConformance(t, name)
			im, err := ImportMafiaratings(data)
			if test, ok := documentedDifferences[name]; ok {
				if err == nil {
					t.Fatalf("imports now, but is listed as a documented difference (%s): remove it from the list", test)
				}
				t.Skipf("a documented difference of rules, asserted by %s: %v", test, err)
			}
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			g := replayImported(t, im)
			checkDerived(t, g, data, derived[id])
		})
	}
}

// readDerived reads what mafiaratings' own code derived from each conformance game, by game id.
func readDerived(t *testing.T) map[string][]derivedPlayer {
	t.Helper()
	var derived map[string][]derivedPlayer
	if err := json.Unmarshal(readConformance(t, "mafiaratings/derived-players.json"), &derived); err != nil {
		t.Fatal(err)
	}
	return derived
}

// checkDerived compares a replayed game with the platform's game data (its winner) and what the platform derived
// from it: each seat's role, result, fouls and departure (round and type).
func checkDerived(t *testing.T, g *mafia.Game, data []byte, derived []derivedPlayer) {
	t.Helper()
	var top struct {
		Winner string `json:"winner"`
	}
	json.Unmarshal(data, &top)
	want := map[string]mafia.Winner{"civ": mafia.RedWins, "maf": mafia.BlackWins, "tie": mafia.Draw}[top.Winner]
	if g.Winner() != want {
		t.Errorf("winner %v, the platform says %q", g.Winner(), top.Winner)
	}
	roles := []mafia.Role{mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don}
	for _, p := range derived {
		s := atoi(t, p.Number)
		where := fmt.Sprintf("seat %d", s)
		if r := atoi(t, p.Role); g.Role(s) != roles[r] {
			t.Errorf("%s: role %v, derived %v", where, g.Role(s), roles[r])
		}
		won := (g.Winner() == mafia.RedWins) == (g.Role(s).Team() == mafia.Red)
		if (p.Won == "1") != won {
			t.Errorf("%s: won %v, derived %s", where, won, p.Won)
		}
		if f := atoi(t, p.Warns); g.Fouls(s) != f {
			t.Errorf("%s: %d fouls, derived %d", where, g.Fouls(s), f)
		}
		out := g.Out(s)
		round, typ := atoi(t, p.KillRound), atoi(t, p.KillType)
		if typ <= 0 || round < 0 {
			if out.How != mafia.NotOut {
				t.Errorf("%s: left %v on %v %d; derived: survived", where, out.How, out.Phase, out.Number)
			}
			continue
		}
		wantHow := map[int]mafia.OutHow{1: mafia.OutVoted, 2: mafia.OutKilled, 3: mafia.OutFouls, 4: mafia.OutDisqualified,
			5: mafia.OutDisqualified, 6: mafia.OutTeamLoss}[typ]
		if out.How != wantHow || int(out.Number) != round+1 {
			t.Errorf("%s: left %v on %v %d; derived: kill type %d in round %d", where, out.How, out.Phase, out.Number, typ, round)
		}
		if (typ == 1 && out.Phase != mafia.PhaseDay) || (typ == 2 && out.Phase != mafia.PhaseNight) {
			t.Errorf("%s: left on %v; derived kill type %d", where, out.Phase, typ)
		}
	}
}

// polemicaMatch is the part of a Polemica match the independent check reads.
type polemicaMatch struct {
	Result     int    `json:"result"`
	ZeroVoting string `json:"zeroVoting"`
	Players    []struct {
		Position int               `json:"position"`
		Role     int               `json:"role"`
		Fouls    []json.RawMessage `json:"fouls"`
		Disqual  *struct {
			Day int `json:"day"`
		} `json:"disqual"`
	} `json:"players"`
	Votes []struct {
		Day       int  `json:"day"`
		Num       *int `json:"num"`
		Voter     int  `json:"voter"`
		Candidate int  `json:"candidate"`
	} `json:"votes"`
	Shots []struct {
		Night   int `json:"night"`
		Shooter int `json:"shooter"`
		Victim  int `json:"victim"`
	} `json:"shots"`
}

// polemicaDepartures derives who left, when and how from a Polemica match the way the platform's own library
// does (Vyasma-Mafia polemica-library GameUtils): a night's shots all at one player by as many shooters as there
// are blacks at the table kill him; the last voting round's single leader leaves; a tie leaves when the lift's yes
// votes outnumber the rest; a disqualified player leaves on his day. Departures are in engine numbers.
func polemicaDepartures(m polemicaMatch) map[int]mafia.Out {
	out := map[int]mafia.Out{}
	alive := map[int]bool{}
	black := map[int]bool{}
	for _, p := range m.Players {
		alive[p.Position] = true
		black[p.Position] = p.Role == 0 || p.Role == 1
	}
	lastDay := 0
	for _, v := range m.Votes {
		lastDay = max(lastDay, v.Day)
	}
	for _, s := range m.Shots {
		lastDay = max(lastDay, s.Night)
	}
	leave := func(s int, how mafia.OutHow, phase mafia.Phase, num int) {
		if alive[s] {
			alive[s] = false
			out[s] = mafia.Out{How: how, Phase: phase, Number: uint8(num)}
		}
	}
	for day := 1; day <= lastDay; day++ {
		for _, p := range m.Players {
			if p.Disqual != nil && p.Disqual.Day == day {
				how := mafia.OutDisqualified
				if len(p.Fouls) >= 4 {
					how = mafia.OutFouls
				}
				leave(p.Position, how, mafia.PhaseDay, day)
			}
		}
		maxNum := 0
		for _, v := range m.Votes {
			if v.Day == day && v.Num != nil {
				maxNum = max(maxNum, *v.Num)
			}
		}
		if maxNum > 0 {
			count := map[int]int{}
			real, yes := 0, 0
			for _, v := range m.Votes {
				if v.Day != day {
					continue
				}
				if v.Num == nil {
					yes++
				} else if *v.Num == maxNum {
					count[v.Candidate]++
					real++
				}
			}
			best := 0
			for _, c := range count {
				best = max(best, c)
			}
			var leaders []int
			for c, n := range count {
				if n == best {
					leaders = append(leaders, c)
				}
			}
			switch {
			case len(leaders) == 1 && !(day == 1 && m.ZeroVoting != "" && m.ZeroVoting != "none"):
				leave(leaders[0], mafia.OutVoted, mafia.PhaseDay, day)
			case len(leaders) > 1 && yes > real-yes:
				for _, c := range leaders {
					leave(c, mafia.OutVoted, mafia.PhaseDay, day)
				}
			}
		}
		victims, shots := map[int]bool{}, 0
		for _, s := range m.Shots {
			if s.Night == day {
				victims[s.Victim] = true
				shots++
			}
		}
		blacks := 0
		for s := range alive {
			if alive[s] && black[s] {
				blacks++
			}
		}
		if len(victims) == 1 && shots >= blacks {
			for v := range victims {
				leave(v, mafia.OutKilled, mafia.PhaseNight, day+1)
			}
		}
	}
	return out
}

func TestConformancePolemica(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(conformance(t), "polemica", "*.json"))
	if len(files) != 4 {
		t.Errorf("%d Polemica games, want 4", len(files))
	}
	for _, f := range files {
		name := "polemica/" + filepath.Base(f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			data := readConformance(t, name)
			im, err := ImportPolemica(data)
			if test, ok := documentedDifferences[name]; ok {
				if err == nil {
					t.Fatalf("imports now, but is listed as a documented difference (%s): remove it from the list", test)
				}
				t.Skipf("a documented difference of rules, asserted by %s: %v", test, err)
			}
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			g := replayImported(t, im)
			var m polemicaMatch
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			want := []mafia.Winner{mafia.RedWins, mafia.BlackWins}[m.Result]
			if g.Winner() != want {
				t.Errorf("winner %v, Polemica's result %d", g.Winner(), m.Result)
			}
			roles := []mafia.Role{mafia.Don, mafia.Mafia, mafia.Citizen, mafia.Sheriff}
			left := polemicaDepartures(m)
			for _, p := range m.Players {
				s := p.Position
				if g.Role(s) != roles[p.Role] {
					t.Errorf("seat %d: role %v, Polemica %d", s, g.Role(s), p.Role)
				}
				if g.Fouls(s) != len(p.Fouls) {
					t.Errorf("seat %d: %d fouls, Polemica %d", s, g.Fouls(s), len(p.Fouls))
				}
				got, exp := g.Out(s), left[s]
				if got.How != exp.How || (exp.How != mafia.NotOut && (got.Phase != exp.Phase || got.Number != exp.Number)) {
					t.Errorf("seat %d: left %v on %v %d; Polemica's data: %v on %v %d", s, got.How, got.Phase, got.Number,
						exp.How, exp.Phase, exp.Number)
				}
			}
		})
	}
}

// A player's hand against himself while he is a candidate (not the last one, whose default vote is his own)
// counts on mafiaratings and Polemica; the club forbids it (000 L105, C-03). The importer plays these games under
// the club's rule set with candidate_self_vote on, says so in the note, and the hand is in the record: with the
// option off the engine rejects that very vote.
func TestImportedSelfVote(t *testing.T) {
	cases := []struct {
		file      string
		day, seat int // our day and the seat voting against himself
	}{
		{"mafiaratings/4871.json", 2, 4},
		{"mafiaratings/4875.json", 2, 5},
		{"mafiaratings/4876.json", 3, 10},
		{"polemica/272910.json", 1, 1},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data := readConformance(t, c.file)
			var im *Imported
			var err error
			if strings.HasPrefix(c.file, "polemica/") {
				im, err = ImportPolemica(data)
			} else {
				im, err = ImportMafiaratings(data)
			}
			if err != nil {
				t.Fatal(err)
			}
			rec := im.Record
			if rec.Rules.ID != mafia.DefaultRuleSetID || !rec.Options.CandidateSelfVote || rec.Options.ClubExtras {
				t.Fatalf("rule set %s, candidate_self_vote %v, club_extras %v", rec.Rules.ID, rec.Options.CandidateSelfVote, rec.Options.ClubExtras)
			}
			if note := string(rec.Extra["note"]); !strings.Contains(note, "differ from fiim-2025-club's defaults: candidate_self_vote true, club_extras false") {
				t.Errorf("the note does not name the options: %s", note)
			}
			// the hand is recorded: find the day's vote on the seat with his own hand
			day, idx := 0, -1
			for i, e := range rec.Events {
				if e.Type == mafia.EvDay {
					day++
				}
				if day == c.day && e.Type == mafia.EvVote && e.Target == uint8(c.seat) && e.Voters.Has(c.seat) {
					idx = i
					break
				}
			}
			if idx < 0 {
				t.Fatalf("no vote on seat %d with his own hand on day %d", c.seat, c.day)
			}
			off := rec.Options
			if err := off.Set("candidate_self_vote", mafia.OptionValue{Bool: false}); err != nil {
				t.Fatal(err)
			}
			_, err = mafia.Replay(rec.Rules, off, rec.Roles(), rec.EngineEvents())
			var re *mafia.ReplayError
			if !errors.As(err, &re) || re.Index != idx+1 || !errors.Is(err, mafia.ErrSelfVote) {
				t.Errorf("with candidate_self_vote off: got %v, want event %d rejected as a self-vote", err, idx+1)
			}
		})
	}
}

// Polemica's "zero voting" (zeroVoting "liftOnly") keeps the single leader of the first day's vote at the table
// unless a lift then removes him; Polemica lists only the yes votes of a lift, and game 334187 lists none on day 1.
// The importer sets day1_lift_only and records the lift with nobody voting yes.
func TestPolemicaZeroVotingLiftOnly(t *testing.T) {
	data := readConformance(t, "polemica/334187.json")
	var m polemicaMatch
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.ZeroVoting != "liftOnly" {
		t.Fatalf("zeroVoting %q", m.ZeroVoting)
	}
	im, err := ImportPolemica(data)
	if err != nil {
		t.Fatal(err)
	}
	if !im.Record.Options.Day1LiftOnly {
		t.Fatalf("day1_lift_only is off")
	}
	g := replayImported(t, im)
	d1 := g.Result().Days[0]
	if len(d1.Rounds) != 2 || !d1.Rounds[1].Lift || d1.Rounds[1].Yes != 0 || len(d1.Out) != 0 {
		t.Errorf("day 1: rounds %+v, out %v; want a vote, then a lift with no yes, nobody out", d1.Rounds, d1.Out)
	}
	if o := g.Out(1); o.Phase == mafia.PhaseDay && o.Number == 1 {
		t.Errorf("seat 1, day 1's leader, left on day 1")
	}
	if !strings.Contains(string(im.Record.Extra["note"]), "day1_lift_only true") {
		t.Errorf("the note does not name day1_lift_only: %s", im.Record.Extra["note"])
	}
}

// Polemica records the don checking a player who already left (game 273009: the sheriff, voted out on day 2,
// is checked on Polemica's night 2). Our rule sets check only players at the table (matrix 2.6.4); the check
// tells nothing and changes nothing, so it is left out with a note, and the rest of the game matches.
func TestPolemicaCheckOfDepartedPlayerIsLeftOut(t *testing.T) {
	im, err := ImportPolemica(readConformance(t, "polemica/273009.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(im.Notes, " "), "checking seat 4, who had already left") {
		t.Errorf("the note does not explain the left-out check: %v", im.Notes)
	}
	for _, e := range im.Record.Events {
		if e.Type == mafia.EvCheck && e.Target == 4 && e.Seat == 9 {
			t.Errorf("the don's check of the departed sheriff is in the record")
		}
	}
}

// The kill-all (lift) vote of a repeated tie is not recorded on mafiaratings ("k" is not among the features);
// the departures fix its outcome, so the importer records it and says so.
func TestMafiaratingsUnrecordedLift(t *testing.T) {
	for file, passed := range map[string]bool{"4870.json": true, "4842.json": false} {
		im, err := ImportMafiaratings(readConformance(t, "mafiaratings/"+file))
		if err != nil {
			t.Fatal(err)
		}
		var lift *record.Event
		for i, e := range im.Record.Events {
			if e.Type == mafia.EvLift {
				lift = &im.Record.Events[i]
			}
		}
		if lift == nil {
			t.Fatalf("%s: no lift vote", file)
		}
		if got := lift.Voters.Len() > 0; got != passed {
			t.Errorf("%s: lift passed %v, want %v", file, got, passed)
		}
		if !strings.Contains(string(im.Record.Extra["note"]), "did not record the vote on lifting") {
			t.Errorf("%s: the note does not say the lift vote was synthesized", file)
		}
	}
}

// Game 4877: the don is shot by his two partners on night 2 (our night 3); the platform does not record the
// victim's own shot. Our kill needs every black's shot at him (R43), so the importer fills it in and says so.
func TestMafiaratingsVictimsOwnShot(t *testing.T) {
	im, err := ImportMafiaratings(readConformance(t, "mafiaratings/4877.json"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range im.Record.Events {
		if e.Type == mafia.EvShot && e.Seat == 3 && e.Target == 3 {
			found = true
		}
	}
	if !found || !strings.Contains(string(im.Record.Extra["note"]), "his shot at himself is filled in") {
		t.Errorf("the victim's own shot is not filled in with a note")
	}
}

// The 2010 game plays older rules (rules code 0000100101000): no best move (legacy 8.17.2), no lift when two of
// four tie twice (splitOnFour), and a first-day rule under which the day-1 winner stays (7.16.2). Day 1 was not
// voted, so the first-day rule makes no difference; the other two map to fiim-2025-club's options.
func TestMafiaratingsOlderRules(t *testing.T) {
	im, err := ImportMafiaratings(readConformance(t, "mafiaratings/1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !im.Record.Options.TwoOfFourNoLift {
		t.Errorf("splitOnFour 1 should set xcraft_7_6_two_of_four_no_lift")
	}
	note := string(im.Record.Extra["note"])
	for _, want := range []string{"first-day rule 1", "record no best move"} {
		if !strings.Contains(note, want) {
			t.Errorf("note does not say %q: %s", want, note)
		}
	}
}
