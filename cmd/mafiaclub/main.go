// Command mafiaclub is the sport-Mafia club's system: the site (the default command), account creation, and the
// replay of game records.
package main

import "os"

// version is the release's version, set by the release build (tools/release: -ldflags "-X main.version=1.2.3");
// "dev" for any other build.
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
