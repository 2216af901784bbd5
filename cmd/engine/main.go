//go:build js && wasm

// Command engine is the host page's engine in the browser: the rules engine (package mafia) and the host page's
// view (package hostview), compiled to WebAssembly with Go's own toolchain (GOOS=js GOARCH=wasm). The page's
// script hands it the game as the server last confirmed it and the host's actions not yet saved; it applies each
// action with the same code the server checks it with, and draws the same page the server draws. No rule and no
// view is written in JavaScript.
//
// It sets one global object, mafiaEngine, whose functions take and return strings (JSON where structured):
//
//	catalog(lang, json)     the catalogue of the page's language ({"key": "format", ...})
//	load(input)             the game as the server confirmed it (hostview.Input as JSON); "" or an error's text
//	replay(ops)             the host's actions not yet saved, on top: [{"form": "...", "at": "19:42:05"} | {"undo": true}]
//	ahead(form | "", undo)  draws the page as it would be after one more action (or an undo), taking nothing: the
//	                        page keeps the drawing and shows it at once when the host taps that action; the time
//	                        of the action is the answer's mark, which the page replaces with the tap's time
//	act(form, at, drawn)    one more action (the form's fields, URL-encoded; at as the chronology shows it);
//	                        drawn: the page shows ahead's drawing of it, so the page is not drawn again
//	undo(drawn)             takes the last event back
//	draw()                  draws the page as it is
//	commit(version)         the first action not yet saved is saved: it joins the confirmed game, at version
//	t(key[, n])             a catalogue string (a plural one for the count n)
//
// replay, ahead, act, undo, commit and draw answer an object {html, mark, version, pending, status, refused: [i, ...],
// error} (commit, and act or undo drawn ahead, without the page, which is drawn already; commit with base, the
// confirmed game as JSON).
package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"syscall/js"

	"mafiaclub/internal/hostview"
	"mafiaclub/internal/i18n"
	"mafiaclub/mafia/record"
)

// op is one action not yet saved.
type op struct {
	Form string `json:"form,omitempty"`
	At   string `json:"at,omitempty"`
	Undo bool   `json:"undo,omitempty"`
}

type answer struct {
	HTML string `json:"html"`
	// Mark stands in the drawing of ahead for the action's time, which is known only when the host taps.
	Mark    string `json:"mark,omitempty"`
	Version int64  `json:"version"`
	Pending int    `json:"pending"`
	Refused []int  `json:"refused,omitempty"`
	// Status says how many actions wait, in words ("" when none).
	Status string `json:"status,omitempty"`
	// Base is the confirmed game after a commit, as the page keeps it in the browser's storage.
	Base  json.RawMessage `json:"base,omitempty"`
	Error string          `json:"error,omitempty"`
}

var (
	cat     = i18n.Catalog{}
	lang    = "uk"
	base    *hostview.State // the game as the server confirmed it
	current *hostview.State // base with the pending actions applied
	pending []op

	// the actions ahead drew from current, as the page will send them (ahead's key); a state that is not current
	// has none
	aheadOf   *hostview.State
	aheadDone = map[string]bool{}
	// mark stands for an action's time in ahead's drawings: a private-use character and 64 random bits, which no
	// name or reason typed before the engine started can hold
	mark = "\ue000" + newKey()[:16]
	// cards keeps parts of the pages drawn (the seat cards, the discipline's forms, the chronology): the pages
	// drawn ahead of one page share most of theirs
	cards hostview.PartCache
)

func newKey() string {
	// unique, not secret: the runtime seeds math/rand/v2 from the browser's crypto.getRandomValues
	var b [16]byte
	for i := range b {
		b[i] = byte(rand.Uint32())
	}
	return hex.EncodeToString(b[:])
}

// apply applies one action on top of st. A panic (a bug) is an error, not the end of the program: the page would
// lose its engine until it is reloaded.
func apply(st *hostview.State, o op) (next *hostview.State, err error) {
	defer func() {
		if r := recover(); r != nil {
			next, err = st, errFailed
			println("mafiaclub engine:", fmt.Sprint(r)) // for the browser's console
		}
	}()
	if o.Undo {
		return st.Undo()
	}
	form, err := url.ParseQuery(o.Form)
	if err != nil { // the page's script sent a form it did not encode: a bug, not the host's
		println("mafiaclub engine: the form:", err.Error())
		return st, errFailed
	}
	events, err := hostview.EventsFromForm(form, st.Play)
	if err != nil {
		return st, err
	}
	return st.Apply(events, o.At)
}

func (a *answer) draw() {
	if current != nil {
		a.drawState(current, len(pending))
	}
}

// drawState draws st, the confirmed game with waiting actions on top.
func (a *answer) drawState(st *hostview.State, waiting int) {
	defer func() {
		if r := recover(); r != nil {
			a.HTML, a.Error = "", cat.T(lang, "host.engine_failed")
			println("mafiaclub engine:", fmt.Sprint(r))
		}
	}()
	drawn := *st
	drawn.In.Version = base.In.Version + int64(waiting)
	drawn.In.Page = true // the page sends its actions' keys and versions itself
	var b strings.Builder
	if err := hostview.RenderCached(&b, hostview.Build(&drawn, cat, newKey), &cards); err != nil {
		a.Error = cat.T(lang, "host.engine_failed")
		println("mafiaclub engine: drawing:", err.Error())
		return
	}
	a.HTML = b.String()
	a.counts(waiting)
}

// counts gives the answer the version the page shows with waiting actions on top of the confirmed game, and says
// how many wait.
func (a *answer) counts(waiting int) {
	a.Version, a.Pending = base.In.Version+int64(waiting), waiting
	if waiting > 0 {
		a.Status = cat.N(lang, "host.pending.n", waiting)
	}
}

// reply hands the answer to the page as a JavaScript object: the page (23 KB) is copied once, not encoded as JSON
// and decoded again.
func reply(a answer) any {
	o := map[string]any{"version": a.Version, "pending": a.Pending}
	if a.HTML != "" {
		o["html"] = a.HTML
	}
	if a.Error != "" {
		o["error"] = a.Error
	}
	if a.Status != "" {
		o["status"] = a.Status
	}
	if a.Mark != "" {
		o["mark"] = a.Mark
	}
	if a.Base != nil {
		o["base"] = string(a.Base)
	}
	if len(a.Refused) > 0 {
		r := make([]any, len(a.Refused))
		for i, x := range a.Refused {
			r[i] = x
		}
		o["refused"] = r
	}
	return js.ValueOf(o)
}

// errFailed is a bug of the engine's, met on an action: the page says so in its language.
var errFailed = errors.New("the engine failed")

// errorText says why an action was refused in the page's language: a form that cannot be read or a broken rule in
// the catalogue's words; anything else is the engine's failure, its cause for the console.
func errorText(err error) string {
	if text, ok := hostview.ErrorText(cat, lang, err); ok {
		return text
	}
	if !errors.Is(err, errFailed) {
		println("mafiaclub engine:", err.Error())
	}
	return cat.T(lang, "host.engine_failed")
}

// failed is an answer's text for a failure of the engine's (a catalogue key), its technical cause for the console.
func failed(key string, cause error) string {
	println("mafiaclub engine:", cause.Error())
	return cat.T(lang, key)
}

var errNoGame = errors.New("no game loaded")

func main() {
	api := map[string]any{
		"catalog": js.FuncOf(func(_ js.Value, args []js.Value) any {
			c := map[string]string{}
			if err := json.Unmarshal([]byte(args[1].String()), &c); err != nil {
				return failed("host.engine_failed", fmt.Errorf("the catalogue: %w", err)) // the worker tells the console
			}
			lang = args[0].String() // its plural rules are the language's
			cat = i18n.Catalog{lang: c, "en": c}
			return ""
		}),
		"t": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) > 1 {
				return cat.N(lang, args[0].String(), args[1].Int())
			}
			return cat.T(lang, args[0].String())
		}),
		"load": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return load(args[0].String())
		}),
		"replay": js.FuncOf(func(_ js.Value, args []js.Value) any {
			var ops []op
			var a answer
			if err := json.Unmarshal([]byte(args[0].String()), &ops); err != nil {
				a.Error = failed("host.engine_failed", fmt.Errorf("the actions: %w", err))
				return reply(a)
			}
			if base == nil {
				a.Error = failed("host.no_game", errNoGame)
				return reply(a)
			}
			current, pending = base, nil
			for i, o := range ops {
				next, err := apply(current, o)
				if err != nil {
					a.Refused = append(a.Refused, i)
					if a.Error == "" {
						a.Error = errorText(err)
					}
					continue
				}
				current = next
				pending = append(pending, o)
			}
			a.draw()
			return reply(a)
		}),
		"ahead": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return reply(ahead(op{Form: args[0].String(), Undo: args[1].Truthy()}))
		}),
		"act": js.FuncOf(func(_ js.Value, args []js.Value) any {
			o := op{Form: args[0].String(), At: args[1].String()}
			return reply(step(o, len(args) > 2 && args[2].Truthy()))
		}),
		"draw": js.FuncOf(func(_ js.Value, args []js.Value) any {
			var a answer
			a.draw()
			return reply(a)
		}),
		"undo": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return reply(step(op{Undo: true}, len(args) > 0 && args[0].Truthy()))
		}),
		"commit": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return reply(commit(int64(args[0].Int())))
		}),
	}
	obj := js.Global().Get("Object").New()
	for k, v := range api {
		obj.Set(k, v)
	}
	js.Global().Set("mafiaEngine", obj)
	if cb := js.Global().Get("mafiaEngineReady"); cb.Type() == js.TypeFunction {
		cb.Invoke()
	}
	select {}
}

// step applies one more action on top of the current state; a refused one leaves everything as it was. So does
// one whose page cannot be drawn: the page keeps only actions that come with their page, and an action kept here
// but not there would be the next commit's, one the server never received. drawn says that the page shows ahead's
// drawing of this action already: if ahead drew it from the current state, the page is not drawn again (it is the
// same page, the mark replaced with the action's time); otherwise the game moved on under the page (another
// device's actions) and the answer has the page as it now is.
func step(o op, drawn bool) answer {
	var a answer
	if current == nil {
		a.Error = failed("host.no_game", errNoGame)
		return a
	}
	next, err := apply(current, o)
	if err != nil {
		a.Error = errorText(err)
		return a
	}
	same := drawn && aheadOf == current && aheadDone[o.key()]
	prev, waiting := current, len(pending)
	current = next
	pending = append(pending, o)
	if same {
		a.counts(len(pending))
		return a
	}
	a.draw()
	if a.Error != "" {
		current, pending = prev, pending[:waiting]
		a.HTML, a.Version, a.Pending, a.Status = "", 0, 0, ""
	}
	return a
}

// key names an action as ahead and step compare them.
func (o op) key() string {
	if o.Undo {
		return "undo"
	}
	return "act:" + o.Form
}

// ahead draws the page as it would be after one more action, taking nothing; its time is the mark. An action the
// game refuses now is answered with the refusal, which the page shows when the host taps it, as it would.
func ahead(o op) answer {
	var a answer
	if current == nil {
		a.Error = failed("host.no_game", errNoGame)
		return a
	}
	o.At = mark
	next, err := apply(current, o)
	if err != nil {
		a.Error = errorText(err)
		return a
	}
	a.drawState(next, len(pending)+1)
	if a.Error != "" {
		return a
	}
	if aheadOf != current {
		aheadOf, aheadDone = current, map[string]bool{}
	}
	aheadDone[o.key()] = true
	a.Mark = mark
	return a
}

// load takes the game as the server confirmed it (hostview.Input as JSON), with no action waiting; it answers ""
// or why not, in the page's words.
func load(input string) string {
	var in hostview.Input
	if err := json.Unmarshal([]byte(input), &in); err != nil {
		return failed("host.load_failed", fmt.Errorf("the game: %w", err))
	}
	in.Lang = lang
	st, err := hostview.Read(in)
	if err != nil {
		return failed("host.load_failed", fmt.Errorf("the game's record: %w", err))
	}
	base, current, pending = st, st, nil
	return ""
}

// commit moves the first action waiting into the confirmed game, which the server saved at version.
func commit(version int64) answer {
	var a answer
	if len(pending) == 0 { // the page and the engine disagree on what waits: the page fetches the game again
		a.Error = failed("host.out_of_step", errors.New("commit with no action waiting"))
		return a
	}
	next, err := apply(base, pending[0])
	if err != nil { // the server took what this engine refuses: the page fetches the game again
		a.Error = failed("host.out_of_step", fmt.Errorf("commit: the engine refuses the saved action: %w", err))
		return a
	}
	next.In.Version = version
	base = next
	pending = pending[1:]
	in := base.In
	in.Record = record.Encode(base.Record)
	a.Base, _ = json.Marshal(in)
	a.counts(len(pending)) // the page is drawn already
	return a
}
