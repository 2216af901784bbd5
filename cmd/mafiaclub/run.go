package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"mafiaclub/internal/wasmengine"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

const usage = `usage:
  mafiaclub [serve] [flags]   serve the site (default localhost:8080, SQLite in ./data); -h for the flags
  mafiaclub admin create -login NAME [-role admin|host]
                             create an account; the password is read from standard input
  mafiaclub replay FILE...   replay game records (spec format 1) and print each result as JSON;
                             "-" reads standard input. Exit status: 0 all events accepted,
                             1 an event was rejected, 2 a file is not a valid record.
  mafiaclub import --from mafiaratings|polemica FILE
                             convert another platform's game to our record (format 1) on standard output
  mafiaclub export --to mafiaratings FILE
                             convert our record to that platform's game JSON
  mafiaclub rules            list the rule sets and their options
  mafiaclub backup [FILE]    a consistent copy of the SQLite database, the server running or not
                             (default: DATA/backups/mafiaclub-DATE-TIME.db)
  mafiaclub restore FILE     put a backup in place, with the server stopped, after checking it
  mafiaclub copy -from DB -to DB
                             copy a whole club into an empty database (SQLite file or postgres:// URL),
                             then check every game and the rating on the target; -from-club SLUG
                             instead of -from copies a club of this installation out
  mafiaclub club add|list|host|remove
                             the installation's other clubs, each at /c/SLUG/ or a host name of its own;
                             "mafiaclub club help" for their flags
  mafiaclub seating -players N -rounds R [-seed S] [-per-table K] [-tables T]
                             a tournament's seating and its figures as JSON; exit status 1 when none can be made
  mafiaclub version          this program's version, and whether it carries the host page's engine
`

// run is the whole program, so tests can call it with their own streams.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !slices.Contains([]string{"-h", "--help", "-version", "--version"}, args[0]) {
		return serve(args, stdout, stderr)
	}
	switch args[0] {
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "admin":
		if len(args) < 2 || args[1] != "create" {
			fmt.Fprint(stderr, usage)
			return 2
		}
		return adminCreate(args[2:], stdin, stdout, stderr)
	case "replay":
		return replay(args[1:], stdin, stdout, stderr)
	case "import":
		return importCmd(args[1:], stdin, stdout, stderr)
	case "export":
		return exportCmd(args[1:], stdin, stdout, stderr)
	case "rules":
		return listRules(stdout)
	case "backup":
		return backupCmd(args[1:], stdout, stderr)
	case "restore":
		return restoreCmd(args[1:], stdout, stderr)
	case "copy":
		return copyCmd(args[1:], stdout, stderr)
	case "club":
		return clubCmd(args[1:], stdin, stdout, stderr)
	case "seating":
		return seatingCmd(args[1:], stdout, stderr)
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, versionLine())
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "mafiaclub: unknown command %q\n%s", args[0], usage)
	return 2
}

func replay(files []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(files) == 0 {
		fmt.Fprint(stderr, "mafiaclub replay: name at least one file, or - for standard input\n")
		return 2
	}
	status := 0
	for _, name := range files {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, oneLine(err))
			status = 2
			continue
		}
		rec, err := record.Decode(data)
		if err != nil {
			fmt.Fprintf(stderr, "%s: not a valid game record: %v\n", name, oneLine(err))
			status = 2
			continue
		}
		g, err := rec.Replay()
		var re *mafia.ReplayError
		if err != nil && !errors.As(err, &re) {
			fmt.Fprintf(stderr, "%s: %v\n", name, oneLine(err))
			status = 2
			continue
		}
		stdout.Write(record.ResultJSON(g, err))
		if err != nil && status == 0 {
			status = 1
		}
	}
	return status
}

func listRules(stdout io.Writer) int {
	for _, r := range mafia.RuleSets() {
		var marks []string
		if r.ID == mafia.DefaultRuleSetID {
			marks = append(marks, "the club's default")
		}
		if r.Export == mafia.ExportMafiaratings {
			marks = append(marks, "exports to mafiaratings")
		}
		mark := ""
		if len(marks) > 0 {
			mark = "; " + strings.Join(marks, "; ")
		}
		fmt.Fprintf(stdout, "%s\t%s (%d-%d players%s)\n", r.ID, r.Title, r.MinPlayers, r.MaxPlayers, mark)
		for _, k := range r.OptionKeys() {
			info, _ := r.Option(k)
			def := "required"
			if !info.Required {
				def = "default " + formatDefault(info)
			}
			fmt.Fprintf(stdout, "\t%s\t%s\n", k, def)
		}
	}
	return 0
}

func formatDefault(info mafia.OptionInfo) string {
	switch info.Kind {
	case mafia.OptBool:
		return fmt.Sprint(info.Default.Bool)
	case mafia.OptPoints:
		return "[" + record.FormatPoints(info.Default.Points[0]) + ", " + record.FormatPoints(info.Default.Points[1]) + "]"
	case mafia.OptChoice:
		return info.Default.Choice
	}
	return strings.Join(info.Default.List, ",")
}

// versionLine says which program this is: its version, its toolchain and platform, and whether it carries the host
// page's engine (a release does; any other build makes it at start-up from a checkout, or has none).
func versionLine() string {
	engine := "carries the host page's engine"
	if !wasmengine.Embedded() {
		engine = "does not carry the host page's engine (a release does: see the README's \"Installing a club's server\")"
	}
	return fmt.Sprintf("mafiaclub %s (%s %s/%s): %s", version, runtime.Version(), runtime.GOOS, runtime.GOARCH, engine)
}

func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
