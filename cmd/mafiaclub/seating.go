package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"mafiaclub/internal/seating"
)

// seatingJSON is what `mafiaclub seating` prints: the schedule (players numbered from 1, seats in order) and its
// figures against the bounds no schedule of its size can beat.
type seatingJSON struct {
	Players  int       `json:"players"`
	Rounds   int       `json:"rounds"`
	Tables   int       `json:"tables"`
	PerTable int       `json:"per_table"`
	Seed     uint64    `json:"seed"`
	Schedule [][][]int `json:"schedule"` // [round][table] = players in seat order
	SitOut   [][]int   `json:"sit_out"`  // [round] = the players who sit it out
	Quality  struct {
		Games struct {
			Min           int   `json:"min"`
			Max           int   `json:"max"`
			Equal         bool  `json:"equal"`
			EqualPossible bool  `json:"equal_possible"`
			PerPlayer     []int `json:"per_player"` // [player-1]
		} `json:"games"`
		SitOuts struct {
			Min   int `json:"min"`
			Max   int `json:"max"`
			Early int `json:"early"` // times a player sat out before his turn
		} `json:"sit_outs"`
		Seats   boundedFigure `json:"seat_numbers"` // times a player sits at one seat number
		Tables  boundedFigure `json:"tables"`       // times a player plays at one table
		Meeting struct {
			Min       int   `json:"min"`
			Max       int   `json:"max"`
			Bound     int   `json:"bound"`
			Histogram []int `json:"histogram"` // [m] = pairs meeting m times
		} `json:"meetings"`
	} `json:"quality"`
}

// boundedFigure is a count's range over the players and the least maximum any schedule can have.
type boundedFigure struct {
	Min   int `json:"min"`
	Max   int `json:"max"`
	Bound int `json:"bound"`
}

// seatingCmd prints a tournament's seating for organisers whose tournament runs elsewhere. Exit status: 0 with
// the schedule, 1 when no schedule can be made of these numbers (the reason on standard error), 2 for flags that
// cannot be read.
func seatingCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("seating", flag.ContinueOnError)
	fs.SetOutput(stderr)
	players := fs.Int("players", 0, "the number of players (at least one full table)")
	rounds := fs.Int("rounds", 0, "the number of rounds")
	seed := fs.Uint64("seed", 0, "the seed: the same numbers and seed give the same schedule (default: drawn at random)")
	perTable := fs.Int("per-table", 10, "players at a table, 7 to 10")
	tables := fs.Int("tables", 0, "tables in every round (default: as many full tables as the players fill)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mafiaclub seating: unexpected %q; the numbers go in flags (-players N -rounds R)\n", fs.Arg(0))
		return 2
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			fmt.Fprintf(stderr, "mafiaclub seating: %v\n", err)
			return 1
		}
		*seed = binary.LittleEndian.Uint64(b[:]) >> 1
	}
	sched, err := seating.Generate(seating.Params{Players: *players, PerTable: *perTable, Rounds: *rounds, Tables: *tables, Seed: *seed})
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub seating: no schedule: %v\n", oneLine(err))
		return 1
	}
	out := seatingJSON{Players: *players, Rounds: *rounds, Tables: sched.Tables(), PerTable: *perTable, Seed: *seed}
	number := func(ps []int) []int {
		out := make([]int, len(ps))
		for i, p := range ps {
			out[i] = p + 1
		}
		return out
	}
	for r := range sched.Rounds() {
		var round [][]int
		for t := range sched.Tables() {
			round = append(round, number(sched.Table(r, t)))
		}
		out.Schedule = append(out.Schedule, round)
		out.SitOut = append(out.SitOut, number(sched.SitOut(r)))
	}
	q := sched.Quality()
	g := &out.Quality.Games
	g.Min, g.Max, g.Equal, g.EqualPossible, g.PerPlayer = q.GamesMin, q.GamesMax, q.Equal(), q.EqualPossible, q.Games
	so := &out.Quality.SitOuts
	so.Min, so.Max, so.Early = q.SitOutsMin, q.SitOutsMax, q.SitOutsEarly
	out.Quality.Seats = boundedFigure{q.SeatMin, q.SeatMax, q.SeatBound}
	out.Quality.Tables = boundedFigure{q.TableMin, q.TableMax, q.TableBound}
	m := &out.Quality.Meeting
	m.Min, m.Max, m.Bound, m.Histogram = q.MeetMin, q.MeetMax, q.MeetBound, q.MeetHistogram
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		fmt.Fprintf(stderr, "mafiaclub seating: %v\n", err)
		return 1
	}
	return 0
}
