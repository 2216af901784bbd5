package seating

import (
	"reflect"
	"testing"
)

// A stored schedule comes back with the same figures, and a swap on it keeps the constraints.
func TestFromTables(t *testing.T) {
	p := Params{Players: 23, PerTable: 10, Rounds: 4, Seed: 5, Apart: [][2]int{{0, 1}}, Iterations: 50}
	s, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	var tables [][][]int
	for r := range s.Rounds() {
		var round [][]int
		for tb := range s.Tables() {
			round = append(round, s.Table(r, tb))
		}
		tables = append(tables, round)
	}
	back, err := FromTables(p, tables)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Quality(), s.Quality()) {
		t.Errorf("figures differ:\n%v\n%v", back.Quality(), s.Quality())
	}
	for r := range s.Rounds() {
		if !reflect.DeepEqual(back.SitOut(r), s.SitOut(r)) {
			t.Errorf("round %d: sit-outs %v, want %v", r, back.SitOut(r), s.SitOut(r))
		}
	}
	out := back.SitOut(0)[0]
	seated := back.Table(0, 0)[0]
	if err := back.Swap(0, out, seated); err != nil && seated != 0 && seated != 1 {
		t.Fatal(err)
	}
	tables[1][0][0] = tables[1][1][0]
	if _, err := FromTables(p, tables); err == nil {
		t.Error("a player at two tables of one round was accepted")
	}
	if _, err := FromTables(p, [][][]int{{tables[0][0]}, tables[1]}); err == nil {
		t.Error("rounds of different table counts were accepted")
	}
}
