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

// TestDeltaBounded: a long view with one line changed still gets a small delta (the lines both views share at
// their start and end are not diffed), and a view changed throughout beyond the diff's bound is sent whole (nil)
// rather than costing a table of its length squared.
func TestDeltaBounded(t *testing.T) {
	old := make([]string, 5000)
	for i := range old {
		old[i] = "line " + strconv.Itoa(i)
	}
	cur := slices.Clone(old)
	cur[2500] = "changed"
	f := NewDelta("b", "a", old, cur)
	if f == nil || len(f.wire) > 200 {
		t.Fatalf("one line of 5,000 changed: delta %v", f)
	}
	if _, got, ok := ApplyDelta(old, []byte(strings.SplitN(string(f.wire), "data: ", 2)[1])); !ok || !slices.Equal(got, cur) {
		t.Fatalf("the delta does not give the new view")
	}
	all := make([]string, 1000)
	for i := range all {
		all[i] = "other " + strconv.Itoa(i)
	}
	if d := diffLines(old[:1000], all); d != nil {
		t.Errorf("1,000 lines all changed were diffed (%d ops) past the bound of %d cells", len(d), maxDiffCells)
	}
}
