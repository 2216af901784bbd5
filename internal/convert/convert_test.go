package convert

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"mafiaclub/internal/i18n"
)

// messageCalls are the functions whose format argument (by index) is a message an interface says in its reader's
// language, and whose where argument (-1: none) names a place in the file.
var messageCalls = map[string]struct{ format, where int }{
	"inputErr": {1, 0},
	"gameErr":  {1, 0},
	"phrase":   {0, -1},
}

// fieldPath is what a Where says as the file spells it: field names, indexes, dots, and the parentheses around
// a where phrase.
var fieldPath = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*|\[\d*\]|\.| ?\(|\))*$`)

// sourceMessages reads this package's code (every file but the tests, whoever wrote it) with go/ast and returns
// the message formats it makes, each with where it is, and the Where formats it builds (fieldf, and the literal
// where of an error).
func sourceMessages(t *testing.T) (formats, wheres map[string]string) {
	t.Helper()
	formats, wheres = map[string]string{}, map[string]string{}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			id, ok := call.Fun.(*ast.Ident)
			if !ok {
				return true
			}
			pos := fset.Position(call.Pos()).String()
			literal := func(i int) (string, bool) {
				if i < 0 || i >= len(call.Args) {
					return "", false
				}
				lit, ok := call.Args[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return "", false
				}
				s, err := strconv.Unquote(lit.Value)
				return s, err == nil
			}
			if id.Name == "fieldf" {
				if s, ok := literal(0); ok {
					wheres[s] = pos
				} else {
					t.Errorf("%s: fieldf's format is not a literal: no test can see its words", pos)
				}
				return true
			}
			c, ok := messageCalls[id.Name]
			if !ok {
				return true
			}
			s, ok := literal(c.format)
			if !ok {
				t.Errorf("%s: %s's format is not a literal: no test can see that it is translated", pos, id.Name)
				return true
			}
			formats[s] = pos
			if w, ok := literal(c.where); ok {
				wheres[w] = pos
			}
			return true
		})
	}
	if len(formats) < 100 {
		t.Fatalf("found only %d message formats: the source was not read", len(formats))
	}
	return formats, wheres
}

// TestEveryMessageIsTranslated: every message an importer (or the exporter) makes with inputErr, gameErr or
// phrase, and every phrase a Where says beside its field path, has its entry "convert:" + format (or the plural
// "convert:" + format + ".n") in every catalogue (internal/web/i18n/{uk,en,ru}.convert.json), so the site's
// import page says it in its reader's language. A Where made with fieldf says words only as wherePhrases. A new
// message without its translations fails here.
func TestEveryMessageIsTranslated(t *testing.T) {
	cat, err := i18n.Load(os.DirFS(filepath.Join("..", "web", "i18n")))
	if err != nil {
		t.Fatal(err)
	}
	formats, wheres := sourceMessages(t)
	for _, f := range wherePhrases {
		formats[f] = "wherePhrases"
	}
	var missing []string
	for f, pos := range formats {
		if !cat.Has("convert:"+f) && !cat.Has("convert:"+f+".n") {
			missing = append(missing, pos+": "+strconv.Quote(f))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("no translation in every catalogue for %s", m)
	}
	for w, pos := range wheres {
		sample := strings.NewReplacer("%d", "1", "%s", "x", "%q", "x", "%v", "x").Replace(w)
		for _, part := range Place(sample) {
			if s, ok := part.(string); ok && !fieldPath.MatchString(s) {
				t.Errorf("%s: the Where %q says %q, which is neither the file's field path nor one of wherePhrases", pos, w, s)
			}
		}
	}
}

// TestPlace: a Where's words are found beside the file's field path, and only there.
func TestPlace(t *testing.T) {
	for _, c := range []struct {
		where string
		want  []any
	}{
		{"players[0] (seat 1).role", []any{"players[0] (", phrase("seat %d", 1), ").role"}},
		{"day 2", []any{phrase("day %d", 2)}},
		{"votes[3] (day 2, seat 7).num", []any{"votes[3] (", phrase("day %d, seat %d", 2, 7), ").num"}},
		{"votes (day 1, round 2)", []any{"votes (", phrase("day %d, round %d", 1, 2), ")"}},
		{"players", []any{"players"}},
		{"players[0] (not a phrase).x", []any{"players[0] (not a phrase)", ".x"}},
	} {
		got := Place(c.where)
		var joined strings.Builder
		for _, p := range got {
			joined.WriteString(toString(p))
		}
		if joined.String() != c.where || len(got) != len(c.want) {
			t.Errorf("%q: %#v", c.where, got)
			continue
		}
		for i := range got {
			if toString(got[i]) != toString(c.want[i]) {
				t.Errorf("%q part %d: %#v, want %#v", c.where, i, got[i], c.want[i])
			}
			if _, isPhrase := c.want[i].(Phrase); isPhrase {
				if _, ok := got[i].(Phrase); !ok {
					t.Errorf("%q part %d: %#v is not a phrase", c.where, i, got[i])
				}
			}
		}
	}
}

func toString(p any) string {
	if ph, ok := p.(Phrase); ok {
		return ph.String()
	}
	return p.(string)
}
