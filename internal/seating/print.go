package seating

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// nameOr returns name, or a function that prints a player's index.
func nameOr(name func(player int) string) func(int) string {
	if name != nil {
		return name
	}
	return strconv.Itoa
}

// Print writes the schedule for people: for each round a grid of tables (rows) by seat numbers (columns), rounds
// and tables numbered from 1, and the players who sit it out, then the quality figures. name gives a player's
// name; nil prints his index.
func (s *Schedule) Print(w io.Writer, name func(player int) string) error {
	name = nameOr(name)
	k := s.params.PerTable
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for r := range s.params.Rounds {
		fmt.Fprintf(tw, "Round %d\t", r+1)
		for c := range k {
			fmt.Fprintf(tw, "%d\t", c+1)
		}
		fmt.Fprintln(tw)
		for t := range s.tables {
			fmt.Fprintf(tw, "Table %d\t", t+1)
			for _, p := range s.seats[r][t*k : (t+1)*k] {
				fmt.Fprintf(tw, "%s\t", name(p))
			}
			fmt.Fprintln(tw)
		}
		if out := s.SitOut(r); len(out) > 0 {
			names := make([]string, len(out))
			for i, p := range out {
				names[i] = name(p)
			}
			// not a cell: the line would widen the grid's first column
			fmt.Fprintf(tw, "Sitting out: %s\n", strings.Join(names, ", "))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "Seed %d\n%s", s.params.Seed, s.Quality())
	return err
}

// PrintPlayers writes each player's card: his table and seat number in every round, as "table-seat", both
// numbered from 1, or "-" for a round he sits out. name gives a player's name; nil prints his index.
func (s *Schedule) PrintPlayers(w io.Writer, name func(player int) string) error {
	name = nameOr(name)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var b strings.Builder
	b.WriteString("Player")
	for r := range s.params.Rounds {
		fmt.Fprintf(&b, "\tR%d", r+1)
	}
	fmt.Fprintln(tw, b.String())
	for p := range s.params.Players {
		b.Reset()
		b.WriteString(name(p))
		for r := range s.params.Rounds {
			if t, seat := s.Place(r, p); t >= 0 {
				fmt.Fprintf(&b, "\t%d-%d", t+1, seat)
			} else {
				b.WriteString("\t-")
			}
		}
		fmt.Fprintln(tw, b.String())
	}
	return tw.Flush()
}
