package club

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"mafiaclub/internal/convert"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// A foreign MWT (Mafia World Tour) game is a summary: roles, who left when and how, fouls, checks, the best move
// and points, no nominations or votes; it cannot be replayed (convert.ImportMWT refuses it), but it is an old
// protocol's summary, and the summaries import files it so (docs/summaries.md, "MWT"). MWT is read by
// internal/convert (convert.ReadMWT); here its facts become a summary's.

// MWTPlayerPrefix starts the nickname a seat of an MWT game is given: "MWT 101001" is MWT user 101001 (MWT names
// its players by id only).
const MWTPlayerPrefix = "MWT "

// isMWT says whether a JSON file is MWT: a list (of MWT games), or an object with MWT's "result" and no "games".
func isMWT(data []byte) bool {
	if data[0] == '[' {
		return true
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, games := top["games"]
	_, result := top["result"]
	return result && !games
}

// readMWTSummaries turns each MWT game of a file into a game of the JSON form (checked then as any other): its
// date and time the start's in zone, its table and number MWT's table_number and session_number, the seats' MWT
// ids as nicknames, the result, fouls, the removals as disqualifications (leave_type 3 and 4; a 4th foul is one
// already), the first night's victim and his best move (MWT's count of its blacks checked by the roles), the
// don's find of the sheriff, and game_bonus less penalty as the host's or judge's points. MWT's disciplinary
// penalties (-0.5, -0.7) are its own system's: the rule set's own penalty for the disqualification is given
// instead. The rule set is the page's (the club's default); MWT does not say it.
func readMWTSummaries(data []byte, zone *time.Location, ps *problems) []summaryJSON {
	raws, err := convert.MWTGames(data)
	if err != nil {
		ps.add(mwtProblem(1, err))
		return nil
	}
	var out []summaryJSON
	for i, raw := range raws {
		n := i + 1
		f, err := convert.ReadMWT(raw, zone)
		if err != nil {
			ps.add(mwtProblem(n, err))
			continue
		}
		if f.Ours {
			ps.add(SummaryProblem{Game: n, Field: "mafiaclub", Format: "this MWT game is our own export and holds the whole game, which replays: import it as a game at %s", Args: []any{"/admin/import"}})
			continue
		}
		j := summaryJSON{Date: f.Start.Format("2006-01-02"), Time: f.Start.Format("15:04"), Table: f.Table, Game: f.Session,
			Winner: f.Winner.String(), Note: strings.TrimSpace(f.Comment)}
		if f.Table == 0 {
			j.Table = 1
		}
		if f.Session == 0 {
			ps.add(SummaryProblem{Game: n, Field: "session_number", Format: "an MWT game needs its %s: it is the game's number at its table", Args: []any{"session_number"}})
			continue
		}
		if f.Referee != 0 {
			j.Host = fmt.Sprintf("%s%d", MWTPlayerPrefix, f.Referee)
		}
		sheriffFound := false
		bad := false
		for k, s := range f.Seats {
			seat := k + 1
			if s.Player == 0 {
				ps.add(SummaryProblem{Game: n, Seat: seat, Field: fmt.Sprintf("result.players[%d]", k), Format: "the MWT game names no player at seat %d; a summary needs every seat's player", Args: []any{seat}})
				bad = true
				continue
			}
			js := summarySeatJSON{Seat: seat, Player: fmt.Sprintf("%s%d", MWTPlayerPrefix, s.Player), Role: s.Role.String(), Fouls: s.Fouls}
			switch s.Left.Kind {
			case 3, 4:
				js.Disqualified = s.Fouls < 4 // a 4th foul disqualifies already
			}
			if s.Points != 0 {
				js.JudgePoints = json.RawMessage(record.FormatPoints(s.Points))
			}
			if s.Role == mafia.Sheriff && s.DonCheck > 0 {
				sheriffFound = true
			}
			j.Seats = append(j.Seats, js)
		}
		if bad {
			continue
		}
		first := f.KilledFirst
		if first == 0 {
			for k, s := range f.Seats {
				if s.Left.Kind == 2 && s.Left.Round == 1 {
					first = k + 1
				}
			}
		}
		if first > 0 {
			j.Seats[first-1].FirstKilled = true
			if len(f.BestMove) > 0 {
				j.BestMove = &bestMoveJSON{Seat: first, Named: f.BestMove, Blacks: f.BestMoveBlacks}
			}
		}
		j.DonFoundSheriff = sheriffFound
		out = append(out, j)
	}
	return out
}

var mwtSeatPhrase = regexp.MustCompile(` \(seat (\d+)\)`)

// mwtProblem is a problem of the n-th MWT game as internal/convert names it: its field (MWT's path, the seat
// taken out of it) and its message, which the catalogues translate.
func mwtProblem(n int, err error) SummaryProblem {
	p := SummaryProblem{Game: n}
	var where string
	var ie *convert.InputError
	var ge *convert.GameError
	switch {
	case errors.As(err, &ie):
		where, p.Format, p.Args = ie.Where, ie.Format, ie.Args
	case errors.As(err, &ge):
		where, p.Format, p.Args = ge.Where, ge.Format, ge.Args
	default:
		p.Format, p.Args = "%s", []any{err.Error()}
	}
	if m := mwtSeatPhrase.FindStringSubmatch(where); m != nil {
		fmt.Sscan(m[1], &p.Seat)
		where = mwtSeatPhrase.ReplaceAllString(where, "")
	}
	p.Field = where
	if p.Format == "" {
		p.Format, p.Args = "%s", []any{err.Error()}
	}
	return p
}

// mwtJSON says whether t (trimmed JSON) is to be read as MWT games.
func mwtJSON(t []byte) bool { return len(t) > 0 && (t[0] == '[' || (t[0] == '{' && isMWT(t))) }
