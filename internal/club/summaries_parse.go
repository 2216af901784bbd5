package club

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// A club's old protocols (issue 26, item 7) are read here: a file of game summaries, CSV (one row per seat) or
// JSON (docs/summaries.md), each game checked and scored by the engine (mafia.SummaryPoints). Nothing here writes.

// SummarySourcePrefix starts the source of every game imported from a summary: "summary:2024-03-05/1/3" is the
// game numbered 3 at table 1 on 5 March 2024 (the club's zone). A game's date, table and number are its identity:
// the same game imported again is recognised by it.
const SummarySourcePrefix = "summary:"

// IsSummary reports whether the game was imported from an old protocol's summary: it has no events and does not
// replay; its page shows the summary.
func (g Game) IsSummary() bool { return strings.HasPrefix(g.Source, SummarySourcePrefix) }

// MaxSummaryProblems is how many problems of a file are reported; a file with more has them all fixed the same way.
const MaxSummaryProblems = 100

// Hundredths is a number of points in a message: the site writes it as its reader's language writes decimals.
type Hundredths int

// RoleCounts is a composition of roles in a message: the site names the roles in its reader's language.
type RoleCounts map[mafia.Role]int

// SummaryProblem is why a file of summaries is refused, where: the line of a CSV file (Line) or the game's place in
// a JSON file's list (Game, from 1), the seat when it concerns one, and the field (the column's or the JSON
// field's name, as docs/summaries.md names it). Format and Args are the message ("msg:"+Format in the site's
// catalogues); Rule is the engine's refusal when the rules refuse the facts.
type SummaryProblem struct {
	Line, Game, Seat int
	Field            string
	Format           string
	Args             []any
	Rule             error
}

func (p SummaryProblem) Error() string {
	where := fmt.Sprintf("line %d", p.Line)
	if p.Line == 0 {
		where = fmt.Sprintf("game %d", p.Game)
	}
	if p.Field != "" {
		where += ", " + p.Field
	}
	if p.Rule != nil {
		return where + ": " + p.Rule.Error()
	}
	return where + ": " + fmt.Sprintf(p.Format, p.Args...)
}

// SummaryGame is one game of a file of summaries, read and checked: its facts, and the points the rules give them.
type SummaryGame struct {
	Line, Game int // where it starts in the file (see SummaryProblem)
	PlayedAt   time.Time
	Rules      string
	Options    map[string]json.RawMessage
	Rated      bool
	Winner     mafia.Winner
	Host, Note string
	Seats      []SummarySeat
	BestMove   int
	BestNamed  []int
	DonFound   bool
	Points     []mafia.SeatResult // the engine's, seat by seat
	// Facts is the game in the JSON form of docs/summaries.md, canonical: what is stored, and its digest.
	Facts  []byte
	Digest string
	source string
}

// Source is the game's identity in the history (SummarySourcePrefix).
func (g *SummaryGame) Source() string { return g.source }

// SummarySeat is one seat of a summary.
type SummarySeat struct {
	Seat                      int
	Player                    string
	Role                      mafia.Role
	Fouls                     int
	Disqualified, FirstKilled bool
	Extras, Judge             int // hundredths
	PlayerID                  int64
}

// summaryJSON is a game in the JSON form (docs/summaries.md); points are JSON numbers (or strings) of at most two
// decimals.
type summaryJSON struct {
	Date            string                     `json:"date"`
	Time            string                     `json:"time,omitempty"`
	Table           int                        `json:"table,omitempty"`
	Game            int                        `json:"game"`
	Rules           string                     `json:"rules,omitempty"`
	Options         map[string]json.RawMessage `json:"options,omitempty"`
	Rated           *bool                      `json:"rated,omitempty"`
	Winner          string                     `json:"winner"`
	Host            string                     `json:"host,omitempty"`
	Note            string                     `json:"note,omitempty"`
	BestMove        *bestMoveJSON              `json:"best_move,omitempty"`
	DonFoundSheriff bool                       `json:"don_found_sheriff,omitempty"`
	Seats           []summarySeatJSON          `json:"seats"`
}

type bestMoveJSON struct {
	Seat   int   `json:"seat"`
	Named  []int `json:"named"`
	Blacks *int  `json:"blacks,omitempty"`
}

type summarySeatJSON struct {
	Seat         int             `json:"seat"`
	Player       string          `json:"player"`
	Role         string          `json:"role"`
	Fouls        int             `json:"fouls,omitempty"`
	Disqualified bool            `json:"disqualified,omitempty"`
	FirstKilled  bool            `json:"first_killed,omitempty"`
	Extras       json.RawMessage `json:"extras,omitempty"`
	JudgePoints  json.RawMessage `json:"judge_points,omitempty"`
	Total        json.RawMessage `json:"total,omitempty"`
	line         int
}

// problems collects a file's problems, at most MaxSummaryProblems.
type problems struct{ list []SummaryProblem }

func (ps *problems) add(p SummaryProblem) {
	if len(ps.list) < MaxSummaryProblems {
		ps.list = append(ps.list, p)
	}
}

// ParseSummaries reads a file of summaries (JSON when it starts with "{", else CSV; UTF-8 with or without its byte
// order mark; an MWT game, or a JSON list of them, without our "mafiaclub" field: readMWTSummaries), checks every game with the engine and returns them in the order they were played, or every problem
// (at most MaxSummaryProblems; then no game). Dates are read in zone; a game without a rule set plays by rules;
// now bounds the dates (none after the day of now).
func ParseSummaries(data []byte, zone *time.Location, rules string, now time.Time) ([]SummaryGame, []SummaryProblem) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		return nil, []SummaryProblem{{Line: 1, Format: "the file is not UTF-8 text: save it from the spreadsheet as CSV UTF-8"}}
	}
	var ps problems
	var list []summaryJSON
	var json bool
	if t := bytes.TrimSpace(data); mwtJSON(t) {
		json = true
		list = readMWTSummaries(t, zone, &ps)
	} else if len(t) > 0 && t[0] == '{' {
		json = true
		list = readSummaryJSON(t, &ps)
	} else {
		list = readSummaryCSV(data, &ps)
	}
	if len(ps.list) > 0 {
		return nil, ps.list
	}
	if len(list) == 0 {
		return nil, []SummaryProblem{{Line: 1, Format: "the file has no games"}}
	}
	var games []SummaryGame
	seen := map[string]int{}
	for i := range list {
		where := SummaryProblem{Line: list[i].Seats[0].line, Game: i + 1}
		if json {
			where.Line = 0
		}
		g, ok := checkSummary(&list[i], where, zone, rules, now, &ps)
		if !ok {
			continue
		}
		if first, dup := seen[g.source]; dup {
			p := where
			p.Field, p.Format, p.Args = "game", "the game %s is in the file twice (also at %d)", []any{strings.TrimPrefix(g.source, SummarySourcePrefix), first}
			ps.add(p)
			continue
		}
		seen[g.source] = max(where.Line, where.Game)
		games = append(games, g)
	}
	if len(ps.list) > 0 {
		return nil, ps.list
	}
	sort.SliceStable(games, func(i, j int) bool { return games[i].PlayedAt.Before(games[j].PlayedAt) })
	return games, nil
}

func readSummaryJSON(data []byte, ps *problems) []summaryJSON {
	var f struct {
		Format string        `json:"format"`
		Games  []summaryJSON `json:"games"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		p := SummaryProblem{Game: 1, Format: "the file is not JSON of summaries: %s", Args: []any{err.Error()}}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			p.Line = 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		case errors.As(err, &te):
			p.Line = 1 + bytes.Count(data[:min(int(te.Offset), len(data))], []byte("\n"))
			p.Field, p.Format, p.Args = te.Field, "a value of the wrong type", nil
		}
		ps.add(p)
		return nil
	}
	if f.Format != "" && f.Format != "mafiaclub-summaries" {
		ps.add(SummaryProblem{Game: 1, Field: "format", Format: "the format is %q, not %q", Args: []any{f.Format, "mafiaclub-summaries"}})
		return nil
	}
	for i := range f.Games {
		if len(f.Games[i].Seats) == 0 {
			ps.add(SummaryProblem{Game: i + 1, Field: "seats", Format: "the game has no seats"})
		}
	}
	return f.Games
}

// summaryColumns are the CSV columns by their names, with the names a club's sheet may give them in Ukrainian or
// Russian (docs/summaries.md). A name is compared in lower case, with spaces, dots and dashes as "_".
var summaryColumns = map[string][]string{
	"date":              {"дата"},
	"time":              {"час", "время"},
	"table":             {"стіл", "стол"},
	"game":              {"гра", "игра", "№", "номер_гри", "номер_игры"},
	"rules":             {"правила"},
	"rated":             {"рейтинг", "рейтингова", "рейтинговая"},
	"winner":            {"результат", "переможець", "победитель", "перемога", "победа"},
	"host":              {"суддя", "судья", "ведучий", "ведущий"},
	"note":              {"примітка", "примечание", "коментар", "комментарий"},
	"seat":              {"місце", "место"},
	"player":            {"гравець", "игрок", "нік", "ник", "нікнейм", "никнейм"},
	"role":              {"роль"},
	"fouls":             {"фоли", "фолы", "фол"},
	"disqualified":      {"дискваліфікація", "дисквалификация", "дискв"},
	"first_killed":      {"перший_відстріл", "первый_отстрел", "відстріл", "отстрел"},
	"best_move":         {"кращий_хід", "лучший_ход", "лх"},
	"best_move_blacks":  {"лх_чорних", "лх_черных"},
	"don_found_sheriff": {"дон_знайшов_шерифа", "дон_нашел_шерифа", "дон_нашёл_шерифа"},
	"extras":            {"допи", "допы", "клубні_допи", "клубные_допы"},
	"judge_points":      {"доп_бали", "доп_баллы", "доп", "додаткові_бали", "дополнительные_баллы"},
	"total":             {"бали", "баллы", "сума", "сумма", "разом", "итого", "очки"},
}

// gameColumns are the columns that belong to the game, not to one seat.
var gameColumns = []string{"rules", "rated", "winner", "host", "note", "don_found_sheriff"}

func columnName(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	h = strings.Map(func(r rune) rune {
		if r == ' ' || r == '.' || r == '-' {
			return '_'
		}
		return r
	}, h)
	h = strings.Trim(strings.ReplaceAll(h, "__", "_"), "_")
	if _, ok := summaryColumns[h]; ok {
		return h
	}
	for name, aliases := range summaryColumns {
		for _, a := range aliases {
			if a == h {
				return name
			}
		}
	}
	return ""
}

// sniffComma picks the CSV separator from the header line: the one of ";", "," and tab it has most of outside quotes.
func sniffComma(data []byte) rune {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	counts := map[rune]int{}
	quoted := false
	for _, r := range string(line) {
		switch {
		case r == '"':
			quoted = !quoted
		case !quoted && (r == ';' || r == ',' || r == '\t'):
			counts[r]++
		}
	}
	best := ','
	for _, r := range []rune{';', '\t'} {
		if counts[r] > counts[best] {
			best = r
		}
	}
	return best
}

func readSummaryCSV(data []byte, ps *problems) []summaryJSON {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sniffComma(data)
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		ps.add(SummaryProblem{Line: 1, Format: "the file is not CSV: %s", Args: []any{err.Error()}})
		return nil
	}
	col := map[string]int{}
	for i, h := range header {
		name := columnName(h)
		if name == "" {
			if strings.TrimSpace(h) != "" {
				ps.add(SummaryProblem{Line: 1, Field: strings.TrimSpace(h), Format: "unknown column %q", Args: []any{strings.TrimSpace(h)}})
			}
			continue
		}
		if _, dup := col[name]; dup {
			ps.add(SummaryProblem{Line: 1, Field: name, Format: "the column %q is there twice", Args: []any{name}})
		}
		col[name] = i
	}
	for _, need := range []string{"date", "game", "winner", "seat", "player", "role"} {
		if _, ok := col[need]; !ok {
			ps.add(SummaryProblem{Line: 1, Field: need, Format: "the column %q is missing", Args: []any{need}})
		}
	}
	if len(ps.list) > 0 {
		return nil
	}
	var games []summaryJSON
	var gameLines []map[string]int // per game: the line each game-level cell was first given on
	byKey := map[string]int{}
	var last [3]string // date, table, game: a row that leaves them empty is the row above's game
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			ps.add(SummaryProblem{Line: line, Format: "the line is not CSV: %s", Args: []any{err.Error()}})
			return nil
		}
		cell := func(name string) string {
			i, ok := col[name]
			if !ok || i >= len(rec) {
				return ""
			}
			return strings.TrimSpace(rec[i])
		}
		blank := true
		for _, c := range rec {
			if strings.TrimSpace(c) != "" {
				blank = false
			}
		}
		if blank {
			continue
		}
		key := [3]string{cell("date"), cell("table"), cell("game")}
		if key[0] == "" && key[2] == "" {
			if key[1] == "" {
				key[1] = last[1]
			}
			key[0], key[2] = last[0], last[2]
		}
		if key[0] == "" || key[2] == "" {
			f := "date"
			if key[0] != "" {
				f = "game"
			}
			ps.add(SummaryProblem{Line: line, Field: f, Format: "the game's date and number are given on its first row"})
			continue
		}
		last = key
		k := strings.Join(key[:], "\x00")
		gi, ok := byKey[k]
		if !ok {
			j := summaryJSON{Date: key[0], Time: cell("time")}
			if key[1] != "" {
				n, err := strconv.Atoi(key[1])
				if err != nil || n < 1 || n > 99 {
					ps.add(SummaryProblem{Line: line, Field: "table", Format: "%q is not a table number", Args: []any{key[1]}})
					continue
				}
				j.Table = n
			}
			n, err := strconv.Atoi(strings.TrimPrefix(key[2], "#"))
			if err != nil || n < 1 || n > 999 {
				ps.add(SummaryProblem{Line: line, Field: "game", Format: "%q is not a game number", Args: []any{key[2]}})
				continue
			}
			j.Game = n
			gi = len(games)
			byKey[k] = gi
			games = append(games, j)
			gameLines = append(gameLines, map[string]int{})
		}
		g := &games[gi]
		for _, name := range gameColumns {
			v := cell(name)
			if v == "" {
				continue
			}
			prev, given := gameLines[gi][name]
			var old string
			switch name {
			case "rules":
				old, g.Rules = g.Rules, v
			case "winner":
				old, g.Winner = g.Winner, v
			case "host":
				old, g.Host = g.Host, v
			case "note":
				old, g.Note = g.Note, v
			case "rated", "don_found_sheriff":
				b, ok := yesNo(v)
				if !ok {
					ps.add(SummaryProblem{Line: line, Field: name, Format: "%q is not yes or no", Args: []any{v}})
					continue
				}
				if name == "rated" {
					if g.Rated != nil {
						old = strconv.FormatBool(*g.Rated)
					}
					g.Rated = &b
					v = strconv.FormatBool(b)
				} else {
					if given {
						old = strconv.FormatBool(g.DonFoundSheriff)
					}
					g.DonFoundSheriff = b
					v = strconv.FormatBool(b)
				}
			}
			if given && old != v {
				ps.add(SummaryProblem{Line: line, Field: name, Format: "the game's %s is %q here but %q on line %d", Args: []any{name, v, old, prev}})
				continue
			}
			if !given {
				gameLines[gi][name] = line
			}
		}
		seat := summarySeatJSON{Player: cell("player"), Role: cell("role"), line: line}
		n, err := strconv.Atoi(cell("seat"))
		if err != nil {
			ps.add(SummaryProblem{Line: line, Field: "seat", Format: "%q is not a seat number", Args: []any{cell("seat")}})
			continue
		}
		seat.Seat = n
		if v := cell("fouls"); v != "" {
			f, err := strconv.Atoi(v)
			if err != nil {
				ps.add(SummaryProblem{Line: line, Seat: n, Field: "fouls", Format: "%q is not a number of fouls", Args: []any{v}})
				continue
			}
			seat.Fouls = f
		}
		for _, b := range []struct {
			name string
			to   *bool
		}{{"disqualified", &seat.Disqualified}, {"first_killed", &seat.FirstKilled}} {
			if v := cell(b.name); v != "" {
				yes, ok := yesNo(v)
				if !ok {
					ps.add(SummaryProblem{Line: line, Seat: n, Field: b.name, Format: "%q is not yes or no", Args: []any{v}})
				}
				*b.to = yes
			}
		}
		for _, pt := range []struct {
			name string
			to   *json.RawMessage
		}{{"extras", &seat.Extras}, {"judge_points", &seat.JudgePoints}, {"total", &seat.Total}} {
			if v := cell(pt.name); v != "" {
				h, ok := decimalCell(v)
				if !ok {
					ps.add(SummaryProblem{Line: line, Seat: n, Field: pt.name, Format: "%q is not a number of points (at most two decimals)", Args: []any{v}})
					continue
				}
				*pt.to = json.RawMessage(record.FormatPoints(h))
			}
		}
		if v := cell("best_move"); v != "" {
			named, ok := seatList(v)
			if !ok {
				ps.add(SummaryProblem{Line: line, Seat: n, Field: "best_move", Format: "%q is not a list of seats", Args: []any{v}})
				continue
			}
			if g.BestMove != nil {
				ps.add(SummaryProblem{Line: line, Seat: n, Field: "best_move", Format: "a game has one best move; seat %d made it already", Args: []any{g.BestMove.Seat}})
				continue
			}
			g.BestMove = &bestMoveJSON{Seat: n, Named: named}
			if b := cell("best_move_blacks"); b != "" {
				k, err := strconv.Atoi(b)
				if err != nil {
					ps.add(SummaryProblem{Line: line, Seat: n, Field: "best_move_blacks", Format: "%q is not a number", Args: []any{b}})
					continue
				}
				g.BestMove.Blacks = &k
			}
		} else if b := cell("best_move_blacks"); b != "" {
			ps.add(SummaryProblem{Line: line, Seat: n, Field: "best_move_blacks", Format: "the blacks of a best move are given on the row of the seat that made it, with the seats he named"})
		}
		g.Seats = append(g.Seats, seat)
	}
	return games
}

// yesNo reads a yes or no cell as clubs write them.
func yesNo(v string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "y", "true", "1", "+", "x", "так", "да", "т", "д", "✓", "v":
		return true, true
	case "no", "n", "false", "0", "-", "ні", "нет", "н", "":
		return false, true
	}
	return false, false
}

// decimalCell reads points as a spreadsheet writes them: "0,5", "+0.3", "−0,05", ",5".
func decimalCell(v string) (int, bool) {
	v = strings.TrimSpace(v)
	v = strings.ReplaceAll(v, "−", "-")
	v = strings.ReplaceAll(v, ",", ".")
	v = strings.TrimPrefix(v, "+")
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimPrefix(v, "-")
	if strings.HasPrefix(v, ".") {
		v = "0" + v
	}
	if neg {
		v = "-" + v
	}
	h, err := record.Hundredths(json.RawMessage(v))
	return h, err == nil
}

// seatList reads the seats of a best move: numbers apart by spaces, commas, slashes or dashes.
func seatList(v string) ([]int, bool) {
	parts := strings.FieldsFunc(v, func(r rune) bool { return !unicode.IsDigit(r) })
	if len(parts) == 0 {
		return nil, false
	}
	if strings.IndexFunc(v, func(r rune) bool {
		return !unicode.IsDigit(r) && !unicode.IsSpace(r) && !strings.ContainsRune(",;/-–#", r)
	}) >= 0 {
		return nil, false
	}
	var out []int
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// summaryRoles are the role names a protocol writes: the record's, the protocol's letters (seed 002 §P7.4.1) and
// the words, in Ukrainian and Russian.
var summaryRoles = map[string]mafia.Role{
	"к": mafia.Citizen, "ч": mafia.Mafia, "ш": mafia.Sheriff, "д": mafia.Don,
	"мирний": mafia.Citizen, "мирный": mafia.Citizen, "червоний": mafia.Citizen, "красный": mafia.Citizen,
	"мирн": mafia.Citizen, "шериф": mafia.Sheriff, "мафія": mafia.Mafia, "мафия": mafia.Mafia, "маф": mafia.Mafia,
	"чорний": mafia.Mafia, "черный": mafia.Mafia, "чёрный": mafia.Mafia, "дон": mafia.Don,
	"комісар": mafia.Commissar, "комиссар": mafia.Commissar, "лікар": mafia.Doctor, "доктор": mafia.Doctor,
	"red": mafia.Citizen, "black": mafia.Mafia,
}

func parseSummaryRole(v string) (mafia.Role, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if r, ok := mafia.ParseRole(v); ok {
		return r, true
	}
	r, ok := summaryRoles[v]
	return r, ok
}

// parseSummaryWinner reads the result as a protocol writes it (§P7.7: "победа красных").
func parseSummaryWinner(v string) (mafia.Winner, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	for _, p := range []string{"перемога ", "победа ", "win ", "wins "} {
		v = strings.TrimPrefix(v, p)
	}
	v = strings.TrimSuffix(strings.TrimSuffix(v, " win"), " wins")
	switch v {
	case "red", "к", "червоні", "червоних", "мирні", "мирних", "красные", "красных", "мирные", "мирных":
		return mafia.RedWins, true
	case "black", "ч", "чорні", "чорних", "мафія", "мафії", "черные", "черных", "чёрные", "чёрных", "мафия", "мафии":
		return mafia.BlackWins, true
	case "draw", "нічия", "ничья":
		return mafia.Draw, true
	}
	return mafia.NoWinner, false
}

// parseSummaryDate reads a date as 2024-03-05, 05.03.2024, 05.03.24 or 05/03/2024, with an optional time
// ("19:30") in the date's cell or its own, in zone.
func parseSummaryDate(date, clock string, zone *time.Location) (time.Time, bool) {
	date = strings.TrimSpace(date)
	if d, t, ok := strings.Cut(date, " "); ok && clock == "" {
		date, clock = d, strings.TrimSpace(t)
	}
	if d, t, ok := strings.Cut(date, "T"); ok && clock == "" {
		date, clock = d, t
	}
	var day time.Time
	ok := false
	for _, layout := range []string{"2006-01-02", "02.01.2006", "2.1.2006", "02.01.06", "2.1.06", "02/01/2006", "2/1/2006"} {
		if t, err := time.ParseInLocation(layout, date, zone); err == nil {
			day, ok = t, true
			break
		}
	}
	if !ok {
		return time.Time{}, false
	}
	if clock == "" {
		return day, true
	}
	for _, layout := range []string{"15:04", "15:04:05", "15.04"} {
		if t, err := time.Parse(layout, clock); err == nil {
			return time.Date(day.Year(), day.Month(), day.Day(), t.Hour(), t.Minute(), t.Second(), 0, zone), true
		}
	}
	return time.Time{}, false
}

// checkSummary checks one game, normalises it and scores it with the engine; each problem is added with where.
func checkSummary(j *summaryJSON, where SummaryProblem, zone *time.Location, defRules string, now time.Time, ps *problems) (SummaryGame, bool) {
	before := len(ps.list)
	at := func(field string, seat int, format string, args ...any) {
		p := where
		p.Field, p.Seat, p.Format, p.Args = field, seat, format, args
		if seat > 0 && where.Line > 0 {
			for _, s := range j.Seats {
				if s.Seat == seat {
					p.Line = s.line
				}
			}
		}
		ps.add(p)
	}
	g := SummaryGame{Line: where.Line, Game: where.Game, Rated: true, Host: strings.TrimSpace(j.Host), Note: strings.TrimSpace(j.Note), Options: j.Options}
	played, ok := parseSummaryDate(j.Date, j.Time, zone)
	switch {
	case !ok:
		at("date", 0, "%q is not a date (2024-03-05 or 05.03.2024, a time as 19:30)", strings.TrimSpace(j.Date+" "+j.Time))
	case played.Year() < 1990:
		at("date", 0, "%q is before 1990", j.Date)
	case played.After(now.In(zone).AddDate(0, 0, 1)):
		at("date", 0, "%q is in the future", j.Date)
	}
	day := played.Format("2006-01-02")
	if j.Time == "" && !strings.ContainsAny(strings.TrimSpace(j.Date), " T") {
		// a game without a time is at the start of its day, game N N minutes on: a day's games in their numbers' order
		played = played.Add(time.Duration(j.Game) * time.Minute)
	} else if ok {
		j.Time = played.Format("15:04")
	}
	if ok {
		j.Date = day // the facts keep the date as the JSON form writes it
	}
	g.PlayedAt = played
	if j.Table == 0 {
		j.Table = 1
	}
	if j.Game < 1 || j.Table < 1 {
		at("game", 0, "a game's number and table are 1 or more")
	}
	g.source = fmt.Sprintf("%s%s/%d/%d", SummarySourcePrefix, day, j.Table, j.Game)
	g.Rules = strings.TrimSpace(j.Rules)
	if g.Rules == "" {
		g.Rules = defRules
	}
	rules, ok := mafia.RuleSet(g.Rules)
	if !ok {
		at("rules", 0, "unknown rule set %q", g.Rules)
		return g, false
	}
	j.Rules = g.Rules
	if j.Rated != nil {
		g.Rated = *j.Rated
	}
	if g.Winner, ok = parseSummaryWinner(j.Winner); !ok {
		at("winner", 0, "%q is not a result (red, black or draw)", j.Winner)
	} else {
		j.Winner = g.Winner.String()
	}
	if len(g.Host) > 100 || len(g.Note) > record.MaxEventText {
		at("note", 0, "a host's name is at most 100 characters and a note at most %d", record.MaxEventText)
	}
	n := len(j.Seats)
	if n < rules.MinPlayers || n > rules.MaxPlayers {
		at("seat", 0, "this rule set is played by %d to %d players, not %d", rules.MinPlayers, rules.MaxPlayers, n)
		return g, false
	}
	sort.SliceStable(j.Seats, func(a, b int) bool { return j.Seats[a].Seat < j.Seats[b].Seat })
	roles := make([]mafia.Role, n)
	nicks := map[string]int{}
	for i := range j.Seats {
		s := &j.Seats[i]
		if s.Seat != i+1 {
			at("seat", s.Seat, "the seats are 1 to %d, each once; seat %d is not", n, s.Seat)
			return g, false
		}
		ss := SummarySeat{Seat: s.Seat, Player: strings.TrimSpace(s.Player), Fouls: s.Fouls, Disqualified: s.Disqualified, FirstKilled: s.FirstKilled}
		if ss.Player == "" || utf8.RuneCountInString(ss.Player) > 60 || strings.IndexFunc(ss.Player, unicode.IsControl) >= 0 {
			at("player", s.Seat, "a player's nickname is 1 to 60 characters, on one line")
		} else if other, dup := nicks[strings.ToLower(ss.Player)]; dup {
			at("player", s.Seat, "%q sits at seats %d and %d", ss.Player, other, s.Seat)
		}
		nicks[strings.ToLower(ss.Player)] = s.Seat
		s.Player = ss.Player
		role, ok := parseSummaryRole(s.Role)
		if !ok {
			at("role", s.Seat, "%q is not a role", s.Role)
		}
		ss.Role, roles[i], s.Role = role, role, role.String()
		if s.Fouls < 0 || s.Fouls > 4 {
			at("fouls", s.Seat, "a player has 0 to 4 fouls, not %d", s.Fouls)
		}
		for _, pt := range []struct {
			name string
			raw  *json.RawMessage
			to   *int
		}{{"extras", &s.Extras, &ss.Extras}, {"judge_points", &s.JudgePoints, &ss.Judge}, {"total", &s.Total, nil}} {
			if len(*pt.raw) == 0 {
				continue
			}
			raw := *pt.raw
			var str string
			if json.Unmarshal(raw, &str) == nil {
				raw = json.RawMessage(str)
			}
			h, ok := decimalCell(string(raw))
			if !ok {
				at(pt.name, s.Seat, "%q is not a number of points (at most two decimals)", string(raw))
				continue
			}
			*pt.raw = json.RawMessage(record.FormatPoints(h))
			if pt.to != nil {
				*pt.to = h
			}
		}
		g.Seats = append(g.Seats, ss)
	}
	if len(ps.list) > before {
		return g, false
	}
	if comp, fixed := rules.Composition(n); fixed {
		got := RoleCounts{}
		for _, r := range roles {
			got[r]++
		}
		if !sameCounts(got, comp) {
			at("role", 0, "with %d players the rule set deals %v, but the seats have %v", n, RoleCounts(comp), got)
			return g, false
		}
	} else if err := rules.ValidateRoles(roles); err != nil {
		got := RoleCounts{}
		for _, r := range roles {
			got[r]++
		}
		at("role", 0, "the seats' roles %v are no deal of this rule set", got)
		return g, false
	}
	recSeats := make([]record.Seat, n)
	for i, r := range roles {
		recSeats[i] = record.Seat{Seat: i + 1, Role: r, Name: g.Seats[i].Player}
	}
	rec, err := record.Build(g.Rules, j.Options, recSeats, nil)
	if err != nil && len(j.Options) > 0 {
		at("options", 0, "the options are not this rule set's: %s", err.Error())
		return g, false
	}
	opt := rules.DefaultOptions()
	if rec != nil {
		opt = rec.Options
	}
	facts := mafia.Summary{Roles: roles, Winner: g.Winner, Fouls: make([]int, n), ClubExtras: make([]int, n), Judge: make([]int, n)}
	first := 0
	for i, s := range g.Seats {
		facts.Fouls[i], facts.ClubExtras[i], facts.Judge[i] = s.Fouls, s.Extras, s.Judge
		if s.Disqualified {
			facts.Disqualified = facts.Disqualified.Add(s.Seat)
		}
		if s.FirstKilled {
			if first != 0 {
				at("first_killed", s.Seat, "one player is killed first; seat %d is already", first)
			}
			first = s.Seat
		}
	}
	if bm := j.BestMove; bm != nil {
		g.BestMove, g.BestNamed = bm.Seat, bm.Named
		facts.BestMove, facts.BestNamed = bm.Seat, bm.Named
		if bm.Blacks != nil && bm.Seat >= 1 && bm.Seat <= n {
			blacks := 0
			for _, t := range bm.Named {
				if t >= 1 && t <= n && roles[t-1].Team() == mafia.Black {
					blacks++
				}
			}
			if *bm.Blacks != blacks {
				at("best_move_blacks", bm.Seat, "the best move names %d blacks by the roles, not %d", blacks, *bm.Blacks)
			}
			bm.Blacks = nil // known from the roles
		}
		if first == 0 && bm.Seat >= 1 && bm.Seat <= n {
			g.Seats[bm.Seat-1].FirstKilled = true // the protocol's best move is the first night's victim's (§P7.6)
			j.Seats[bm.Seat-1].FirstKilled = true
		}
	}
	if j.DonFoundSheriff {
		g.DonFound, facts.DonFound = true, 1
	}
	if len(ps.list) > before {
		return g, false
	}
	points, err := mafia.SummaryPoints(rules, opt, facts)
	if err != nil {
		p := where
		p.Rule, p.Field = err, ruleField(err)
		var v *mafia.Violation
		if errors.As(err, &v) && v.Seat >= 1 && v.Seat <= n {
			p.Seat = v.Seat
			if where.Line > 0 {
				p.Line = j.Seats[v.Seat-1].line
			}
		}
		ps.add(p)
		return g, false
	}
	g.Points = points
	for i, s := range j.Seats {
		if len(s.Total) == 0 {
			continue
		}
		total, _ := decimalCell(string(s.Total))
		if total != points[i].Points {
			at("total", s.Seat, "the total of seat %d is %v, but the rules give %v for these facts", s.Seat, Hundredths(total), Hundredths(points[i].Points))
		}
		j.Seats[i].Total = nil // the engine's points are what counts
	}
	if len(ps.list) > before {
		return g, false
	}
	j.Host, j.Note = g.Host, g.Note
	g.Facts, _ = json.Marshal(j)
	sum := sha256.Sum256(g.Facts)
	g.Digest = hex.EncodeToString(sum[:])
	return g, true
}

func sameCounts(a RoleCounts, b map[mafia.Role]int) bool {
	for r, n := range a {
		if b[r] != n {
			return false
		}
	}
	for r, n := range b {
		if a[r] != n {
			return false
		}
	}
	return true
}

// ruleField is the field a rule the engine refused a summary by is about.
func ruleField(err error) string {
	re := RuleError(err)
	if re == nil {
		return ""
	}
	switch {
	case strings.Contains(re.Code, "best_move"):
		return "best_move"
	case re.Code == "no_club_extras":
		return "extras"
	case strings.HasPrefix(re.Code, "adjust") || strings.HasPrefix(re.Code, "extra") || re.Code == "no_points":
		return "judge_points"
	case re.Code == "no_fouls":
		return "fouls"
	case re.Code == "no_draw" || re.Code == "no_winner":
		return "winner"
	case re.Code == "no_don_found":
		return "don_found_sheriff"
	case re.Code == "no_such_seat":
		return "best_move"
	}
	return ""
}

// SummaryOf reads a stored summary game's facts (its JSON form) back and scores them again: what the copy's check
// and the game's page use.
func SummaryOf(facts []byte, zone *time.Location) (*SummaryGame, error) {
	var j summaryJSON
	if err := json.Unmarshal(facts, &j); err != nil {
		return nil, &Error{Code: Internal, Message: "a stored summary is not valid", Cause: err}
	}
	var ps problems
	g, ok := checkSummary(&j, SummaryProblem{Game: 1}, zone, ClubRules, time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), &ps)
	if !ok {
		return nil, &Error{Code: Internal, Message: "a stored summary does not check", Cause: ps.list[0]}
	}
	return &g, nil
}
