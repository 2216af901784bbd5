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
//	act(form, at)           one more action (the form's fields, URL-encoded)
//	undo()                  takes the last event back
//	draw()                  draws the page as it is
//	warm()                  runs a tap's path once on a copy of the game (the browser compiles the code it runs)
//	commit(version)         the first action not yet saved is saved: it joins the confirmed game, at version
//	t(key[, n])             a catalogue string (a plural one for the count n)
//
// replay, act, undo, commit and draw answer an object {html, version, pending, status, refused: [i, ...], error}
// (commit without the page, which is drawn already, and with base, the confirmed game as JSON).
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
	HTML    string `json:"html"`
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
	if err != nil {
		return st, err
	}
	events, err := hostview.EventsFromForm(form, st.Play)
	if err != nil {
		return st, err
	}
	return st.Apply(events, o.At)
}

func (a *answer) draw() {
	if current == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			a.HTML, a.Error = "", cat.T(lang, "host.engine_failed")
			println("mafiaclub engine:", fmt.Sprint(r))
		}
	}()
	st := *current
	st.In.Version = base.In.Version + int64(len(pending))
	var b strings.Builder
	if err := hostview.Render(&b, hostview.Build(&st, cat, newKey)); err != nil {
		a.Error = err.Error()
		return
	}
	a.HTML = b.String()
	a.Version = st.In.Version
	a.Pending = len(pending)
	if a.Pending > 0 {
		a.Status = cat.N(lang, "host.pending.n", a.Pending)
	}
}

// warm runs a tap's whole path (the form read, the action applied, the page drawn and handed over) on copies of
// the game, its results thrown away: the browser compiles the engine's code as it first runs it, and the host's
// first tap paid for that (a quarter of a second on this project's machine). Actions the game refuses now still
// run most of the path.
func warm() {
	if current == nil {
		return
	}
	for _, form := range []string{"type=speech&seat=1", "type=nominate&by=1&target=2", "type=foul&seat=1", "type=day", "type=vote&target=1"} {
		st, err := apply(current, op{Form: form, At: "00:00:00"})
		a := answer{Version: st.In.Version}
		if err != nil {
			a.Error = errorText(err)
		}
		var b strings.Builder
		if hostview.Render(&b, hostview.Build(st, cat, newKey)) == nil {
			a.HTML = b.String()
		}
		reply(a)
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

func errorText(err error) string {
	if errors.Is(err, errFailed) {
		return cat.T(lang, "host.engine_failed")
	}
	return hostview.ErrorText(cat, lang, err)
}

func main() {
	api := map[string]any{
		"catalog": js.FuncOf(func(_ js.Value, args []js.Value) any {
			c := map[string]string{}
			if err := json.Unmarshal([]byte(args[1].String()), &c); err != nil {
				return err.Error()
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
			var in hostview.Input
			if err := json.Unmarshal([]byte(args[0].String()), &in); err != nil {
				return err.Error()
			}
			in.Lang = lang
			st, err := hostview.Read(in)
			if err != nil {
				return err.Error()
			}
			base, current, pending = st, st, nil
			return ""
		}),
		"replay": js.FuncOf(func(_ js.Value, args []js.Value) any {
			var ops []op
			var a answer
			if err := json.Unmarshal([]byte(args[0].String()), &ops); err != nil {
				a.Error = err.Error()
				return reply(a)
			}
			if base == nil {
				a.Error = "no game"
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
		"act": js.FuncOf(func(_ js.Value, args []js.Value) any {
			o := op{Form: args[0].String(), At: args[1].String()}
			return reply(step(o))
		}),
		"draw": js.FuncOf(func(_ js.Value, args []js.Value) any {
			var a answer
			a.draw()
			return reply(a)
		}),
		"warm": js.FuncOf(func(_ js.Value, _ []js.Value) any {
			warm()
			return nil
		}),
		"undo": js.FuncOf(func(_ js.Value, args []js.Value) any {
			return reply(step(op{Undo: true}))
		}),
		"commit": js.FuncOf(func(_ js.Value, args []js.Value) any {
			var a answer
			if len(pending) == 0 {
				a.Error = "nothing to commit"
				return reply(a)
			}
			next, err := apply(base, pending[0])
			if err != nil { // the server took what this engine refuses: the page fetches the game again
				a.Error = err.Error()
				return reply(a)
			}
			next.In.Version = int64(args[0].Int())
			base = next
			pending = pending[1:]
			in := base.In
			in.Record = record.Encode(base.Record)
			a.Base, _ = json.Marshal(in)
			a.Version, a.Pending = base.In.Version+int64(len(pending)), len(pending) // the page is drawn already
			if a.Pending > 0 {
				a.Status = cat.N(lang, "host.pending.n", a.Pending)
			}
			return reply(a)
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

// step applies one more action on top of the current state; a refused one leaves everything as it was.
func step(o op) answer {
	var a answer
	if current == nil {
		a.Error = "no game"
		return a
	}
	next, err := apply(current, o)
	if err != nil {
		a.Error = errorText(err)
		return a
	}
	current = next
	pending = append(pending, o)
	a.draw()
	return a
}
