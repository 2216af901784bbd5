package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"mafiaclub/internal/convert"
)

// importCmd is `mafiaclub import --from mafiaratings|polemica|mwt [--tz ZONE] FILE`: one platform game to our
// record (format 1) on standard output. A Polemica game's start, which the platform writes without an offset, and
// an MWT game's start and end are read in ZONE (the club's time zone: MAFIACLUB_TZ, as the server reads it, by default America/Edmonton), so that
// "started" is RFC 3339 with the offset, as the web import files it. Exit status: 0 converted, 1 the game cannot be
// converted (its facts fit no event sequence under our rules), 2 bad usage or unreadable or malformed input. Errors
// are one line on standard error.
func importCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const use = "usage: mafiaclub import --from mafiaratings|polemica|mwt [--tz ZONE] FILE (\"-\" reads standard input)"
	tz, args, ok := takeFlag(args, "tz", env("MAFIACLUB_TZ", "America/Edmonton"))
	if !ok {
		fmt.Fprintln(stderr, use)
		return 2
	}
	zone, err := time.LoadLocation(tz)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub import: time zone %q: %v\n", tz, err)
		return 2
	}
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
		importer = func(data []byte) (*convert.Imported, error) { return convert.ImportPolemicaIn(data, zone) }
	case "mwt":
		importer = func(data []byte) (*convert.Imported, error) { return convert.ImportMWT(data, zone) }
	default:
		fmt.Fprintf(stderr, "mafiaclub import: unknown platform %q (mafiaratings, polemica, mwt)\n", from)
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

// exportCmd is `mafiaclub export --to mafiaratings|mwt [FIELDS] FILE`: our record as that platform's game JSON on
// standard output, with the fields mafiaratings' create needs (convert.MRMeta), or an MWT game's (convert.MWTMeta:
// --tournament, --table, --game, --part, --referee, --player SEAT=MWT_ID, --start, --end, --tz, the zone MWT
// writes times in), from the flags or the record's carried fields. Exit status: 0 exported, 1 the game cannot be expressed on the platform, an event of it is
// rejected by the rules, or create would refuse or drop it (an unfinished game, missing fields: the message lists
// them), 2 bad usage or an unreadable or invalid record.
func exportCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const use = "usage: mafiaclub export --to mafiaratings [--event-id N] [--club-id N] [--moderator N] [--language CODE]" +
		" [--start TIME] [--end TIME] [--player SEAT=ID]... [--draft] FILE, or mafiaclub export --to mwt [--tournament N]" +
		" [--table N] [--game N] [--part N] [--referee N] [--start TIME] [--end TIME] [--player SEAT=ID]... [--tz ZONE] FILE" +
		" (\"-\" reads standard input; TIME is Unix seconds or RFC 3339)"
	tz, args, ok := takeFlag(args, "tz", env("MAFIACLUB_TZ", "America/Edmonton"))
	if !ok {
		fmt.Fprintln(stderr, use)
		return 2
	}
	zone, err := time.LoadLocation(tz)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub export: time zone %q: %v\n", tz, err)
		return 2
	}
	to, file, meta, mwt, ok := exportArgs(args)
	if !ok || (to == "mafiaratings" && mwt.given) || (to == "mwt" && (meta.Draft || meta.EventID != 0 || meta.ClubID != 0 || meta.Moderator != 0 || meta.Language != "")) {
		fmt.Fprintln(stderr, use)
		return 2
	}
	if to != "mafiaratings" && to != "mwt" {
		fmt.Fprintf(stderr, "mafiaclub export: unknown platform %q (mafiaratings, mwt)\n", to)
		return 2
	}
	data, err := readInput(file, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub export: %s: %s\n", file, lineOf(err))
		return 2
	}
	var out []byte
	if to == "mwt" {
		m := mwt.MWTMeta
		m.Players, m.Start, m.End, m.Zone = meta.Players, meta.Start, meta.End, zone
		out, err = convert.ExportMWT(data, m)
	} else {
		out, err = convert.ExportMafiaratings(data, meta)
	}
	if err != nil {
		return convertFailure(stderr, "export", file, err)
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "mafiaclub export: %s\n", lineOf(err))
		return 2
	}
	return 0
}

// takeFlag takes an optional "--NAME VALUE" (also -NAME, --NAME=VALUE) out of args: its value, or def without it,
// and the rest; ok is false when it is given twice or without a value.
func takeFlag(args []string, name, def string) (value string, rest []string, ok bool) {
	value, seen := def, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--"+name || a == "-"+name:
			if i+1 >= len(args) || seen {
				return "", nil, false
			}
			value, seen = args[i+1], true
			i++
		case strings.HasPrefix(a, "--"+name+"=") || strings.HasPrefix(a, "-"+name+"="):
			if seen {
				return "", nil, false
			}
			value, seen = a[strings.Index(a, "=")+1:], true
		default:
			rest = append(rest, a)
		}
	}
	return value, rest, true
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

// mwtFlags are the MWT export's own flags; given says one of them was.
type mwtFlags struct {
	convert.MWTMeta
	given bool
}

// exportArgs reads export's flags (each as --NAME VALUE or --NAME=VALUE, also with one dash, in any order around
// FILE).
func exportArgs(args []string) (to, file string, meta convert.MRMeta, mwt mwtFlags, ok bool) {
	var rest []string
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") {
			rest = append(rest, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "draft" && !hasValue {
			meta.Draft = true
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return "", "", meta, mwt, false
			}
			value = args[i+1]
			i++
		}
		if seen[name] && name != "player" {
			return "", "", meta, mwt, false
		}
		seen[name] = true
		var err error
		switch name {
		case "to":
			to = value
		case "event-id":
			meta.EventID, err = positive(value)
		case "club-id":
			meta.ClubID, err = positive(value)
		case "moderator":
			meta.Moderator, err = positive(value)
		case "language":
			meta.Language = value
		case "start":
			meta.Start, err = unixTime(value)
		case "end":
			meta.End, err = unixTime(value)
		case "tournament", "table", "game", "part", "referee":
			var v int
			v, err = positive(value)
			mwt.given = true
			switch name {
			case "tournament":
				mwt.Tournament = v
			case "table":
				mwt.Table = v
			case "game":
				mwt.Session = v
			case "part":
				mwt.Part = v
			case "referee":
				mwt.Referee = v
			}
		case "player":
			seat, id, found := strings.Cut(value, "=")
			s, err1 := positive(seat)
			v, err2 := positive(id)
			if !found || err1 != nil || err2 != nil {
				return "", "", meta, mwt, false
			}
			if meta.Players == nil {
				meta.Players = map[int]int{}
			}
			meta.Players[s] = v
		default:
			return "", "", meta, mwt, false
		}
		if err != nil {
			return "", "", meta, mwt, false
		}
	}
	if to == "" || len(rest) != 1 {
		return "", "", meta, mwt, false
	}
	return to, rest[0], meta, mwt, true
}

func positive(s string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("not a positive number: %q", s)
	}
	return v, nil
}

func unixTime(s string) (int64, error) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil && v > 0 {
		return v, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0, err
	}
	return t.Unix(), nil
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
