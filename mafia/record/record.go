// Package record reads and writes the game record, format 1 (spec game-record.md): the JSON every game replays
// from. It validates a record completely (format, rule set, options, seats, roles, event shapes) and turns it into
// the engine's setup and events; the rules themselves are the engine's.
package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"mafiaclub/mafia"
)

// Format is the record format this package reads and writes.
const Format = 1

// Record is a decoded game record.
type Record struct {
	Rules   *mafia.Rules
	Options mafia.Options
	// OptionJSON holds the options as given, in canonical JSON, by key.
	OptionJSON map[string]json.RawMessage
	Seats      []Seat // by seat number: Seats[0] is seat 1
	Events     []Event
	// Extra holds the other top-level fields (id, club, table, ...), carried along unread.
	Extra map[string]json.RawMessage
}

// Seat is one seat of the record.
type Seat struct {
	Seat   int
	Role   mafia.Role
	Name   string
	Player string // a club profile id; empty for a guest
}

// MaxEventText bounds an event's reason and note, in characters: they stay in the record and every chronology for
// good. The club checks it when an action is recorded, and the host page's form reader (also in the browser's
// engine) when it reads the form.
const MaxEventText = 500

// Event is one recorded event: the engine's event plus what only the chronology reads.
type Event struct {
	mafia.Event
	At     string // RFC 3339, as recorded; empty when absent
	Note   string
	Reason string
	// During is where a foul, warning or disqualification fell ("during" with "speaker" or "candidate", spec
	// section 2); the zero value when not recorded. The engine never reads it.
	During mafia.During
	// Reconstructed marks an event an importer reconstructed because the source platform did not record it
	// ("reconstructed": true, spec section 2); an exporter never presents it as recorded fact.
	Reconstructed bool
	// Unanimous marks a shot recorded as the shot of all the black players who had not shot yet that night, at
	// one target in one tap ("unanimous": true, docs/record-extensions.md): the host saw every black hand point
	// at the target rather than each shooter, so a corrected deal moves it to the corrected blacks (ForDeal).
	Unanimous bool
}

// Error is a record that is not valid: Where says where (a field, "seat 3", "event 12 (vote)"), What says what is
// wrong.
type Error struct {
	Where string
	What  string
}

func (e *Error) Error() string {
	if e.Where == "" {
		return e.What
	}
	return e.Where + ": " + e.What
}

func errf(where, format string, args ...any) error {
	return &Error{Where: where, What: fmt.Sprintf(format, args...)}
}

// Roles returns the roles by seat, as the engine takes them.
func (r *Record) Roles() []mafia.Role {
	out := make([]mafia.Role, len(r.Seats))
	for i, s := range r.Seats {
		out[i] = s.Role
	}
	return out
}

// EngineEvents returns the events as the engine takes them.
func (r *Record) EngineEvents() []mafia.Event {
	out := make([]mafia.Event, len(r.Events))
	for i, e := range r.Events {
		out[i] = e.Event
	}
	return out
}

// Replay replays the record. The error is a *mafia.ReplayError when an event was rejected; the game is then the
// state before it.
func (r *Record) Replay() (*mafia.Game, error) {
	return mafia.Replay(r.Rules, r.Options, r.Roles(), r.EngineEvents())
}

// Decode reads and validates a record. It refuses an unknown format, rule set, option or event type, seats that
// are not 1..N, roles that do not fit the rule set, and events of the wrong shape, saying what and where.
func Decode(data []byte) (*Record, error) {
	var top map[string]json.RawMessage
	if err := strictUnmarshal(data, &top); err != nil {
		return nil, errf("", "not a JSON object: %v", err)
	}
	if top == nil {
		return nil, errf("", "not a JSON object")
	}
	rec := &Record{Extra: map[string]json.RawMessage{}, OptionJSON: map[string]json.RawMessage{}}
	raw, ok := top["format"]
	if !ok {
		return nil, errf("format", "missing (this reader knows format %d)", Format)
	}
	if f, err := wholeNumber(raw); err != nil || f != Format {
		return nil, errf("format", "%s is not a format this reader knows (it knows %d)", compact(raw), Format)
	}
	var id string
	if err := json.Unmarshal(top["rules"], &id); err != nil || id == "" {
		return nil, errf("rules", "missing or not a string")
	}
	rules, ok := mafia.RuleSet(id)
	if !ok {
		var ids []string
		for _, r := range mafia.RuleSets() {
			ids = append(ids, r.ID)
		}
		return nil, errf("rules", "unknown rule set %q (known: %s)", id, strings.Join(ids, ", "))
	}
	rec.Rules = rules
	rec.Options = rules.DefaultOptions()
	if raw, ok := top["options"]; ok && !isNull(raw) {
		if err := rec.decodeOptions(raw); err != nil {
			return nil, err
		}
	}
	if err := rec.decodeSeats(top["seats"]); err != nil {
		return nil, err
	}
	if err := rec.decodeEvents(top["events"]); err != nil {
		return nil, err
	}
	for k, v := range top {
		switch k {
		case "format", "rules", "options", "seats", "events":
		default:
			rec.Extra[k] = compactFull(v)
		}
	}
	if err := rec.Rules.ValidateRoles(rec.Roles()); err != nil {
		return nil, errf("seats", "%v", err)
	}
	if _, err := mafia.NewGame(rec.Rules, rec.Options, rec.Roles()); err != nil {
		return nil, errf("options", "%v", err)
	}
	return rec, nil
}

func (rec *Record) decodeOptions(raw json.RawMessage) error {
	var opts map[string]json.RawMessage
	if err := strictUnmarshal(raw, &opts); err != nil || opts == nil {
		return errf("options", "not a JSON object")
	}
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		where := "options." + k
		info, ok := rec.Rules.Option(k)
		if !ok {
			return errf(where, "%s has no such option (it has: %s)", rec.Rules.ID, strings.Join(rec.Rules.OptionKeys(), ", "))
		}
		var v mafia.OptionValue
		raw := opts[k]
		switch info.Kind {
		case mafia.OptBool:
			if err := json.Unmarshal(raw, &v.Bool); err != nil {
				return errf(where, "must be true or false")
			}
		case mafia.OptPoints:
			var pair []json.RawMessage
			if err := json.Unmarshal(raw, &pair); err != nil || len(pair) != 2 {
				return errf(where, "must be two point values [for two, for three]")
			}
			for i, p := range pair {
				h, err := Hundredths(p)
				if err != nil {
					return errf(where, "%v", err)
				}
				v.Points[i] = h
			}
		case mafia.OptList:
			if err := json.Unmarshal(raw, &v.List); err != nil {
				return errf(where, "must be a list of names")
			}
		case mafia.OptChoice:
			if err := json.Unmarshal(raw, &v.Choice); err != nil {
				return errf(where, "must be one of %v", info.Choices)
			}
		}
		if err := rec.Options.Set(k, v); err != nil {
			return errf(where, "%v", err)
		}
		rec.OptionJSON[k] = canonicalOption(info.Kind, v)
	}
	return nil
}

func canonicalOption(kind mafia.OptionKind, v mafia.OptionValue) json.RawMessage {
	var b []byte
	switch kind {
	case mafia.OptBool:
		b, _ = json.Marshal(v.Bool)
	case mafia.OptPoints:
		b = []byte("[" + FormatPoints(v.Points[0]) + ", " + FormatPoints(v.Points[1]) + "]")
	case mafia.OptList:
		b, _ = json.Marshal(v.List)
	case mafia.OptChoice:
		b, _ = json.Marshal(v.Choice)
	}
	return b
}

type seatJSON struct {
	Seat   json.RawMessage `json:"seat"`
	Role   *string         `json:"role"`
	Name   *string         `json:"name"`
	Player *string         `json:"player"`
}

func (rec *Record) decodeSeats(raw json.RawMessage) error {
	if raw == nil || isNull(raw) {
		return errf("seats", "missing")
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return errf("seats", "must be a list")
	}
	if len(list) == 0 {
		return errf("seats", "the list is empty")
	}
	if len(list) > mafia.MaxSeats {
		return errf("seats", "%d seats; at most %d", len(list), mafia.MaxSeats)
	}
	rec.Seats = make([]Seat, len(list))
	for i, item := range list {
		where := fmt.Sprintf("seats entry %d", i+1)
		var sj seatJSON
		if err := strictUnmarshal(item, &sj); err != nil {
			return errf(where, "%v", err)
		}
		n, err := wholeNumber(sj.Seat)
		if err != nil {
			return errf(where, "seat must be a whole number")
		}
		if n < 1 || n > len(list) {
			return errf(where, "seat %d: seats are numbered 1 to %d", n, len(list))
		}
		if rec.Seats[n-1].Seat != 0 {
			return errf(where, "seat %d is listed twice", n)
		}
		if sj.Role == nil {
			return errf(where, "seat %d has no role", n)
		}
		role, ok := mafia.ParseRole(*sj.Role)
		if !ok {
			return errf(where, "seat %d: unknown role %q (citizen, sheriff, mafia, don, commissar, doctor)", n, *sj.Role)
		}
		if sj.Name == nil || strings.TrimSpace(*sj.Name) == "" {
			return errf(where, "seat %d has no name", n)
		}
		s := Seat{Seat: n, Role: role, Name: *sj.Name}
		if sj.Player != nil {
			s.Player = *sj.Player
		}
		rec.Seats[n-1] = s
	}
	return nil
}

// eventFields lists, per event type, the fields it requires and those it may have (besides type, at, note).
var eventFields = map[mafia.EventType]struct{ need, may []string }{
	mafia.EvDay:        {},
	mafia.EvNight:      {},
	mafia.EvSpeech:     {need: []string{"seat"}},
	mafia.EvNominate:   {need: []string{"by", "target"}},
	mafia.EvVote:       {need: []string{"target"}, may: []string{"voters"}},
	mafia.EvLift:       {need: []string{"voters"}},
	mafia.EvShot:       {need: []string{"by", "target"}, may: []string{"unanimous"}},
	mafia.EvCheck:      {need: []string{"by", "target"}},
	mafia.EvHeal:       {need: []string{"by", "target"}},
	mafia.EvBestMove:   {need: []string{"by", "targets"}},
	mafia.EvFoul:       {need: []string{"seat"}, may: []string{"during"}},
	mafia.EvWarning:    {need: []string{"seat"}, may: []string{"during"}},
	mafia.EvDisqualify: {need: []string{"seat"}, may: []string{"reason", "during"}},
	mafia.EvTeamLoss:   {need: []string{"seat"}, may: []string{"reason"}},
	mafia.EvAdjust:     {need: []string{"seat", "points"}, may: []string{"reason"}},
	mafia.EvDraw:       {may: []string{"reason"}},
}

func (rec *Record) decodeEvents(raw json.RawMessage) error {
	if raw == nil || isNull(raw) {
		return errf("events", "missing (an empty game has \"events\": [])")
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return errf("events", "must be a list")
	}
	n := len(rec.Seats)
	rec.Events = make([]Event, 0, len(list))
	for i, item := range list {
		var fields map[string]json.RawMessage
		if err := strictUnmarshal(item, &fields); err != nil || fields == nil {
			return errf(fmt.Sprintf("event %d", i+1), "not a JSON object")
		}
		var typ string
		if err := json.Unmarshal(fields["type"], &typ); err != nil || typ == "" {
			return errf(fmt.Sprintf("event %d", i+1), "missing type")
		}
		t, ok := mafia.ParseEventType(typ)
		if !ok {
			return errf(fmt.Sprintf("event %d", i+1), "unknown event type %q", typ)
		}
		where := fmt.Sprintf("event %d (%s)", i+1, typ)
		spec := eventFields[t]
		allowed := map[string]bool{"type": true, "at": true, "note": true, "reconstructed": true}
		for _, f := range spec.need {
			allowed[f] = true
			if _, ok := fields[f]; !ok {
				return errf(where, "missing %s", f)
			}
		}
		for _, f := range spec.may {
			allowed[f] = true
		}
		if _, ok := fields["during"]; ok && allowed["during"] {
			allowed["speaker"], allowed["candidate"] = true, true // checked with "during" below
		}
		for f := range fields {
			if !allowed[f] {
				return errf(where, "unexpected field %q", f)
			}
		}
		e := Event{Event: mafia.Event{Type: t}}
		seatField := func(name string) (uint8, error) {
			v, err := wholeNumber(fields[name])
			if err != nil || v < 1 || v > n {
				return 0, errf(where, "%s must be a seat from 1 to %d, not %s", name, n, compact(fields[name]))
			}
			return uint8(v), nil
		}
		var err error
		for _, f := range []string{"seat", "by"} {
			if _, ok := fields[f]; ok {
				if e.Seat, err = seatField(f); err != nil {
					return err
				}
			}
		}
		if _, ok := fields["target"]; ok {
			if e.Target, err = seatField("target"); err != nil {
				return err
			}
		}
		if raw, ok := fields["voters"]; ok {
			set, err := seatList(raw, n, mafia.MaxSeats)
			if err != nil {
				return errf(where, "voters: %v", err)
			}
			e.VotersGiven = true
			for _, s := range set {
				e.Voters = e.Voters.Add(s)
			}
		}
		if raw, ok := fields["targets"]; ok {
			list, err := seatList(raw, n, 3)
			if err != nil {
				return errf(where, "targets: %v", err)
			}
			if len(list) == 0 {
				return errf(where, "targets: name at least one seat")
			}
			for _, s := range list {
				e.Targets[e.NTargets] = uint8(s)
				e.NTargets++
			}
		}
		if raw, ok := fields["points"]; ok {
			h, err := Hundredths(raw)
			if err != nil {
				return errf(where, "points: %v", err)
			}
			e.Points = int32(h)
		}
		if raw, ok := fields["at"]; ok {
			if err := json.Unmarshal(raw, &e.At); err != nil {
				return errf(where, "at must be an RFC 3339 time stamp")
			}
			if _, err := time.Parse(time.RFC3339, e.At); err != nil {
				return errf(where, "at %q is not an RFC 3339 time stamp", e.At)
			}
		}
		if raw, ok := fields["during"]; ok {
			if e.During, err = decodeDuring(raw, fields, where, seatField); err != nil {
				return err
			}
		}
		if raw, ok := fields["reconstructed"]; ok {
			if err := json.Unmarshal(raw, &e.Reconstructed); err != nil {
				return errf(where, "reconstructed must be true or false")
			}
		}
		if raw, ok := fields["unanimous"]; ok {
			if err := json.Unmarshal(raw, &e.Unanimous); err != nil {
				return errf(where, "unanimous must be true or false")
			}
		}
		for name, dst := range map[string]*string{"note": &e.Note, "reason": &e.Reason} {
			if raw, ok := fields[name]; ok {
				if err := json.Unmarshal(raw, dst); err != nil {
					return errf(where, "%s must be text", name)
				}
			}
		}
		rec.Events = append(rec.Events, e)
	}
	return nil
}

// decodeDuring reads "during" and the seat it names: "speaker" for a speech, tie speech or last word,
// "candidate" for a vote, neither for the other moments (spec section 2).
func decodeDuring(raw json.RawMessage, fields map[string]json.RawMessage, where string, seatField func(string) (uint8, error)) (mafia.During, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return mafia.During{}, errf(where, "during must be text")
	}
	kind, ok := mafia.ParseDuringKind(name)
	if !ok {
		return mafia.During{}, errf(where, "during %q is not a moment (speech, tie_speech, last_word, nominations_closed, vote, lift, night)", name)
	}
	want := ""
	switch kind {
	case mafia.DuringSpeech, mafia.DuringTieSpeech, mafia.DuringLastWord:
		want = "speaker"
	case mafia.DuringVote:
		want = "candidate"
	}
	for _, f := range []string{"speaker", "candidate"} {
		if _, ok := fields[f]; ok && f != want {
			return mafia.During{}, errf(where, "during %q has no %s", name, f)
		}
	}
	d := mafia.During{Kind: kind}
	if want != "" {
		if _, ok := fields[want]; !ok {
			return mafia.During{}, errf(where, "during %q needs %s", name, want)
		}
		s, err := seatField(want)
		if err != nil {
			return mafia.During{}, err
		}
		d.Seat = s
	}
	return d, nil
}

// seatList reads a list of distinct seats, in the order given.
func seatList(raw json.RawMessage, n, max int) ([]int, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("must be a list of seats")
	}
	if len(items) > max {
		return nil, fmt.Errorf("at most %d seats", max)
	}
	seen := map[int]bool{}
	out := make([]int, 0, len(items))
	for _, it := range items {
		v, err := wholeNumber(it)
		if err != nil || v < 1 || v > n {
			return nil, fmt.Errorf("%s is not a seat from 1 to %d", compact(it), n)
		}
		if seen[v] {
			return nil, fmt.Errorf("seat %d is listed twice", v)
		}
		seen[v] = true
		out = append(out, v)
	}
	return out, nil
}

// wholeNumber reads a JSON integer.
func wholeNumber(raw json.RawMessage) (int, error) {
	s := strings.TrimSpace(string(raw))
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("not a whole number")
	}
	return v, nil
}

// Hundredths reads a JSON number with at most two decimals as hundredths, exactly (no binary floating point).
func Hundredths(raw json.RawMessage) (int, error) {
	s := strings.TrimSpace(string(raw))
	bad := fmt.Errorf("%s is not a number of points with at most two decimals", compactStr(s))
	if s == "" || strings.ContainsAny(s, "eE+") {
		return 0, bad
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || (len(whole) > 1 && whole[0] == '0') || (hasDot && frac == "") {
		return 0, bad
	}
	frac = strings.TrimRight(frac, "0")
	if len(frac) > 2 || len(whole) > 6 {
		return 0, bad
	}
	for _, c := range whole + frac {
		if c < '0' || c > '9' {
			return 0, bad
		}
	}
	w, _ := strconv.Atoi(whole)
	f := 0
	if frac != "" {
		f, _ = strconv.Atoi((frac + "0")[:2])
	}
	v := w*100 + f
	if neg {
		v = -v
	}
	return v, nil
}

// FormatPoints writes hundredths as the shortest exact decimal: 130 is 1.3, 200 is 2, -5 is -0.05.
func FormatPoints(h int) string {
	sign := ""
	if h < 0 {
		sign, h = "-", -h
	}
	s := sign + strconv.Itoa(h/100)
	switch f := h % 100; {
	case f == 0:
	case f%10 == 0:
		s += "." + strconv.Itoa(f/10)
	default:
		s += fmt.Sprintf(".%02d", f)
	}
	return s
}

func strictUnmarshal(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	var extra json.RawMessage
	if err := d.Decode(&extra); err == nil {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return strings.TrimSpace(string(raw)) == "null" }

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return compactStr(string(raw))
	}
	return compactStr(b.String())
}

func compactFull(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

func compactStr(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
