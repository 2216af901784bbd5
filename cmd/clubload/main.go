// Command clubload measures an installation of many clubs (issue 29) at a federation's scale: many clubs on
// several mafiaclub servers over one PostgreSQL database, each with live tables played at a real pace and
// spectators watching them. It is a tool, not a test: run it by hand (docs/federation.md has the commands and the
// figures).
//
//	clubload setup -db URL -clubs 100 [-password P] [-copy-from FILE]
//	clubload run -servers URL1,URL2 -clubs 100 -tables 10 -pace 3s -spectators 5000 -duration 60s [-pids P1,P2]
//
// setup registers the clubs club-001 .. club-NNN on the installation whose own store is at URL, each with its
// first admin (skipping those registered already); with -copy-from, each new club is filled with a copy of the
// club at FILE instead (its games, players and accounts: a club made by `pageload make`).
//
// run logs in every club's admin on one of the servers (club i on server i mod S), starts -tables games in each
// (fiim-2025-club, the roles dealt by hand from the tool's own deal), and plays every table at -pace, the tables
// staggered so that the actions are spread evenly over time; each action is one event of a whole game the tool
// played at random through the rules engine (internal/demo), posted as the host page's form; a game played to its
// end is saved and the table starts the next. The spectators' streams are spread evenly over the tables and the
// servers. It reports the host action's latency (the POST to its 303), the fan-out's (the action's start to each
// of its table's spectators' frame of the view's key after it, the key read from the public API as cmd/liveload
// does), the frames missing, the actions per second reached, and the servers' memory (VmRSS of -pids).
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: clubload setup|run [flags] (see the package's comment and docs/federation.md)")
		return 2
	}
	switch args[0] {
	case "setup":
		return setupCmd(args[1:], stdout, stderr)
	case "run":
		return runCmd(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "clubload: unknown command %q (setup or run)\n", args[0])
	return 2
}

// slugOf is the slug of the tool's club i (1-based).
func slugOf(i int) string { return fmt.Sprintf("club-%03d", i) }
