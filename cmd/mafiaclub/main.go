// Command mafiaclub is the sport-Mafia club's system. Today it has one subcommand, replay; the site comes with
// host mode.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
