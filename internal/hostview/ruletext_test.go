package hostview

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// ruleID matches what a host must never read in a message (issue 24): the matrix's rows (R43, C-03, "R86-R94"), the
// seeds' points and lines ("§T6.1", "000 L105", "2.6.4"), an engine or platform option's name (liftOnly,
// doctor_self_heal) and the reference brackets RuleText used to append ("[R56]").
var ruleID = regexp.MustCompile(`\bR\d\d\b|\bC-\d\d\b|§|\bL\d+\b|\b\d+\.\d+\.\d+\b|\b[a-z]+[A-Z]\w*\b|\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\[`)

// optionNames are every option's key of every rule set, and the platforms' option names the catalogues once quoted.
func optionNames() []string {
	names := []string{"liftOnly"}
	for _, rs := range mafia.RuleSets() {
		names = append(names, rs.OptionKeys()...)
	}
	return names
}

// refusalWords fails when a refusal's text names a rule by its id or an option by its name.
func refusalWords(t *testing.T, what, text string) {
	t.Helper()
	if m := ruleID.FindString(text); m != "" {
		t.Errorf("%s: %q names %q", what, text, m)
	}
	for _, o := range optionNames() {
		if strings.Contains(text, o) {
			t.Errorf("%s: %q names the option %s", what, text, o)
		}
	}
}

// TestRuleTextSaysTheRuleInWords: every refusal the engine can give (each RuleError code) reads, in each language,
// as the catalogue's words with the seat it concerns: no rule id ("[R15, R16]", "000 L105, C-03"), no option's name
// ("R49, doctor_self_heal"), no English detail in another language. The engine is driven into its refusals: random
// games of every rule set, and at each state a battery of events most of which it refuses; each refusal it gives is
// said by RuleText in each language. A code the drive does not reach is said from a Violation built as the engine
// builds one, with its reference and an English detail that names an id and an event type.
func TestRuleTextSaysTheRuleInWords(t *testing.T) {
	cat := catalog(t)
	seen := map[string]error{} // the engine's refusals, one per distinct text
	codes := map[string]bool{}
	add := func(what string, err error) {
		var re *mafia.RuleError
		if !errors.As(err, &re) {
			t.Fatalf("%s: a refusal that is no rule error: %v", what, err)
		}
		codes[re.Code] = true
		if _, ok := seen[err.Error()]; !ok {
			seen[err.Error()] = err
		}
	}
	for _, c := range refusalTables() {
		driveRefusals(c.rules, c.roles, c.seed, func(err error) { add(c.rules.ID, err) })
	}
	for code, err := range scriptedRefusals(t) {
		var re *mafia.RuleError
		if !errors.As(err, &re) || re.Code != code {
			t.Errorf("the game played for %s is refused with %v", code, err)
		}
		add(code, err)
	}
	// the refusals of a game's summary (mafia.SummaryPoints), which the import of a club's old protocols says
	xcraft, _ := mafia.RuleSet("fiim-xcraft")
	club, _ := mafia.RuleSet(mafia.DefaultRuleSetID)
	c, s, m, d := mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don
	ten := []mafia.Role{c, c, s, c, m, c, d, c, m, c}
	for _, x := range []struct {
		r  *mafia.Rules
		sm mafia.Summary
	}{
		{club, mafia.Summary{Roles: ten}},
		{xcraft, mafia.Summary{Roles: ten, Winner: mafia.RedWins, ClubExtras: []int{5}}},
		{club, mafia.Summary{Roles: []mafia.Role{c, c, c, c, c, m, d}, Winner: mafia.RedWins, DonFound: 1}},
	} {
		_, err := mafia.SummaryPoints(x.r, x.r.DefaultOptions(), x.sm)
		add("summary", err)
	}
	for _, err := range seen {
		var re *mafia.RuleError
		errors.As(err, &re)
		for _, lang := range i18n.Languages {
			text := RuleText(cat, lang, err, re)
			refusalWords(t, lang+", "+err.Error(), text)
			if !strings.HasPrefix(text, cat.T(lang, "rule."+re.Code)) {
				t.Errorf("%s: %q does not start with the catalogue's words for %s", lang, text, re.Code)
			}
			if got, ok := ErrorText(cat, lang, err); !ok || got != text {
				t.Errorf("%s: the browser's engine says %q, the server %q", lang, got, text)
			}
		}
	}
	var missed []string
	for _, re := range mafia.RuleErrors() {
		if !codes[re.Code] {
			missed = append(missed, re.Code)
		}
		for _, lang := range i18n.Languages {
			if _, ok := cat[lang]["rule."+re.Code]; !ok {
				t.Errorf("%s: no rule.%s", lang, re.Code)
			}
			bare := RuleText(cat, lang, re, re)
			refusalWords(t, lang+", "+re.Code, bare)
			v := &mafia.Violation{RuleError: re, Seat: 4, Target: 7, Detail: "best_move after the end (R56, C-03)"}
			text := RuleText(cat, lang, v, re)
			refusalWords(t, lang+", "+re.Code+" with a seat", text)
			if want := cat.T(lang, "rule."+re.Code) + " (#4)"; text != want {
				t.Errorf("%s, %s: %q, want %q", lang, re.Code, text, want)
			}
		}
	}
	sort.Strings(missed)
	// shooting_over: the engine defines it, and never gives it
	if want := []string{"shooting_over"}; !slices.Equal(missed, want) {
		t.Errorf("the drive reached %d of %d codes; not reached: %v, want only %v", len(codes), len(mafia.RuleErrors()), missed, want)
	}
	t.Logf("%d codes reached, %d distinct refusals said in %d languages", len(codes), len(seen), len(i18n.Languages))
}

type refusalTable struct {
	rules *mafia.Rules
	roles []mafia.Role
	seed  uint64
}

// refusalTables are the games the drive plays: each rule set at ten seats, the home rule sets with and without
// their special roles.
func refusalTables() []refusalTable {
	C, S, M, D := mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don
	K, Dr := mafia.Commissar, mafia.Doctor
	sport := []mafia.Role{C, C, M, C, S, C, D, C, M, C}
	var out []refusalTable
	for _, rs := range mafia.RuleSets() {
		switch rs.ID {
		case "home-ua":
			out = append(out, refusalTable{rs, []mafia.Role{C, C, M, C, K, C, M, C, M, C}, 1}, refusalTable{rs, []mafia.Role{C, C, M, C, K, C, M, C, M, C}, 2})
		case "home-doctor":
			out = append(out, refusalTable{rs, []mafia.Role{C, C, M, C, K, Dr, D, C, M, C}, 3}, refusalTable{rs, []mafia.Role{C, C, M, C, C, Dr, D, C, M, C}, 4})
		default:
			out = append(out, refusalTable{rs, sport, 10}, refusalTable{rs, sport, 11})
		}
	}
	return out
}

// decided is the rule set's default options with every option it leaves to the host decided: booleans by odd,
// a choice by k, the night order of the roles at the table.
func decided(rs *mafia.Rules, roles []mafia.Role, k int) mafia.Options {
	opt := rs.DefaultOptions()
	for key, v := range decisions(rs, roles, k) {
		if err := opt.Set(key, v); err != nil {
			panic(err)
		}
	}
	return opt
}

// decisions are decided's values of the options the rule set leaves to the host.
func decisions(rs *mafia.Rules, roles []mafia.Role, k int) map[string]mafia.OptionValue {
	out := map[string]mafia.OptionValue{}
	for _, key := range rs.OptionKeys() {
		info, _ := rs.Option(key)
		if !info.Required {
			continue
		}
		v := info.Default
		switch info.Kind {
		case mafia.OptBool:
			v.Bool = k%2 == 1 // the doctor may protect himself, or not
		case mafia.OptChoice:
			v.Choice = info.Choices[k%len(info.Choices)]
		case mafia.OptList: // the night order: the mafia and the roles at the table
			v.List = nil
			for _, c := range info.Choices {
				if c == "mafia" || slices.ContainsFunc(roles, func(r mafia.Role) bool { return r.String() == c }) {
					v.List = append(v.List, c)
				}
			}
		}
		out[key] = v
	}
	return out
}

// battery is the events offered to the engine at each state: every kind, for seats in and out of the table.
func battery(n int) []mafia.Event {
	var out []mafia.Event
	for s := 0; s <= n+1; s++ {
		out = append(out, mafia.Speech(s), mafia.Foul(s), mafia.Warning(s), mafia.Disqualify(s), mafia.TeamLoss(s),
			mafia.Adjust(s, 10), mafia.Adjust(s, 20), mafia.Adjust(s, 0), mafia.Adjust(s, -30), mafia.Adjust(s, 50), mafia.Adjust(s, 70),
			mafia.Adjust(s, 1001), mafia.BestMove(s), mafia.BestMove(s, s), mafia.BestMove(s, 1, 2, 3, 4), mafia.VoteRest(s),
			mafia.Vote(s, s), mafia.Vote(s, 1, 1+s%n), mafia.Vote(s, n+1))
		for x := 0; x <= n+1; x++ {
			out = append(out, mafia.Nominate(s, x), mafia.Shot(s, x), mafia.Check(s, x), mafia.Heal(s, x), mafia.BestMove(s, x, x%n+1))
		}
	}
	return append(out, mafia.Day(), mafia.Night(), mafia.DeclareDraw(), mafia.Lift(), mafia.Lift(1, 2, 3), mafia.Event{Type: mafia.EventType(99)})
}

// driveRefusals plays random games of the rule set and, at every state, offers the engine a random part of the
// battery; refused is called with each refusal. The games advance by the events the engine accepts, mostly the
// plan's next event, seldom one that ends the game at once.
func driveRefusals(rs *mafia.Rules, roles []mafia.Role, seed uint64, refused func(error)) {
	rng := rand.New(rand.NewPCG(seed, 24))
	all := battery(len(roles))
	for game := 0; game < 6; game++ {
		g, err := mafia.NewGame(rs, decided(rs, roles, game), roles)
		if err != nil {
			panic(err)
		}
		for step := 0; step < 300; step++ {
			var accepted []mafia.Event
			plan := g.Next()
			for _, e := range all {
				if rng.IntN(6) != 0 {
					continue
				}
				if err := g.Clone().Apply(e); err != nil {
					refused(err)
				} else {
					accepted = append(accepted, e)
				}
			}
			var next []mafia.Event
			for _, e := range accepted {
				if p := plan.Plan(); len(p) > 0 && p[0].Event == e.Type {
					next = append(next, e)
				}
			}
			if len(next) == 0 || rng.IntN(6) == 0 {
				next = next[:0]
				for _, e := range accepted {
					if ender := e.Type == mafia.EvTeamLoss || e.Type == mafia.EvDisqualify || e.Type == mafia.EvDraw; !ender || rng.IntN(40) == 0 {
						next = append(next, e)
					}
				}
			}
			if len(next) == 0 {
				continue
			}
			if err := g.Apply(next[rng.IntN(len(next))]); err != nil {
				panic(err)
			}
			if g.Finished() && rng.IntN(8) == 0 {
				break
			}
		}
	}
}

// scriptedRefusals are refusals a random game seldom meets, each from a game played to the point where the engine
// gives it: the error is returned with the code it must have.
func scriptedRefusals(t *testing.T) map[string]error {
	t.Helper()
	C, S, M, D := mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don
	Dr := mafia.Doctor
	noSheriff := []mafia.Role{C, C, M, C, C, Dr, D, C, M, C}
	play := func(rules string, roles []mafia.Role, events ...mafia.Event) *mafia.Game {
		t.Helper()
		rs, _ := mafia.RuleSet(rules)
		g, err := mafia.NewGame(rs, decided(rs, roles, 0), roles)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range events {
			if err := g.Apply(e); err != nil {
				t.Fatalf("%s: event %d (%v): %v", rules, i, e.Type, err)
			}
		}
		return g
	}
	// passDay gives every speech the engine takes, in its order, until the city may fall asleep
	passDay := func(g *mafia.Game) {
		for range 20 {
			if err := g.Clone().Apply(mafia.Night()); err == nil || errors.Is(err, mafia.ErrTooLong) {
				return
			}
			for s := 1; s <= len(g.Result().Seats); s++ {
				g.Apply(mafia.Speech(s))
			}
		}
		t.Fatalf("the day does not end: %v", g.Clone().Apply(mafia.Night()))
	}
	sport := []mafia.Role{C, C, M, C, S, C, D, C, M, C}
	noms := join(mafia.Day(), mafia.Speech(1), mafia.Nominate(1, 3), mafia.Speech(2), mafia.Nominate(2, 7), speeches(3, 10))
	out := map[string]error{}
	try := func(code string, g *mafia.Game, e mafia.Event) {
		out[code] = g.Clone().Apply(e)
	}
	try("no_voting", play("fiim-2025-club", sport, join(mafia.Day(), speeches(1, 10))...), mafia.Vote(1))
	try("voted_twice", play("fiim-2025-club", sport, join(noms, mafia.Vote(3, 1, 2))...), mafia.Vote(7, 1))
	try("self_vote", play("fiim-2025-club", sport, noms...), mafia.Vote(3, 3))
	try("lift_due", play("fiim-2025-club", sport, join(noms, hands(3, 1, 2, 4, 5, 6), hands(7, 8), hands(3, 1, 2, 4, 5, 6), hands(7, 8))...), mafia.Vote(3, 1))
	firstShots := join(mafia.Day(), speeches(1, 10), mafia.Night(), mafia.Shot(3, 1), mafia.Shot(7, 1), mafia.Shot(9, 1))
	try("don_own_shot", play("fsm-2026", sport, firstShots...), mafia.Check(7, 1))
	night2 := join(mafia.Day(), speeches(1, 10), mafia.Night())
	try("no_sheriff", play("home-doctor", noSheriff, night2...), mafia.Check(7, 1))
	try("healed_twice", play("home-doctor", noSheriff, join(night2, mafia.Heal(6, 1))...), mafia.Heal(6, 2))
	try("self_heal", play("home-doctor", noSheriff, night2...), mafia.Heal(6, 6))
	g := play("home-doctor", noSheriff, join(night2, mafia.Heal(6, 1), mafia.Day())...)
	passDay(g)
	if err := g.Apply(mafia.Night()); err != nil {
		t.Fatal(err)
	}
	try("repeat_heal", g, mafia.Heal(6, 1))
	// a draw in X-Craft, as the golden game has it: no judge's extra points after it
	src, err := os.ReadFile(filepath.Join("..", "..", "mafia", "testdata", "golden", "fiim-xcraft", "draw-three-nights-three-days.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	_, js, _ := strings.Cut(string(src), "-- record.json --")
	js, _, _ = strings.Cut(js, "\n-- ")
	rec, err := record.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	draw, err := mafia.NewGame(rec.Rules, rec.Options, rec.Roles())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.Events {
		if draw.Finished() {
			break
		}
		if err := draw.Apply(e.Event); err != nil {
			t.Fatal(err)
		}
	}
	try("extra_on_draw", draw, mafia.Adjust(4, 30))
	// 250 nights without a kill: home-ua has no draw, and a night without a shot is a miss
	long := play("home-ua", []mafia.Role{C, C, M, C, mafia.Commissar, C, M, C, M, C})
	for range 300 {
		if err := long.Apply(mafia.Day()); err != nil {
			t.Fatal(err)
		}
		passDay(long)
		if err := long.Apply(mafia.Night()); err != nil {
			break
		}
	}
	try("too_long", long, mafia.Night())
	return out
}
