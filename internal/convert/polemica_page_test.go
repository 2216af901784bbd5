package convert

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// The test files of this file are the project's own, made from testdata/polemica-minimal.json (the project's own
// game in Polemica's match JSON): polemica-page.json (the match page's form: the game in "data", the page's facts
// beside it), polemica-zero-none.json (zeroVoting "none" in data.config), polemica-respeech.json (zeroVoting
// "respeech" at the top, as older files have it), polemica-stages.json (fouls at stages the importer did not
// place, and a check of a player who had left) and polemica-unfinished.json (no result; the stage where it
// stopped). The real games are wrapped in the page's form here, at run time, from ../shared/conformance.

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func eventsJSON(rec *record.Record) string {
	var b strings.Builder
	for _, e := range rec.Events {
		b.Write(record.EncodeEvent(e))
		b.WriteByte('\n')
	}
	return b.String()
}

// The match page's form imports to the same events as the API's form of the same game, and its facts agree.
func TestPolemicaPageForm(t *testing.T) {
	data := readTestdata(t, "polemica-page.json")
	im, err := ImportPolemica(data)
	if err != nil {
		t.Fatal(err)
	}
	g := replayImported(t, im)
	if g.Winner() != mafia.RedWins {
		t.Errorf("winner %v", g.Winner())
	}
	var page struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(data, &page); err != nil {
		t.Fatal(err)
	}
	api, err := ImportPolemica(page.Data)
	if err != nil {
		t.Fatal(err)
	}
	if eventsJSON(im.Record) != eventsJSON(api.Record) {
		t.Errorf("the page's form gives other events than the API's:\n%s\nvs\n%s", eventsJSON(im.Record), eventsJSON(api.Record))
	}
	if note := string(im.Record.Extra["note"]); !strings.Contains(note, "checked against the page's facts") || !strings.Contains(note, "points are Polemica's scoring") {
		t.Errorf("the note does not say the page's facts were checked: %s", note)
	}
}

// The page may keep its facts in the game's own players: read there too, and checked the same way.
func TestPolemicaPageFactsInDataPlayers(t *testing.T) {
	var page map[string]any
	if err := json.Unmarshal(readTestdata(t, "polemica-page.json"), &page); err != nil {
		t.Fatal(err)
	}
	facts := page["players"].([]any)
	delete(page, "players")
	gp := page["data"].(map[string]any)["players"].([]any)
	for i, f := range facts {
		for k, v := range f.(map[string]any) {
			if k != "username" {
				gp[i].(map[string]any)[k] = v
			}
		}
	}
	if _, err := ImportPolemica(mustJSON(t, page)); err != nil {
		t.Fatal(err)
	}
	gp[3].(map[string]any)["w_l"] = 0
	_, err := ImportPolemica(mustJSON(t, page))
	if err == nil || !strings.Contains(err.Error(), "data.players[3] (seat 4).w_l") {
		t.Errorf("a wrong w_l in data.players: %v", err)
	}
}

// mutatePage changes the page's facts of polemica-page.json (players listed in seat order) and imports it.
func mutatePage(t *testing.T, data []byte, f func(players []map[string]any, page map[string]any)) error {
	t.Helper()
	var page map[string]any
	if err := json.Unmarshal(data, &page); err != nil {
		t.Fatal(err)
	}
	var players []map[string]any
	for _, p := range page["players"].([]any) {
		players = append(players, p.(map[string]any))
	}
	f(players, page)
	_, err := ImportPolemica(mustJSON(t, page))
	return err
}

// A page whose facts disagree with the replay is refused, naming the first difference.
func TestPolemicaPageFactsDisagree(t *testing.T) {
	data := readTestdata(t, "polemica-page.json")
	cases := []struct {
		name  string
		f     func(p []map[string]any, page map[string]any)
		wants []string
	}{
		{"the first two departures swapped", func(p []map[string]any, _ map[string]any) {
			p[1]["quit_index"], p[9]["quit_index"] = 2, 1
		}, []string{"players[9] (seat 10).quit_index", "seat 10 leave 1st", "seat 2 leaves 1st (by vote on day 1)"}},
		{"a player who stayed said to have left", func(p []map[string]any, _ map[string]any) {
			p[4]["quit_index"] = 6
		}, []string{"players[4] (seat 5).quit_index", "seat 5 leave 6th", "stays at the table"}},
		{"a player who left said to have stayed", func(p []map[string]any, _ map[string]any) {
			p[0]["quit_index"] = nil
		}, []string{"players[0] (seat 1).quit_index", "seat 1 stayed", "by vote on day 3"}},
		{"a winner said to have lost", func(p []map[string]any, _ map[string]any) {
			p[3]["w_l"] = 0
		}, []string{"players[3] (seat 4).w_l", "seat 4 lost", "he won"}},
		{"another first night's victim", func(p []map[string]any, _ map[string]any) {
			p[9]["firstKilled"], p[8]["firstKilled"] = false, true
		}, []string{"firstKilled", "the first night's victim is seat 9", "it is seat 10"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := mutatePage(t, data, c.f)
			var ge *GameError
			if !errors.As(err, &ge) {
				t.Fatalf("got %v, want a refusal naming the difference", err)
			}
			for _, w := range c.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q: %v", w, err)
				}
			}
		})
	}
	// malformed facts are input errors naming the page's field
	err := mutatePage(t, data, func(p []map[string]any, _ map[string]any) { p[2]["w_l"] = "maybe" })
	var ie *InputError
	if !errors.As(err, &ie) || ie.Where != "players[2] (seat 3).w_l" {
		t.Errorf("a bad w_l: %v", err)
	}
	// the game's own fields are named inside data
	err = mutatePage(t, data, func(_ []map[string]any, page map[string]any) {
		delete(page["data"].(map[string]any), "players")
	})
	if !errors.As(err, &ie) || ie.Where != "data.players" {
		t.Errorf("no players in data: %v", err)
	}
}

// pageFacts derives the page's facts of a real game independently of the importer (polemicaDepartures, the
// platform library's way): quit_index in the order of departures, w_l and firstKilled.
func pageFacts(t *testing.T, data []byte) (map[string]any, []map[string]any) {
	t.Helper()
	var m polemicaMatch
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	var game map[string]any
	if err := json.Unmarshal(data, &game); err != nil {
		t.Fatal(err)
	}
	left := polemicaDepartures(m)
	key := func(o mafia.Out) int {
		k := int(o.Number) * 2
		if o.Phase == mafia.PhaseDay {
			k++
		}
		return k
	}
	var keys []int
	for _, o := range left {
		if o.How != mafia.NotOut && !containsInt(keys, key(o)) {
			keys = append(keys, key(o))
		}
	}
	sort.Ints(keys)
	players := make([]map[string]any, len(m.Players))
	for _, p := range m.Players {
		f := map[string]any{"quit_index": nil, "w_l": 0, "points": 0.5, "firstKilled": false}
		if o, ok := left[p.Position]; ok && o.How != mafia.NotOut {
			for i, k := range keys {
				if k == key(o) {
					f["quit_index"] = i + 1
				}
			}
			if o.How == mafia.OutKilled && o.Number == 2 {
				f["firstKilled"] = true
			}
		}
		if red := p.Role >= 2; red == (m.Result == 0) {
			f["w_l"] = 1
		}
		players[p.Position-1] = f
	}
	return game, players
}

// Every real Polemica game, wrapped as the match page wraps it (zeroVoting moved into data.config, as newer files
// have it), imports to the same events as its API form, its facts agreeing; the same page with two departures
// swapped is refused, naming the difference.
func TestPolemicaPageFormConformance(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(conformance(t), "polemica", "*.json"))
	for _, f := range files {
		name := "polemica/" + filepath.Base(f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			data := readConformance(t, name)
			api, err := ImportPolemica(data)
			if err != nil {
				t.Fatal(err)
			}
			game, players := pageFacts(t, data)
			if zv, ok := game["zeroVoting"]; ok {
				delete(game, "zeroVoting")
				game["config"] = map[string]any{"zeroVoting": zv}
			}
			page := map[string]any{"id": game["id"], "data": game, "players": players}
			im, err := ImportPolemica(mustJSON(t, page))
			if err != nil {
				t.Fatalf("the page's form: %v", err)
			}
			if eventsJSON(im.Record) != eventsJSON(api.Record) || string(im.Record.OptionJSON["day1_lift_only"]) != string(api.Record.OptionJSON["day1_lift_only"]) {
				t.Errorf("the page's form gives another record than the API's")
			}
			// swap the first two groups of departures
			first, second := -1, -1
			for i, p := range players {
				switch p["quit_index"] {
				case 1:
					first = i
				case 2:
					second = i
				}
			}
			players[first]["quit_index"], players[second]["quit_index"] = 2, 1
			_, err = ImportPolemica(mustJSON(t, page))
			var ge *GameError
			if !errors.As(err, &ge) || !strings.Contains(err.Error(), "quit_index") {
				t.Errorf("two departures swapped: %v, want a refusal naming quit_index", err)
			}
		})
	}
}

// zeroVoting "none" (in data.config): day 1 has nominations, no votes and nobody out; the option day1_no_vote.
func TestPolemicaZeroVotingNone(t *testing.T) {
	im, err := ImportPolemica(readTestdata(t, "polemica-zero-none.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !im.Record.Options.Day1NoVote || !strings.Contains(string(im.Record.Extra["note"]), "day1_no_vote true") {
		t.Errorf("day1_no_vote %v; note %s", im.Record.Options.Day1NoVote, im.Record.Extra["note"])
	}
	g := replayImported(t, im)
	d1 := g.Result().Days[0]
	if len(d1.Nominated) != 2 || d1.Voting != mafia.VotingNotHeld || len(d1.Out) != 0 {
		t.Errorf("day 1: %+v", d1)
	}
	// with day-1 votes recorded, "none" did not stop the vote: day 1 is voted as usual
	m := validPolemica(t)
	m["config"] = map[string]any{"zeroVoting": "none"}
	im, err = ImportPolemica(mustJSON(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if im.Record.Options.Day1NoVote || !strings.Contains(string(im.Record.Extra["note"]), "but day 1 was voted") {
		t.Errorf("none with day-1 votes: day1_no_vote %v, note %s", im.Record.Options.Day1NoVote, im.Record.Extra["note"])
	}
	m["config"] = map[string]any{"zeroVoting": "sometimes"}
	_, err = ImportPolemica(mustJSON(t, m))
	var ie *InputError
	if !errors.As(err, &ie) || ie.Where != "config.zeroVoting" || !strings.Contains(ie.What, `"sometimes"`) {
		t.Errorf("an unknown zero voting: %v", err)
	}
}

// zeroVoting "respeech" (at the top, as older files have it): day 1's leader speaks again, then the lift; a foul
// at his re-speech falls during his tie speech.
func TestPolemicaZeroVotingRespeech(t *testing.T) {
	im, err := ImportPolemica(readTestdata(t, "polemica-respeech.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !im.Record.Options.Day1Respeech {
		t.Fatalf("day1_respeech is off")
	}
	g := replayImported(t, im)
	d1 := g.Result().Days[0]
	if len(d1.Rounds) != 2 || !d1.Rounds[1].Lift || d1.Rounds[1].Yes != 6 || len(d1.Out) != 1 || d1.Out[0] != 2 {
		t.Errorf("day 1: rounds %+v, out %v; want a vote, the lift with 6 yes, seat 2 out", d1.Rounds, d1.Out)
	}
	found := false
	for _, e := range im.Record.Events {
		if e.Type == mafia.EvFoul && e.Seat == 7 {
			found = e.During == (mafia.During{Kind: mafia.DuringTieSpeech, Seat: 2})
		}
	}
	if !found {
		t.Errorf("seat 7's foul is not during seat 2's re-speech")
	}
}

// Every stage type Polemica has is placed; one we do not know is refused, naming it.
func TestPolemicaStages(t *testing.T) {
	for _, typ := range polemicaStages {
		st := map[string]json.RawMessage{"type": json.RawMessage(`"` + typ + `"`), "day": json.RawMessage("2"),
			"player": json.RawMessage("3"), "voting": json.RawMessage("1")}
		if _, err := polemicaSlot(st, 10, "stage"); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
	_, err := polemicaSlot(map[string]json.RawMessage{"type": json.RawMessage(`"tea"`)}, 10, "stage")
	if err == nil || !strings.Contains(err.Error(), `unknown stage "tea"`) {
		t.Errorf("an unknown stage: %v", err)
	}
	// a speech that names no day cannot be placed
	_, err = polemicaSlot(map[string]json.RawMessage{"type": json.RawMessage(`"toVoting"`)}, 10, "stage")
	if err == nil || !strings.Contains(err.Error(), "stage.day") {
		t.Errorf("toVoting without a day: %v", err)
	}
	im, err := ImportPolemica(readTestdata(t, "polemica-stages.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range im.Record.Events {
		if e.Type == mafia.EvFoul && (e.Seat == 7 || e.Seat == 8) {
			got = append(got, string(record.EncodeEvent(e)))
		}
	}
	want := []string{
		`{"type": "foul", "seat": 7, "during": "nominations_closed"}`,
		`{"type": "foul", "seat": 7, "during": "night"}`,
		`{"type": "foul", "seat": 7, "during": "last_word", "speaker": 10}`,
		`{"type": "foul", "seat": 8, "during": "vote", "candidate": 3}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fouls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A night check of a player who had already left is dropped with a line in the note; the game imports.
func TestPolemicaDepartedCheckDropped(t *testing.T) {
	im, err := ImportPolemica(readTestdata(t, "polemica-stages.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(im.Record.Extra["note"]), "the sheriff (seat 4) checking seat 2, who had already left") {
		t.Errorf("the note does not name the dropped check: %s", im.Record.Extra["note"])
	}
	for _, e := range im.Record.Events {
		if e.Type == mafia.EvCheck && e.Target == 2 {
			t.Errorf("the check of the departed seat 2 is in the record")
		}
	}
}

// An unfinished game imports as an unfinished record that stops where the platform's stage says, so that a host
// can continue it: the record replays, the game goes on, and the engine's next step is accepted.
func TestPolemicaUnfinished(t *testing.T) {
	im, err := ImportPolemica(readTestdata(t, "polemica-unfinished.json"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Decode(im.JSON())
	if err != nil {
		t.Fatal(err)
	}
	g, err := rec.Replay()
	if err != nil || g.Finished() {
		t.Fatalf("replay: %v, finished %v", err, g.Finished())
	}
	last := rec.Events[len(rec.Events)-1]
	if last.Type != mafia.EvSpeech || last.Seat != 6 {
		t.Errorf("the record ends with %s, want seat 6's speech on day 2", record.EncodeEvent(last))
	}
	if phase, num := g.Phase(); phase != mafia.PhaseDay || num != 2 || g.Out(2).How != mafia.OutVoted || g.Out(10).How != mafia.OutKilled {
		t.Errorf("at %v %d; seat 2 %v, seat 10 %v", phase, num, g.Out(2).How, g.Out(10).How)
	}
	if !strings.Contains(string(rec.Extra["note"]), "unfinished") {
		t.Errorf("the note does not say the game is unfinished: %s", rec.Extra["note"])
	}
	if err := g.Apply(mafia.Speech(7)); err != nil {
		t.Errorf("the host cannot continue with the next speech: %v", err)
	}
	// without a stage nothing says where it stopped; a stage at the end with no result contradicts itself
	m := validPolemica(t)
	delete(m, "result")
	delete(m, "stage")
	_, err = ImportPolemica(mustJSON(t, m))
	var ie *InputError
	if !errors.As(err, &ie) || ie.Where != "result" || !strings.Contains(ie.What, "no stage") {
		t.Errorf("no result, no stage: %v", err)
	}
	m["stage"] = map[string]any{"type": "gameOver", "day": 3}
	if _, err = ImportPolemica(mustJSON(t, m)); !errors.As(err, &ie) || !strings.Contains(ie.What, "game is over") {
		t.Errorf("no result at gameOver: %v", err)
	}
	// stopped in day 2's vote, at the vote on seat 1 (nominated second): the votes on seat 3 are in, none on seat 1
	m = validPolemica(t)
	delete(m, "result")
	m["stage"] = map[string]any{"type": "voting", "day": 2, "voting": 1, "player": 1}
	var votes []any
	for _, v := range m["votes"].([]any) {
		v := v.(map[string]any)
		if d := v["day"].(float64); d < 2 || d == 2 && (v["num"].(float64) == 0 || v["candidate"].(float64) == 3) {
			votes = append(votes, v)
		}
	}
	m["votes"] = votes
	m["shots"] = m["shots"].([]any)[:2]
	m["checks"] = []any{}
	im, err = ImportPolemica(mustJSON(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if n := im.Game.Next(); !n.Allowed.Has(mafia.EvVote) || n.Plan()[0].Seat != 1 {
		t.Errorf("stopped in the vote: the next step is %+v, want the vote on seat 1", n.Plan()[0])
	}
	// the same stop with the hands against seat 1 recorded: they would be left out, so it is refused
	m["votes"] = append(votes, map[string]any{"day": 2, "num": 1, "voter": 3, "candidate": 1})
	if _, err = ImportPolemica(mustJSON(t, m)); err == nil || !strings.Contains(err.Error(), "after the moment") {
		t.Errorf("a vote past the stop: %v", err)
	}
	// a stage the recorded facts run past is refused
	m = validPolemica(t)
	delete(m, "result")
	m["stage"] = map[string]any{"type": "speech", "day": 1, "player": 8}
	if _, err = ImportPolemica(mustJSON(t, m)); err == nil {
		t.Errorf("an unfinished game whose facts go past its stage imported")
	}
}
