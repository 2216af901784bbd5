package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"mafiaclub/internal/convert"
)

// importCmd is `mafiaclub import --from mafiaratings|polemica FILE`: one platform game to our record (format 1)
// on standard output. Exit status: 0 converted, 1 the game cannot be converted (its facts fit no event sequence
// under our rules), 2 bad usage or unreadable or malformed input. Errors are one line on standard error.
func importCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const use = "usage: mafiaclub import --from mafiaratings|polemica FILE (\"-\" reads standard input)"
	from, file, ok := convertArgs(args, "from")
	if !ok {
		fmt.Fprintln(stderr, use)
		return 2
	}
	var importer func([]byte) (*convert.Imported, error)
	switch from {
	case "mafiaratings":
		importer = convert.ImportMafiaratings
	case "polemica":
		importer = convert.ImportPolemica
	default:
		fmt.Fprintf(stderr, "mafiaclub import: unknown platform %q (mafiaratings, polemica)\n", from)
		return 2
	}
	data, err := readInput(file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub import: %s: %s\n", file, lineOf(err))
		return 2
	}
	im, err := importer(data)
	if err != nil {
		return convertFailure(stderr, "import", file, err)
	}
	if _, err := stdout.Write(im.JSON()); err != nil {
		fmt.Fprintf(stderr, "mafiaclub import: %s\n", lineOf(err))
		return 2
	}
	return 0
}

// exportCmd is `mafiaclub export --to mafiaratings FILE`: our record as that platform's game JSON on standard
// output. Exit status: 0 exported, 1 the game cannot be expressed on the platform (or an event of it is rejected
// by the rules), 2 bad usage or an unreadable or invalid record.
func exportCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const use = "usage: mafiaclub export --to mafiaratings FILE (\"-\" reads standard input)"
	to, file, ok := convertArgs(args, "to")
	if !ok {
		fmt.Fprintln(stderr, use)
		return 2
	}
	if to != "mafiaratings" {
		fmt.Fprintf(stderr, "mafiaclub export: unknown platform %q (mafiaratings)\n", to)
		return 2
	}
	data, err := readInput(file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub export: %s: %s\n", file, lineOf(err))
		return 2
	}
	out, err := convert.ExportMafiaratings(data)
	if err != nil {
		return convertFailure(stderr, "export", file, err)
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "mafiaclub export: %s\n", lineOf(err))
		return 2
	}
	return 0
}

// convertArgs reads "--NAME VALUE FILE" (also -NAME, --NAME=VALUE, in any order around FILE).
func convertArgs(args []string, name string) (value, file string, ok bool) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--"+name || a == "-"+name:
			if i+1 >= len(args) || value != "" {
				return "", "", false
			}
			value = args[i+1]
			i++
		case strings.HasPrefix(a, "--"+name+"=") || strings.HasPrefix(a, "-"+name+"="):
			if value != "" {
				return "", "", false
			}
			value = a[strings.Index(a, "=")+1:]
		case a != "-" && strings.HasPrefix(a, "-"):
			return "", "", false
		default:
			rest = append(rest, a)
		}
	}
	if value == "" || len(rest) != 1 {
		return "", "", false
	}
	return value, rest[0], true
}

func readInput(file string, stdin io.Reader) ([]byte, error) {
	if file == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(file)
}

func convertFailure(stderr io.Writer, cmd, file string, err error) int {
	var ge *convert.GameError
	if errors.As(err, &ge) {
		fmt.Fprintf(stderr, "mafiaclub %s: %s: cannot be converted: %s\n", cmd, file, lineOf(err))
		return 1
	}
	fmt.Fprintf(stderr, "mafiaclub %s: %s: %s\n", cmd, file, lineOf(err))
	return 2
}

func lineOf(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }
