package live

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDeltaRoundTrip: applying a delta to the old view gives the new one, for random edits of random views, and a
// delta of a small change is small.
func TestDeltaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 500; n++ {
		var old []string
		for i := r.IntN(40); i > 0; i-- {
			old = append(old, "line "+strconv.Itoa(r.IntN(10)))
		}
		cur := slices.Clone(old)
		for e := r.IntN(5); e > 0; e-- {
			switch at := r.IntN(len(cur) + 1); r.IntN(3) {
			case 0:
				cur = slices.Insert(cur, at, "new "+strconv.Itoa(r.IntN(100)))
			case 1:
				if at < len(cur) {
					cur = slices.Delete(cur, at, at+1)
				}
			default:
				if at < len(cur) {
					cur[at] = "changed " + strconv.Itoa(r.IntN(100))
				}
			}
		}
		b, _ := json.Marshal(deltaData{Base: "a", Ops: diffLines(old, cur)})
		base, got, ok := ApplyDelta(old, b)
		if !ok || base != "a" || !slices.Equal(got, cur) && !(len(got) == 0 && len(cur) == 0) {
			t.Fatalf("%q -> %q: delta %s gives %q (ok %v)", old, cur, b, got, ok)
		}
	}
	view := make([]string, 40)
	for i := range view {
		view[i] = strings.Repeat("seat ", 10) + strconv.Itoa(i)
	}
	next := slices.Clone(view)
	next[3] = "the step changed"
	next = slices.Insert(next, 30, "a new line of the chronology")
	f := NewDelta("b", "a", view, next)
	if f == nil || len(f.Bytes()) > 300 {
		t.Fatalf("a two-line change: %v", f)
	}
	if _, _, ok := ApplyDelta(view[:10], []byte(`{"base":"a","ops":[["k",11]]}`)); ok {
		t.Fatal("a delta for a longer view applied")
	}
}
