package web

import (
	"fmt"
	"html/template"
	"mafiaclub/internal/club"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"
)

// TestRatingValuesRoundTrip: the rating tables' cache key is the query written back (ratingValues); read again,
// it is the same query. A query field that ratingValues forgot would give two queries one key, and one reader
// another's table. The query in the test sets every field, so a new field fails here until it is written back.
func TestRatingValuesRoundTrip(t *testing.T) {
	s, err := New(club.NewServices(nil, club.NewClock(time.UTC, nil)))
	if err != nil {
		t.Fatal(err)
	}
	q := club.RatingQuery{RatingFilter: club.RatingFilter{Rules: "fsm-2026", From: time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC),
		To: time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC), MinGames: 5}, ByElo: true, Page: 3}
	var zero []string
	var walk func(reflect.Value, string)
	walk = func(v reflect.Value, at string) {
		for i := 0; i < v.NumField(); i++ {
			f, name := v.Field(i), at+v.Type().Field(i).Name
			if v.Type().Field(i).Anonymous {
				walk(f, name+".")
			} else if f.IsZero() {
				zero = append(zero, name)
			}
		}
	}
	walk(reflect.ValueOf(q), "")
	if len(zero) > 0 {
		t.Fatalf("the test's query leaves %v unset: set them, and write them back in ratingValues", zero)
	}
	got, err := s.ratingQuery(httptest.NewRequest("GET", "/rating?"+ratingValues(q).Encode(), nil))
	if err != nil || !reflect.DeepEqual(got, q) {
		t.Fatalf("read back: %+v (%v), want %+v", got, err, q)
	}
}

// TestTableCacheBounded: the rating tables' cache holds at most 256 tables; when full, the table asked for least
// recently makes room for the next, so a table readers keep asking for stays through a flood of new queries; a
// newer version empties it, and a table drawn from an older one is not kept.
func TestTableCacheBounded(t *testing.T) {
	var c tableCache
	c.put(7, "default", "the default table")
	c.put(7, "asked once", "a table nobody asks for again")
	for i := 0; i < 1000; i++ {
		c.put(7, fmt.Sprint("flood", i), template.HTML(fmt.Sprint(i)))
		if i%100 == 0 { // readers keep asking for the default table
			if got, ok := c.get(7, "default"); !ok || got != "the default table" {
				t.Fatalf("after %d new queries the default table, asked for every 100, is gone", i+1)
			}
		}
	}
	if n := len(c.m); n != 256 || c.order.Len() != 256 {
		t.Fatalf("%d tables kept (%d in order), want 256", n, c.order.Len())
	}
	if _, ok := c.get(7, "flood999"); !ok {
		t.Fatal("the newest table was not kept")
	}
	if _, ok := c.get(7, "asked once"); ok {
		t.Fatal("a table nobody asked for again outlived 1000 newer ones")
	}
	if _, ok := c.get(7, "flood0"); ok {
		t.Fatal("the oldest table of the flood was kept over newer ones")
	}
	c.put(6, "slow", "drawn from version 6")
	if _, ok := c.get(6, "slow"); ok || c.version != 7 || len(c.m) != 256 {
		t.Fatalf("a table of an older version was kept (version %d, %d tables)", c.version, len(c.m))
	}
	c.put(8, "default", "new")
	if got, ok := c.get(8, "default"); !ok || got != "new" || len(c.m) != 1 {
		t.Fatalf("a newer version: %q, %v, %d tables", got, ok, len(c.m))
	}
	if _, ok := c.get(7, "flood999"); ok {
		t.Fatal("a table of the old version is still served")
	}
}
