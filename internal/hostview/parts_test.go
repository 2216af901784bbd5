package hostview

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// walkPages plays games random games of every rule set (the table's roles of refusalTables), and at every state calls
// page with the state and each action's state the engine would accept next (the pages the browser's engine draws
// ahead), in every language. The games advance mostly by the plan's next event.
func walkPages(t *testing.T, games int, page func(name string, st *State)) {
	t.Helper()
	for gi := 0; gi < games*len(refusalTables()); gi++ {
		tab := refusalTables()[gi%len(refusalTables())]
		rng := rand.New(rand.NewPCG(uint64(gi), 7))
		all := battery(len(tab.roles))
		seats := make([]record.Seat, len(tab.roles))
		for i, r := range tab.roles {
			seats[i] = record.Seat{Seat: i + 1, Role: r, Name: fmt.Sprintf("P<%d>&", i+1)}
		}
		// every option the rule set leaves to the host decided, as a record writes it
		options := map[string]json.RawMessage{}
		for key, v := range decisions(tab.rules, tab.roles, int(tab.seed)) {
			info, _ := tab.rules.Option(key)
			switch info.Kind {
			case mafia.OptBool:
				options[key], _ = json.Marshal(v.Bool)
			case mafia.OptList:
				options[key], _ = json.Marshal(v.List)
			case mafia.OptChoice:
				options[key], _ = json.Marshal(v.Choice)
			}
		}
		rec, err := record.Build(tab.rules.ID, options, seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		play, err := rec.Replay()
		if err != nil {
			t.Fatal(err)
		}
		lang := []string{"uk", "en", "ru"}[gi%3]
		st := &State{In: Input{Game: 7, Base: "/c/x", Live: true, Page: gi%2 == 0, Lang: lang}, Record: rec, Play: play}
		for step := 0; step < 120 && !st.Play.Finished(); step++ {
			var accepted []*State
			for _, e := range all {
				if rng.IntN(8) != 0 {
					continue
				}
				if next, err := st.Apply([]record.Event{{Event: e}}, "19:00:01"); err == nil {
					accepted = append(accepted, next)
				}
			}
			page(fmt.Sprintf("%d-%s-%d-%03d", gi, tab.rules.ID, int(tab.seed), step), st)
			for i, next := range accepted {
				page(fmt.Sprintf("%d-%s-%d-%03d-%02d", gi, tab.rules.ID, int(tab.seed), step, i), next)
			}
			// the game goes on by the plan's next event (a random one the engine takes), seldom by another
			next := st.Play.Next()
			want := mafia.EventType(0)
			for _, p := range next.Plan() {
				if p.Event != mafia.NoEvent && !p.Current {
					want = p.Event
					break
				}
			}
			var ahead *State
			for _, k := range rng.Perm(len(all)) {
				if want != 0 && all[k].Type == want {
					if next, err := st.Apply([]record.Event{{Event: all[k]}}, "19:00:02"); err == nil {
						ahead = next
						break
					}
				}
			}
			if ahead == nil && os.Getenv("DBG") != "" {
				t.Logf("%s step %d: no %v (finished %v)", tab.rules.ID, step, want, st.Play.Finished())
			}
			if (ahead == nil || rng.IntN(10) == 0) && len(accepted) > 0 {
				if other := accepted[rng.IntN(len(accepted))]; !other.Play.Finished() || rng.IntN(10) == 0 {
					ahead = other
				}
			}
			if ahead == nil {
				continue
			}
			st = ahead
		}
		page(fmt.Sprintf("%d-%s-%d-end", gi, tab.rules.ID, int(tab.seed)), st)
	}
}

// TestDumpPages writes every page walkPages draws to MAFIACLUB_DUMP_PAGES (a directory), to compare the drawing of
// two versions of the code byte for byte. Without it, it does nothing.
func TestDumpPages(t *testing.T) {
	dir := os.Getenv("MAFIACLUB_DUMP_PAGES")
	if dir == "" {
		t.Skip("MAFIACLUB_DUMP_PAGES is not set")
	}
	cat := catalog(t)
	n := 0
	walkPages(t, 3, func(name string, st *State) {
		var b strings.Builder
		if err := Render(&b, Build(st, cat, func() string { return "k" })); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".html"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	})
	t.Logf("%d pages", n)
}

// TestPartCacheDrawsTheSamePage: a page drawn with parts from a PartCache (the cards, the discipline's forms, the
// points' rows, the chronology) is the page drawn without it, byte for byte, through random games of every rule
// set in every language (each state and the states of the actions drawn ahead of it, one cache for all of them, so
// that its parts come from other pages and other games and its generations turn over); the cache stays within its
// bounds.
func TestPartCacheDrawsTheSamePage(t *testing.T) {
	cat := catalog(t)
	var c PartCache
	pages := 0
	walkPages(t, 1, func(name string, st *State) {
		v := Build(st, cat, func() string { return "" })
		var plain, cached strings.Builder
		if err := Render(&plain, v); err != nil {
			t.Fatal(err)
		}
		if err := RenderCached(&cached, v, &c); err != nil {
			t.Fatal(err)
		}
		if plain.String() != cached.String() {
			t.Fatalf("%s: the page drawn with cached cards differs:\n%s", name, firstDifference(plain.String(), cached.String()))
		}
		if n := c.cards.len(); n > 2*cardCacheSize {
			t.Fatalf("the cache holds %d cards, over its bound of %d", n, 2*cardCacheSize)
		}
		if n := c.sections.len(); n > 2*cardCacheSize/16 {
			t.Fatalf("the cache holds %d other parts, over its bound of %d", n, 2*cardCacheSize/16)
		}
		pages++
	})
	if c.cards.old == nil {
		t.Fatal("the cache never turned a generation over: the test does not reach its bound")
	}
	// most of a page's cards are those of the page it was drawn ahead of, or of the one before
	if c.cards.hits < 2*c.cards.misses {
		t.Fatalf("%d cards taken from the cache, %d drawn: the cache is not used", c.cards.hits, c.cards.misses)
	}
	if c.sections.hits < c.sections.misses {
		t.Fatalf("%d other parts taken from the cache, %d drawn: the cache is not used", c.sections.hits, c.sections.misses)
	}
	t.Logf("%d pages: %d cards taken from the cache, %d drawn; %d other parts taken, %d drawn", pages,
		c.cards.hits, c.cards.misses, c.sections.hits, c.sections.misses)
}

// TestSectionKeysAreTheirData: a part drawn by Section is keyed by its data printed in full (%#v), which is its
// drawing's whole key only if the data holds values: a pointer prints as an address (the same address, changed
// underneath, would give a stale part), and a function or channel as nothing it draws. Every type a Section's data
// has, and a card's key, holds strings, numbers, booleans, and structs and lists of them only.
func TestSectionKeysAreTheirData(t *testing.T) {
	var check func(path string, ty reflect.Type)
	check = func(path string, ty reflect.Type) {
		switch ty.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		case reflect.Slice, reflect.Array:
			check(path+"[]", ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				f := ty.Field(i)
				if path == "cardKey.S" && f.Name == "P" {
					continue // set to nil in the key: the card's page is the key's P
				}
				check(path+"."+f.Name, f.Type)
			}
		default:
			t.Errorf("%s is a %s: it does not print as what it draws", path, ty.Kind())
		}
	}
	for name, v := range map[string]any{"DisciplineView": DisciplineView{}, "[]PointsRow": []PointsRow{}, "[]ChronoLine": []ChronoLine{}, "cardKey": cardKey{}} {
		check(name, reflect.TypeOf(v))
	}
}

func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("without the cache: …%s…\nwith it:           …%s…", a[from:min(len(a), i+200)], b[from:min(len(b), i+200)])
}
