//go:build js && wasm

// Run with Go's WebAssembly runner on the PATH (Node.js):
//
//	PATH=$PATH:$(go env GOROOT)/lib/wasm GOOS=js GOARCH=wasm go test ./cmd/engine
package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mafiaclub/internal/hostview"
	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// catalogue reads the site's catalogues (internal/web/i18n), every file of each language.
func catalogue(t *testing.T) i18n.Catalog {
	t.Helper()
	c, err := i18n.Load(os.DirFS(filepath.Join("..", "..", "internal", "web", "i18n")))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// loaded loads a ten-seat game on its first night into the engine, in English, and answers its input.
func loaded(t *testing.T) hostview.Input {
	t.Helper()
	cat, lang = catalogue(t), "en"
	roles := []mafia.Role{mafia.Citizen, mafia.Citizen, mafia.Mafia, mafia.Citizen, mafia.Sheriff, mafia.Citizen, mafia.Don,
		mafia.Citizen, mafia.Mafia, mafia.Citizen}
	seats := make([]record.Seat, len(roles))
	for i, r := range roles {
		seats[i] = record.Seat{Seat: i + 1, Role: r, Name: "P" + string(rune('A'+i))}
	}
	rec, err := record.Build("fiim-2025-club", nil, seats, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := hostview.Input{Game: 1, Version: 3, Live: true, Record: record.Encode(rec)}
	data, _ := json.Marshal(in)
	if msg := load(string(data)); msg != "" {
		t.Fatal(msg)
	}
	return in
}

// TestStepUndoneWhenDrawingFails: an action the engine applies but whose page it cannot draw is answered with an
// error, on which the page keeps nothing; the engine keeps nothing either, so that the next commit is not an
// action the server never received.
func TestStepUndoneWhenDrawingFails(t *testing.T) {
	loaded(t)
	good := current
	broken := *current
	rec := *current.Record
	rec.Seats = rec.Seats[:3] // the view reads every seat's name: drawing panics
	broken.Record = &rec
	current = &broken
	a := step(op{Form: "type=day", At: "19:00:00"}, false)
	if a.Error != cat.T(lang, "host.engine_failed") || a.HTML != "" {
		t.Fatalf("drawing failed, the answer: error %q, %d bytes of page", a.Error, len(a.HTML))
	}
	if current != &broken || len(pending) != 0 {
		t.Fatalf("the engine kept the action the page dropped: %d waiting", len(pending))
	}
	if c := commit(4); c.Error == "" {
		t.Error("a commit with nothing waiting (the page sent nothing) was taken")
	}
	current = good
	if a := step(op{Form: "type=day", At: "19:00:00"}, false); a.Error != "" || a.HTML == "" || a.Pending != 1 || len(pending) != 1 {
		t.Fatalf("the day on the good game: error %q, pending %d (%d in the engine)", a.Error, a.Pending, len(pending))
	}
	if c := commit(4); c.Error != "" || len(pending) != 0 || base.In.Version != 4 || len(base.Record.Events) != 1 {
		t.Errorf("the commit of the day: %q, %d waiting, version %d", c.Error, len(pending), base.In.Version)
	}
}

// TestAnswersInTheCatalogue: the engine's answers are the catalogue's words, never an English cause: no game
// loaded, nothing to commit, a broken record, a form the engine cannot read, a rule broken.
func TestAnswersInTheCatalogue(t *testing.T) {
	cat, lang = catalogue(t), "uk"
	base, current, pending = nil, nil, nil
	if a := step(op{Form: "type=day"}, false); a.Error != cat.T("uk", "host.no_game") {
		t.Errorf("no game: %q", a.Error)
	}
	if msg := load(`{"record": {"format": 1}}`); msg != cat.T("uk", "host.load_failed") {
		t.Errorf("a broken record: %q", msg)
	}
	if msg := load(`not json`); msg != cat.T("uk", "host.load_failed") {
		t.Errorf("a broken input: %q", msg)
	}
	loaded(t)
	lang = "uk"
	if a := commit(4); a.Error != cat.T("uk", "host.out_of_step") {
		t.Errorf("nothing to commit: %q", a.Error)
	}
	_, rule := current.Apply([]record.Event{{Event: mafia.Speech(1)}}, "")
	var re *mafia.RuleError
	if !errors.As(rule, &re) {
		t.Fatalf("a speech at night: %v, want a broken rule", rule)
	}
	if a := step(op{Form: "type=speech&seat=1"}, false); a.Error != hostview.RuleText(cat, "uk", rule, re) || len(pending) != 0 {
		t.Errorf("a speech at night: %q", a.Error)
	}
	if got := errorText(errors.New("an English cause")); got != cat.T("uk", "host.engine_failed") {
		t.Errorf("an error neither of the form nor of the rules: %q", got)
	}
	if a := step(op{Form: "type=%zz"}, false); a.Error != cat.T("uk", "host.engine_failed") || len(pending) != 0 {
		t.Errorf("a form the page did not encode: %q", a.Error)
	}
}

// TestKeysInEveryLanguage: every catalogue key this file answers with is in every language.
func TestKeysInEveryLanguage(t *testing.T) {
	c := catalogue(t)
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	keys := regexp.MustCompile(`(?:cat\.[TN]\(lang, |failed\()"([a-z_.]+)"`).FindAllStringSubmatch(string(src), -1)
	if len(keys) < 5 {
		t.Fatalf("found only %d keys: the scan is broken", len(keys))
	}
	for _, k := range keys {
		for _, l := range i18n.Languages {
			if _, ok := c[l][k[1]]; !ok {
				t.Errorf("%s has no %q", l, k[1])
			}
		}
	}
}

// keys are the forms' idempotency keys, drawn at random on each drawing.
var keys = regexp.MustCompile(`name="key" value="[0-9a-f]{32}"`)

// TestAheadIsTheTap: what ahead draws for an action, its mark replaced with the tap's time, is the page the action
// itself draws (but for the forms' random keys), and ahead takes nothing. A tap the page already shows from ahead
// is not drawn again; one that ahead drew from a game that has moved on since is.
func TestAheadIsTheTap(t *testing.T) {
	loaded(t)
	for _, form := range []string{"type=day", "type=speech&seat=1"} {
		if a := step(op{Form: form, At: "19:00:00"}, false); a.Error != "" {
			t.Fatalf("%s: %s", form, a.Error)
		}
	}
	for _, o := range []op{{Form: "type=nominate&by=1&target=5"}, {Undo: true}, {Form: "type=foul&seat=4"}, {Form: "type=speech&seat=2"}} {
		before, waiting := current, len(pending)
		a := ahead(o)
		if a.Error != "" || a.Mark == "" || a.HTML == "" {
			t.Fatalf("ahead %+v: error %q, mark %q, %d bytes", o, a.Error, a.Mark, len(a.HTML))
		}
		if current != before || len(pending) != waiting {
			t.Fatalf("ahead %+v took the action: %d waiting, was %d", o, len(pending), waiting)
		}
		if !o.Undo && !strings.Contains(a.HTML, a.Mark) {
			t.Fatalf("ahead %+v: the drawing has no mark for the action's time", o)
		}
		o.At = "19:01:02"
		shown := strings.ReplaceAll(a.HTML, a.Mark, o.At)
		b := step(o, false)
		if b.Error != "" || b.Version != a.Version || b.Pending != a.Pending {
			t.Fatalf("%+v: error %q, version %d (ahead %d), %d waiting (ahead %d)", o, b.Error, b.Version, a.Version, b.Pending, a.Pending)
		}
		if keys.ReplaceAllString(shown, "") != keys.ReplaceAllString(b.HTML, "") {
			t.Fatalf("%+v: ahead's drawing is not the action's page:\n%s\n----\n%s", o, shown, b.HTML)
		}
	}
	// drawn ahead from this game: the page is not drawn again
	a := ahead(op{Form: "type=foul&seat=6"})
	b := step(op{Form: "type=foul&seat=6", At: "19:02:00"}, true)
	if b.Error != "" || b.HTML != "" || b.Version != a.Version || b.Pending != len(pending) || b.Status == "" {
		t.Fatalf("a tap drawn ahead: error %q, %d bytes of page, version %d (ahead %d), %d waiting", b.Error, len(b.HTML), b.Version, a.Version, b.Pending)
	}
	if n := len(current.Record.Events); current.In.Times[n-1] != "19:02:00" {
		t.Fatalf("the tap's time is %q, want 19:02:00", current.In.Times[n-1])
	}
	// drawn ahead, but from another game than the engine's now (another device moved it on meanwhile), or another
	// action: drawn again
	ahead(op{Form: "type=foul&seat=7"})
	if b := step(op{Form: "type=foul&seat=8", At: "19:03:00"}, true); b.Error != "" || b.HTML == "" {
		t.Fatalf("another action than the one drawn ahead: error %q, %d bytes of page", b.Error, len(b.HTML))
	}
	ahead(op{Form: "type=foul&seat=9"})
	current, _ = current.Apply([]record.Event{{Event: mafia.Foul(10)}}, "19:04:00")
	if b := step(op{Form: "type=foul&seat=9", At: "19:05:00"}, true); b.Error != "" || b.HTML == "" {
		t.Fatalf("a game moved on since ahead: error %q, %d bytes of page", b.Error, len(b.HTML))
	}
	// a refused action is refused ahead too, in the catalogue's words, and nothing is marked
	if a := ahead(op{Form: "type=night"}); a.Error == "" || a.Mark != "" || a.HTML != "" {
		t.Fatalf("the night in the middle of the speeches, ahead: error %q, mark %q", a.Error, a.Mark)
	}
}
