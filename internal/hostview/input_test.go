package hostview

import (
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// timed is game with the clock time of each event, as the server sends the input.
func timed(t *testing.T, events ...mafia.Event) *State {
	t.Helper()
	st := game(t, "fiim-2025-club", tenRoles, events...)
	st.In.Times = make([]string, len(events))
	for i := range st.In.Times {
		st.In.Times[i] = "19:00:00"
	}
	return st
}

func events(es ...mafia.Event) []record.Event {
	out := make([]record.Event, len(es))
	for i, e := range es {
		out[i] = record.Event{Event: e}
	}
	return out
}

// unanimous is the shots of one tap of "all at #N": each marked as part of the blacks' unanimous shot.
func unanimous(es ...mafia.Event) []record.Event {
	out := events(es...)
	for i := range out {
		out[i].Unanimous = true
	}
	return out
}

// TestApply: the host's actions not yet saved are applied on top of the game as the server will apply them; a
// batch the rules refuse leaves the state as it was, and the state applied on is never changed.
func TestApply(t *testing.T) {
	st := timed(t, mafia.Day(), mafia.Speech(1))
	next0 := st.Play.Next()

	got, err := st.Apply(events(mafia.Nominate(1, 3), mafia.Speech(2)), "19:42:05")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Record.Events) != 4 || got.Play.Next().Speaker != 2 || !reflect.DeepEqual(got.Play.Nominated(), []int{3}) {
		t.Errorf("after the nomination and #2's speech: %d events, speaker %d, nominated %v", len(got.Record.Events), got.Play.Next().Speaker, got.Play.Nominated())
	}
	if want := []string{"19:00:00", "19:00:00", "19:42:05", "19:42:05"}; !reflect.DeepEqual(got.In.Times, want) {
		t.Errorf("times %q, want %q", got.In.Times, want)
	}
	if len(st.Record.Events) != 2 || len(st.In.Times) != 2 || !reflect.DeepEqual(st.Play.Next(), next0) {
		t.Error("Apply changed the state it applied on (the confirmed game the browser keeps)")
	}
	// a batch whose second event the rules refuse: nothing of it is applied
	same, err := st.Apply(events(mafia.Nominate(1, 3), mafia.Speech(5)), "19:42:05")
	var re *mafia.RuleError
	if err == nil || !errors.As(err, &re) {
		t.Fatalf("#5 speaking after #1: %v, want the engine's refusal", err)
	}
	if same != st || len(same.Record.Events) != 2 || len(same.In.Times) != 2 || !reflect.DeepEqual(same.Play.Next(), next0) {
		t.Errorf("a refused batch changed the state: %d events, next %+v", len(same.Record.Events), same.Play.Next())
	}
	// the same engine as a replay of the whole record
	replayed, err := got.Record.Replay()
	if err != nil || !reflect.DeepEqual(replayed.Next(), got.Play.Next()) {
		t.Errorf("the applied state differs from a replay of its record (%v)", err)
	}
}

// TestApplyFillsFoulMoment: a foul, warning or disqualification applied in the browser gets the moment where it
// falls, as the server records it, the moment of its place in the batch; one the host named is kept.
func TestApplyFillsFoulMoment(t *testing.T) {
	st := timed(t, mafia.Day(), mafia.Speech(1))
	want := st.Play.During()
	if want.Kind != mafia.DuringSpeech || want.Seat != 1 {
		t.Fatalf("the engine says %+v during #1's speech", want)
	}
	got, err := st.Apply(events(mafia.Foul(4)), "19:42:05")
	if err != nil {
		t.Fatal(err)
	}
	if d := got.Record.Events[2].During; d != want {
		t.Errorf("the foul's moment %+v, want %+v", d, want)
	}
	if got.Play.Fouls(4) != 1 {
		t.Errorf("#4 has %d fouls", got.Play.Fouls(4))
	}
	// in a batch, each at its own place: #2's speech has begun when the warning falls
	got, err = st.Apply([]record.Event{{Event: mafia.Speech(2)}, {Event: mafia.Event{Type: mafia.EvWarning, Seat: 6}}}, "19:42:05")
	if err != nil {
		t.Fatal(err)
	}
	if d := got.Record.Events[3].During; d.Kind != mafia.DuringSpeech || d.Seat != 2 {
		t.Errorf("a warning during #2's speech, applied with it: moment %+v", d)
	}
	// a moment the host named stays
	named := mafia.During{Kind: mafia.DuringNominationsClosed}
	got, err = st.Apply([]record.Event{{Event: mafia.Foul(4), During: named}}, "19:42:05")
	if err != nil || got.Record.Events[2].During != named {
		t.Errorf("the host's moment was replaced: %+v (%v)", got.Record.Events[2].During, err)
	}
	// at night
	night := timed(t)
	got, err = night.Apply(events(mafia.Foul(2)), "19:42:05")
	if err != nil || got.Record.Events[0].During != night.Play.During() || got.Record.Events[0].During.Kind != mafia.DuringNight {
		t.Errorf("a foul on night 1: moment %+v (%v)", got.Record.Events[0].During, err)
	}
}

// TestUndo: the last event goes and the game is replayed without it, as the server's undo does.
func TestUndo(t *testing.T) {
	st := timed(t, mafia.Day(), mafia.Speech(1), mafia.Nominate(1, 3))
	before := timed(t, mafia.Day(), mafia.Speech(1))
	got, err := st.Undo()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Record.Events) != 2 || len(got.In.Times) != 2 || len(got.Play.Nominated()) != 0 || !reflect.DeepEqual(got.Play.Next(), before.Play.Next()) {
		t.Errorf("after the undo: %d events, %d times, nominated %v", len(got.Record.Events), len(got.In.Times), got.Play.Nominated())
	}
	if len(st.Record.Events) != 3 || !reflect.DeepEqual(st.Play.Nominated(), []int{3}) {
		t.Error("Undo changed the state it undid on")
	}
	// an action applied on the undone state does not write over the original's events
	again, err := got.Apply(events(mafia.Foul(5)), "19:50:00")
	if err != nil || again.Record.Events[2].Type != mafia.EvFoul || st.Record.Events[2].Type != mafia.EvNominate {
		t.Errorf("applying after an undo: %v; the original's third event is %v", err, st.Record.Events[2].Type)
	}
	applied, _ := before.Apply(events(mafia.Foul(5)), "19:50:00")
	if undone, err := applied.Undo(); err != nil || !reflect.DeepEqual(undone.Play.Next(), before.Play.Next()) || undone.Play.Fouls(5) != 0 {
		t.Errorf("a foul applied then undone: %v", err)
	}
	empty := timed(t)
	if same, err := empty.Undo(); err == nil || same != empty {
		t.Errorf("an undo with no events: %v", err)
	}
}

// TestReadIsTheRecordsReplay: the engine's input, the record as the server encodes it, reads to the same game as
// the record replayed directly, result and points included.
func TestReadIsTheRecordsReplay(t *testing.T) {
	evs := events(join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Day(),
		mafia.BestMove(1, 7, 9, 10), mafia.Foul(2))...)
	evs = append(evs,
		record.Event{Event: mafia.Disqualify(7), Reason: "insult", During: mafia.During{Kind: mafia.DuringLastWord, Seat: 1}},
		record.Event{Event: mafia.Disqualify(9), Reason: "insult", During: mafia.During{Kind: mafia.DuringLastWord, Seat: 1}})
	seats := make([]record.Seat, len(tenRoles))
	for i, r := range tenRoles {
		seats[i] = record.Seat{Seat: i + 1, Role: r, Name: "P" + string(rune('A'+i))}
	}
	rec, err := record.Build("fiim-2025-club", nil, seats, evs)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if !direct.Finished() {
		t.Fatal("the fixture's game is not over")
	}
	st, err := Read(Input{Game: 7, Version: int64(len(evs)), Live: true, Record: record.Encode(rec), Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.Play.Result(), direct.Result(); !reflect.DeepEqual(got, want) {
		t.Errorf("read: %+v\nreplayed: %+v", got, want)
	}
	if len(st.Record.Events) != len(evs) || st.Record.Events[len(evs)-1].Reason != "insult" || st.Record.Events[len(evs)-1].During != evs[len(evs)-1].During {
		t.Errorf("the events read lost the reason or the moment: %+v", st.Record.Events[len(evs)-1])
	}
	if _, err := Read(Input{Record: []byte(`{"format": 1}`)}); err == nil {
		t.Error("a broken record was read")
	}
}

func form(kv ...string) url.Values {
	f := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Add(kv[i], kv[i+1])
	}
	return f
}

// TestEventsFromForm: the host's form read as the server reads it; a form that cannot be read is a *FormError.
func TestEventsFromForm(t *testing.T) {
	night := join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night()) // #3 (black) has left
	st := game(t, "fiim-2025-club", tenRoles, night...)
	got, err := EventsFromForm(form("type", "shoot_all", "target", "5"), st.Play)
	if err != nil || !reflect.DeepEqual(got, unanimous(mafia.Shot(7, 5), mafia.Shot(9, 5))) {
		t.Errorf("all at #5: %+v (%v), want #7's and #9's shots", got, err)
	}
	st = game(t, "fiim-2025-club", tenRoles, join(night, mafia.Shot(7, 5))...)
	got, err = EventsFromForm(form("type", "shoot_all", "target", "5"), st.Play)
	if err != nil || !reflect.DeepEqual(got, unanimous(mafia.Shot(9, 5))) {
		t.Errorf("all at #5 after #7 shot: %+v (%v), want #9's shot only", got, err)
	}
	// both have shot; the engine's next actor is the don, for his check: no second shot in his name
	st = game(t, "fiim-2025-club", tenRoles, join(night, mafia.Shot(7, 5), mafia.Shot(9, 5))...)
	if got, err := EventsFromForm(form("type", "shoot_all", "target", "5"), st.Play); !isFormError(err) {
		t.Errorf("all at #5 with nobody left to shoot: %+v %v, want a form error", got, err)
	}
	// a night whose order wakes the doctor first: the blacks have not shot, and the doctor does not shoot
	opts := map[string]json.RawMessage{"night_order": json.RawMessage(`["doctor","mafia","commissar"]`), "default_vote_to_last": json.RawMessage(`false`),
		"tie_model": json.RawMessage(`"lift"`), "reveal_on_elimination": json.RawMessage(`false`), "last_word": json.RawMessage(`true`),
		"doctor_self_heal": json.RawMessage(`false`), "doctor_repeat_target": json.RawMessage(`false`)}
	roles := []mafia.Role{mafia.Mafia, mafia.Citizen, mafia.Mafia, mafia.Doctor, mafia.Commissar, mafia.Citizen, mafia.Citizen}
	st = gameWith(t, "home-doctor", opts, roles, join(mafia.Day(), speeches(1, 7), mafia.Night())...)
	if got, err := EventsFromForm(form("type", "shoot_all", "target", "6"), st.Play); err != nil || !reflect.DeepEqual(got, unanimous(mafia.Shot(1, 6), mafia.Shot(3, 6))) {
		t.Errorf("all at #6 while the doctor is awake first: %+v (%v), want #1's and #3's shots", got, err)
	} else if _, err := st.Apply(got, "23:00:00"); err != nil {
		t.Errorf("the engine refuses the shots: %v", err)
	}

	day := game(t, "fiim-2025-club", tenRoles, mafia.Day(), mafia.Speech(1)).Play
	if got, err := EventsFromForm(form("type", "nominate", "by", "1", "target", "3", "note", "  loud  "), day); err != nil ||
		len(got) != 1 || got[0].Event != mafia.Nominate(1, 3) || got[0].Note != "loud" {
		t.Errorf("a nomination: %+v (%v)", got, err)
	}
	if got, err := EventsFromForm(form("type", "vote", "target", "3", "voters", "1", "voters", "2", "voters", "1"), day); err != nil ||
		len(got) != 1 || got[0].Event != mafia.Vote(3, 1, 2) {
		t.Errorf("a vote with a hand ticked twice: %+v (%v)", got, err)
	}
	if got, err := EventsFromForm(form("type", "best_move", "by", "1", "targets", "7", "targets", "9"), day); err != nil ||
		len(got) != 1 || got[0].Event != mafia.BestMove(1, 7, 9) {
		t.Errorf("a best move of two: %+v (%v)", got, err)
	}
	for name, f := range map[string]url.Values{
		"a seat past the table":      form("type", "foul", "seat", "11"),
		"seat 0":                     form("type", "foul", "seat", "0"),
		"no seat":                    form("type", "foul"),
		"a seat that is no number":   form("type", "speech", "seat", "two"),
		"a target past the table":    form("type", "nominate", "by", "1", "target", "12"),
		"a voter past the table":     form("type", "vote", "target", "3", "voters", "1", "voters", "11"),
		"a shot at nobody":           form("type", "shoot_all"),
		"an unknown action":          form("type", "fly"),
		"no action":                  form(),
		"a disqualification, no why": form("type", "disqualify", "seat", "3"),
		"a blank reason":             form("type", "disqualify", "seat", "3", "reason", "   "),
		"a team loss, no why":        form("type", "team_loss", "seat", "3"),
		"points that are no number":  form("type", "adjust", "seat", "3", "points", "lots"),
		"a reason too long":          form("type", "disqualify", "seat", "3", "reason", strings.Repeat("ї", record.MaxEventText+1)),
		"a note too long":            form("type", "foul", "seat", "3", "note", strings.Repeat("a", record.MaxEventText+1)),
	} {
		if got, err := EventsFromForm(f, day); !isFormError(err) || got != nil {
			t.Errorf("%s: %+v %v, want a *FormError and no events", name, got, err)
		}
	}
	if got, err := EventsFromForm(form("type", "disqualify", "seat", "3", "reason", " insult "), day); err != nil || len(got) != 1 || got[0].Reason != "insult" {
		t.Errorf("a disqualification with a reason: %+v (%v)", got, err)
	}
	if got, err := EventsFromForm(form("type", "adjust", "seat", "3", "points", "-0.3"), day); err != nil || len(got) != 1 || got[0].Points != -30 {
		t.Errorf("-0.3 points: %+v (%v)", got, err)
	}
}

func isFormError(err error) bool {
	var fe *FormError
	return errors.As(err, &fe) && fe.Error() != ""
}

// TestEventsFromFormLimits: a reason or note longer than the club's bound (in characters, not bytes) is refused
// when the form is read, before the browser's engine draws and keeps what the server would refuse.
func TestEventsFromFormLimits(t *testing.T) {
	cat := catalog(t)
	day := game(t, "fiim-2025-club", tenRoles, mafia.Day(), mafia.Speech(1)).Play
	long := strings.Repeat("ї", record.MaxEventText) // 1,000 bytes, 500 characters: allowed
	if got, err := EventsFromForm(form("type", "disqualify", "seat", "3", "reason", long, "note", long), day); err != nil || len(got) != 1 || got[0].Reason != long {
		t.Errorf("a reason of %d characters: %v", record.MaxEventText, err)
	}
	_, err := EventsFromForm(form("type", "team_loss", "seat", "3", "reason", long+"ї"), day)
	for _, lang := range i18n.Languages {
		msg, _ := cat.Msg(lang, "a reason or note is at most %d characters", record.MaxEventText)
		want := cat.T(lang, "error.invalid", msg)
		if got, _ := ErrorText(cat, lang, err); got != want || strings.Contains(got, "[") {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

// TestBestMoveCountIsTheEngines: the form reads the seats a best move names, as given (a seat named twice too); how
// many and which it may name is the engine's rule (R56), whose refusal the page says in the catalogue's words.
func TestBestMoveCountIsTheEngines(t *testing.T) {
	cat := catalog(t)
	morning := game(t, "fiim-2025-club", tenRoles, join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(),
		mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Day())...)
	for name, f := range map[string]url.Values{
		"four seats":   form("type", "best_move", "by", "1", "targets", "2", "targets", "4", "targets", "5", "targets", "6"),
		"none":         form("type", "best_move", "by", "1"),
		"a seat twice": form("type", "best_move", "by", "1", "targets", "2", "targets", "2", "targets", "3"),
	} {
		events, err := EventsFromForm(f, morning.Play)
		if err != nil {
			t.Errorf("%s: the form was not read: %v", name, err)
			continue
		}
		_, err = morning.Apply(events, "19:00:00")
		if !errors.Is(err, mafia.ErrBadBestMove) {
			t.Errorf("%s: the engine answers %v, want %v", name, err, mafia.ErrBadBestMove)
			continue
		}
		if got, _ := ErrorText(cat, "uk", err); !strings.HasPrefix(got, cat.T("uk", "rule.bad_best_move")) {
			t.Errorf("%s: the page says %q", name, got)
		}
	}
	events, err := EventsFromForm(form("type", "best_move", "by", "1", "targets", "7", "targets", "9", "targets", "10"), morning.Play)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := morning.Apply(events, "19:00:00"); err != nil {
		t.Errorf("a best move of three: %v", err)
	}
}

// TestFormMessagesTranslated: every message the form reader gives (formErr's format) is a catalogue key ("msg:"
// and the format) in every language, and a form's error says nothing in English where the language is another:
// points that are no number give the catalogue's words, not the parser's.
func TestFormMessagesTranslated(t *testing.T) {
	cat := catalog(t)
	re := regexp.MustCompile(`formErr\("((?:[^"\\]|\\.)*)"`)
	n := 0
	for _, f := range []string{"form.go", "input.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			n++
			format, _ := strconv.Unquote(`"` + m[1] + `"`)
			for _, lang := range i18n.Languages {
				_, plain := cat[lang]["msg:"+format]
				if _, plural := cat[lang]["msg:"+format+".n"]; !plain && !plural {
					t.Errorf("%s: %q has no %s translation", f, format, lang)
				}
			}
		}
	}
	if n < 8 {
		t.Fatalf("found only %d messages: the scan is broken", n)
	}
	day := game(t, "fiim-2025-club", tenRoles, mafia.Day(), mafia.Speech(1)).Play
	_, err := EventsFromForm(form("type", "adjust", "seat", "3", "points", "lots"), day)
	for _, lang := range []string{"uk", "ru"} {
		if got, ok := ErrorText(cat, lang, err); !ok || strings.Contains(got, "lots") || strings.Contains(got, "number") || strings.Contains(got, "[") {
			t.Errorf("%s: the points' error %q is not the catalogue's", lang, got)
		}
	}
}
