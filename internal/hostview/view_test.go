package hostview

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// catalog reads the site's catalogues (internal/web/i18n), as the server and the browser's engine load them.
func catalog(t *testing.T) i18n.Catalog {
	t.Helper()
	c := i18n.Catalog{}
	for _, lang := range i18n.Languages {
		files, err := filepath.Glob(filepath.Join("..", "web", "i18n", lang+".*json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no catalogue for %s: %v", lang, err)
		}
		c[lang] = map[string]string{}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			part := map[string]string{}
			if err := json.Unmarshal(data, &part); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for k, v := range part {
				c[lang][k] = v
			}
		}
	}
	return c
}

var tenRoles = []mafia.Role{mafia.Citizen, mafia.Citizen, mafia.Mafia, mafia.Citizen, mafia.Sheriff, mafia.Citizen, mafia.Don,
	mafia.Citizen, mafia.Mafia, mafia.Citizen}

// game builds a record of the rule set with the roles and events, and its state as the host page reads it.
func game(t *testing.T, rules string, roles []mafia.Role, events ...mafia.Event) *State {
	t.Helper()
	seats := make([]record.Seat, len(roles))
	for i, r := range roles {
		seats[i] = record.Seat{Seat: i + 1, Role: r, Name: "P" + strconv.Itoa(i+1)}
	}
	evs := make([]record.Event, len(events))
	for i, e := range events {
		evs[i] = record.Event{Event: e}
	}
	rec, err := record.Build(rules, nil, seats, evs)
	if err != nil {
		t.Fatal(err)
	}
	play, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	return &State{In: Input{Game: 1, Live: true, Lang: "en"}, Record: rec, Play: play}
}

func speeches(from, to int) []mafia.Event {
	var out []mafia.Event
	for s := from; s <= to; s++ {
		out = append(out, mafia.Speech(s))
	}
	return out
}

func join(parts ...any) []mafia.Event {
	var out []mafia.Event
	for _, p := range parts {
		switch x := p.(type) {
		case mafia.Event:
			out = append(out, x)
		case []mafia.Event:
			out = append(out, x...)
		}
	}
	return out
}

// hands is a vote as the host's form records it: the hands he ticked, given (an empty list included).
func hands(target int, voters ...int) mafia.Event { return mafia.Vote(target, voters...) }

// TestChronologyCountsAreTheEngines: every vote line of the chronology states the count the engine gave the
// candidate (the protocol's count), including the default votes the last candidate gets (R26) whether the host
// ticked some hands on him or none, and a single candidate's vote, which the engine counts as the whole table.
// Before, the single candidate's line said "Against #9: 0" where the protocol said "#9: 8".
func TestChronologyCountsAreTheEngines(t *testing.T) {
	events := join(
		mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2), mafia.Nominate(2, 7), speeches(3, 10),
		hands(3, 1, 2, 4, 5, 6), hands(7, 8), // 5:5, the rest (3, 7, 9, 10) with #8's hand go to #7
		hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), // 6:4, the rest left out of the record: #3 leaves
		mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Day(),
		speeches(2, 2), mafia.Nominate(2, 9), speeches(4, 10),
		hands(9), // the single candidate, no hand ticked: the whole table, 8
	)
	st := game(t, "fiim-2025-club", tenRoles, events...)
	cat := catalog(t)
	for _, lang := range i18n.Languages {
		var engine []string
		for _, d := range st.Play.Result().Days {
			for _, r := range d.Rounds {
				for _, c := range r.Counts {
					engine = append(engine, fmt.Sprintf("#%d: %d", c.Seat, c.Votes))
				}
			}
		}
		if want := []string{"#3: 5", "#7: 5", "#3: 6", "#7: 4", "#9: 8"}; !slices.Equal(engine, want) {
			t.Fatalf("the engine counts %q, want %q", engine, want)
		}
		// the vote lines of the chronology, read back through the catalogue's own format
		format := regexp.QuoteMeta(cat.T(lang, "ev.vote", 1111, 2222, "@@"))
		format = regexp.MustCompile(`1111|2222|@@`).ReplaceAllStringFunc(format, func(s string) string {
			return map[string]string{"1111": `(\d+)`, "2222": `(\d+)`, "@@": `.*`}[s]
		})
		re := regexp.MustCompile(format + `$`)
		var shown []string
		for _, line := range Chronology(cat, lang, st.Record, nil) {
			if m := re.FindStringSubmatch(line.Text); m != nil {
				shown = append(shown, fmt.Sprintf("#%s: %s", m[1], m[2]))
			}
		}
		if !slices.Equal(shown, engine) {
			t.Errorf("%s: the chronology says %q, the engine (and the protocol) %q", lang, shown, engine)
		}
	}
}
