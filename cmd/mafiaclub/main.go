// Command mafiaclub is the sport-Mafia club's system: the site (the default command), account creation, and the
// replay of game records.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
