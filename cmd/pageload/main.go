// Command pageload measures public pages of two (or more) sites that show the same thing side by side: ours and
// a peer's (mafiaratings, run on the same machine with the same games), the same requests against each, in
// interleaved rounds, with 1 and 20 concurrent clients, printing p50/p99, requests per second and the page's size
// on the wire, with the ratio. It is a by-hand tool, never run in CI; docs/peer.md says how the peer is set up and
// keeps the figures.
//
//	pageload make -data DIR -peer DIR [-games 5000] [-players 329] [-seed 1] [-tz ZONE]
//	pageload export -data DIR -peer DIR   (make's second half again, from a folder make built)
//	pageload run -base ours=URL -base theirs=URL -pages DIR/manifest.json [-clients 1,20] [-rounds 3] [-duration 3s]
//
// make builds our data folder from generated games (internal/demo's History, every game played through the
// engine and saved through the club's services) and writes the same games as mafiaratings' game JSON, with a
// manifest of the users, events and tournament they refer to and the page pairs that show the same on both
// sides. run loads the pairs.
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
		fmt.Fprintln(stderr, "usage: pageload make|run [flags] (see the package's comment and docs/peer.md)")
		return 2
	}
	switch args[0] {
	case "make":
		return makeCmd(args[1:], stdout, stderr)
	case "export":
		return exportCmd(args[1:], stdout, stderr)
	case "run":
		return loadCmd(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "pageload: unknown command %q (make or run)\n", args[0])
	return 2
}
