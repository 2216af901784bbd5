package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// MWT (Mafia World Tour) is the game form through which FIIM-rated tournaments report their games: a summary of
// one 10-seat game (the players' MWT ids and roles, the result, who left when and how, fouls, the checks, the
// first night victim's best move, extra points and penalties), without nominations, votes or shots. Its fields
// are those of mafiaratings' converters (szotin/mafiaratings include/mwt_game.php: convert_game_to_mwt and
// convert_mwt_game); docs/record-extensions.md maps them to our record.
//
// Our export writes exactly what mafiaratings' convert_game_to_mwt writes for the same game, and adds our own
// field "mafiaclub": {"mafiaratings": GAME}, the game as our mafiaratings export writes it, which holds what MWT
// cannot say (nominations, every vote, shots, the moments of fouls, the rule set), so that importing our export
// gives the same game. Their converters ignore it.

// MWTMeta are the fields of an MWT game that the record does not hold: the MWT tournament, table, session (the
// game's number at its table), part (the tournament's stage, 1 the main round), the referee's and the players'
// MWT user ids, the start and the end (Unix seconds), and the club's time zone, in which MWT writes times. Zero
// fields are taken from the record's carried "mwt" field (an import keeps the MWT game's) and its "started" and
// "ended".
type MWTMeta struct {
	Tournament, Table, Session, Part, Referee int
	Players                                   map[int]int // seat -> MWT user id
	Start, End                                int64
	Zone                                      *time.Location
}

// mwtCarried is the record's "mwt" field: an MWT game's fields the record has no place for.
type mwtCarried struct {
	Tournament int   `json:"tournament_id,omitempty"`
	Table      int   `json:"table_number,omitempty"`
	Session    int   `json:"session_number,omitempty"`
	Part       int   `json:"part_number,omitempty"`
	Referee    int   `json:"referee_user_id,omitempty"`
	Players    []int `json:"players,omitempty"`
}

type mwtGame struct {
	TournamentID  int        `json:"tournament_id"`
	TableNumber   int        `json:"table_number"`
	SessionNumber int        `json:"session_number"`
	PartNumber    int        `json:"part_number"`
	RefereeUserID int        `json:"referee_user_id"`
	Result        mwtResult  `json:"result"`
	Mafiaclub     *mwtExtOut `json:"mafiaclub,omitempty"`
}

type mwtExtOut struct {
	Mafiaratings json.RawMessage `json:"mafiaratings"`
}

type mwtResult struct {
	StartTime           string            `json:"start_time"`
	EndTime             string            `json:"end_time"`
	Result              string            `json:"result"`
	BlackCount          int               `json:"black_count"`
	RedCount            int               `json:"red_count"`
	Players             []*int            `json:"players"`
	IsReplacement       []int             `json:"is_replacement"`
	PlayerRoles         []string          `json:"player_roles"`
	GameAutobonus       []int             `json:"game_autobonus"`
	GameBonus           []json.RawMessage `json:"game_bonus"`
	Penalty             []json.RawMessage `json:"penalty"`
	PenaltyDisciplinary []json.RawMessage `json:"penalty_disciplinary"`
	RevealDon           []*int            `json:"reveal_don"`
	RevealSheriff       []*int            `json:"reveal_sheriff"`
	PlayerFouls         []int             `json:"player_fouls"`
	Leaves              []*mwtLeave       `json:"leaves"`
	Comment             string            `json:"comment"`
	KilledFirst         *int              `json:"killed_first,omitempty"`
	BestMoveValue       []int             `json:"best_move_value,omitempty"`
	BestMove            *int              `json:"best_move,omitempty"`
}

// mwtLeave is one departure. leave_type: 1 voted out, 2 killed at night, 3 disqualified (fouls included), 4
// disqualified with his team's loss. nights_before_count and days_before_count are the nights and days played
// before he left, the night or day he left in included (mafiaratings' rounds: a day-round-r departure has r
// nights and r+1 days before it, a night-round-r one r of each).
type mwtLeave struct {
	LeaveType          int  `json:"leave_type"`
	VotesCount         int  `json:"votes_count"`
	NightsBeforeCount  int  `json:"nights_before_count"`
	DaysBeforeCount    int  `json:"days_before_count"`
	PNum               int  `json:"p_num"`
	PlayersBeforeCount int  `json:"players_before_count"`
	GameEnded          int  `json:"game_ended"`
	LeaveAlongCount    *int `json:"leave_along_count,omitempty"`
}

// ExportMWT turns our record into an MWT game. The game must be finished with a winner (MWT has no draw) and
// expressible on mafiaratings (10 seats, a FIIM-lineage rule set): MWT is what mafiaratings makes of its game.
func ExportMWT(data []byte, meta MWTMeta) ([]byte, error) {
	rec, err := record.Decode(data)
	if err != nil {
		return nil, inputErr("", "not a valid game record: %v", err)
	}
	return ExportMWTRecord(rec, meta)
}

// ExportMWTRecord is ExportMWT for a decoded record.
func ExportMWTRecord(rec *record.Record, meta MWTMeta) ([]byte, error) {
	var c mwtCarried
	if raw, ok := rec.Extra["mwt"]; ok {
		_ = json.Unmarshal(raw, &c)
	}
	mrJSON, err := ExportRecord(rec, MRMeta{Draft: true, Start: meta.Start, End: meta.End})
	if err != nil {
		return nil, err
	}
	var mr mrGameOut
	if err := json.Unmarshal(mrJSON, &mr); err != nil {
		return nil, err
	}
	if mr.Winner != "civ" && mr.Winner != "maf" {
		if mr.Winner == "tie" {
			return nil, gameErr("winner", "the game was drawn; MWT records a red or a black win only")
		}
		return nil, gameErr("winner", "the game is unfinished; MWT records finished games only")
	}
	pick := func(flag, carried int) int {
		if flag != 0 {
			return flag
		}
		return carried
	}
	out := mwtGame{TournamentID: pick(meta.Tournament, c.Tournament), TableNumber: pick(meta.Table, c.Table),
		SessionNumber: pick(meta.Session, c.Session), PartNumber: pick(meta.Part, c.Part), RefereeUserID: pick(meta.Referee, c.Referee)}
	var missing []string
	need := func(v int, what string) {
		if v == 0 {
			missing = append(missing, what)
		}
	}
	need(out.TournamentID, "tournament_id (--tournament)")
	need(out.TableNumber, "table_number (--table)")
	need(out.SessionNumber, "session_number (--game)")
	if out.PartNumber == 0 {
		out.PartNumber = 1 // the main round, as mafiaratings writes a game of a one-round tournament
	}
	need(out.RefereeUserID, "referee_user_id (--referee)")
	zone := meta.Zone
	if zone == nil {
		zone = time.UTC
	}
	if mr.StartTime == nil || mr.EndTime == nil {
		missing = append(missing, "start_time and end_time (--start and --end, or the record's \"started\" and \"ended\")")
	}
	res := &out.Result
	var noID []string
	for i := range mr.Players {
		seat := i + 1
		id := 0
		if i < len(c.Players) {
			id = c.Players[i]
		}
		if v, ok := meta.Players[seat]; ok {
			id = v
		}
		if id == 0 {
			noID = append(noID, strconv.Itoa(seat))
			res.Players = append(res.Players, nil)
		} else {
			res.Players = append(res.Players, &id)
		}
	}
	if len(noID) > 0 {
		missing = append(missing, "the MWT ids of seats "+strings.Join(noID, ", ")+" (--player SEAT=ID)")
	}
	if len(missing) > 0 {
		return nil, gameErr("", "an MWT game needs %s", strings.Join(missing, "; "))
	}
	res.StartTime, res.EndTime = mwtTime(*mr.StartTime, zone), mwtTime(*mr.EndTime, zone)
	mwtResultOf(&mr, res)
	out.Mafiaclub = &mwtExtOut{Mafiaratings: compactJSON(mrJSON)}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func compactJSON(data []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return data
	}
	return b.Bytes()
}

// mwtTime writes a moment as MWT does (PHP's date('Y-m-d G:i:s') in the club's zone: the hour without a
// leading zero).
func mwtTime(unix int64, zone *time.Location) string {
	t := time.Unix(unix, 0).In(zone)
	return fmt.Sprintf("%s %d:%s", t.Format("2006-01-02"), t.Hour(), t.Format("04:05"))
}

// mwtNight says whether a mafiaratings game time is at night (their Game::is_night).
func mwtNight(t *mrTime) bool {
	if t == nil {
		return false
	}
	switch t.Time {
	case "start", "arrangement", "relaxed sitting", "night start", "shooting", "don", "sheriff", "night end":
		return true
	}
	return false
}

// mwtResultOf fills the MWT result from our mafiaratings export of the same game, field by field as
// convert_game_to_mwt does.
func mwtResultOf(mr *mrGameOut, res *mwtResult) {
	res.Result = "red"
	if mr.Winner == "maf" {
		res.Result = "black"
	}
	res.IsReplacement = make([]int, 0, 10)
	res.RevealDon, res.RevealSheriff, res.Leaves = []*int{}, []*int{}, []*mwtLeave{}
	var comments []string
	black := func(p *mrPlayerOut) bool { return p.Role == "maf" || p.Role == "don" }
	for i := range mr.Players {
		p := &mr.Players[i]
		seat := i + 1
		disciplinary := 0
		if d := p.Death; d != nil {
			l := &mwtLeave{NightsBeforeCount: d.Round, DaysBeforeCount: d.Round, PNum: seat}
			switch d.Type {
			case "giveUp", "kickOut", "warnings", "techFouls":
				disciplinary, l.LeaveType = -50, 3
				if !mwtNight(d.Time) {
					l.DaysBeforeCount++
				}
			case "teamKickOut":
				disciplinary, l.LeaveType = -70, 4
				if !mwtNight(d.Time) {
					l.DaysBeforeCount++
				}
			case "night":
				l.LeaveType = 2
				if d.Round == 1 {
					s := seat
					res.KilledFirst = &s
					if len(p.Legacy) > 0 {
						res.BestMoveValue = p.Legacy
						n := 0
						for _, t := range p.Legacy {
							if black(&mr.Players[t-1]) {
								n++
							}
						}
						res.BestMove = &n
					}
				}
			case "day":
				l.LeaveType = 1
				l.DaysBeforeCount = d.Round + 1
				for j := range mr.Players {
					// only a single vote counts: their comparison of a day's list of re-votes with a seat is false
					if v := mr.Players[j].Voting; d.Round < len(v) && string(v[d.Round]) == strconv.Itoa(seat) {
						l.VotesCount++
					}
				}
			}
			if l.LeaveType != 0 {
				res.Leaves = append(res.Leaves, l)
			}
		}
		role := "red"
		switch p.Role {
		case "maf":
			role = "black"
		case "don", "sheriff":
			role = p.Role
		}
		res.PlayerRoles = append(res.PlayerRoles, role)
		if p.Death == nil {
			if black(p) {
				res.BlackCount++
			} else {
				res.RedCount++
			}
		}
		bonus, penalty := 0, 0
		if len(p.Bonus) > 0 {
			if h, err := record.Hundredths(p.Bonus); err == nil {
				if h > 0 {
					bonus = h
				} else {
					penalty = h
				}
			}
		}
		res.GameAutobonus = append(res.GameAutobonus, 1)
		res.GameBonus = append(res.GameBonus, json.RawMessage(record.FormatPoints(bonus)))
		res.Penalty = append(res.Penalty, json.RawMessage(record.FormatPoints(penalty)))
		res.PenaltyDisciplinary = append(res.PenaltyDisciplinary, json.RawMessage(record.FormatPoints(disciplinary)))
		res.IsReplacement = append(res.IsReplacement, 0)
		for _, c := range []struct {
			night *int
			list  *[]*int
		}{{p.Don, &res.RevealDon}, {p.Sheriff, &res.RevealSheriff}} {
			if c.night == nil {
				continue
			}
			for len(*c.list) < *c.night {
				*c.list = append(*c.list, nil)
			}
			s := seat
			(*c.list)[*c.night-1] = &s
		}
		res.PlayerFouls = append(res.PlayerFouls, len(p.Warnings))
		if p.Comment != "" {
			comments = append(comments, fmt.Sprintf("%d. %s", seat, p.Comment))
		}
	}
	res.Comment = strings.Join(comments, "\n")
	sort.SliceStable(res.Leaves, func(i, j int) bool {
		a, b := res.Leaves[i], res.Leaves[j]
		if a.NightsBeforeCount != b.NightsBeforeCount {
			return a.NightsBeforeCount < b.NightsBeforeCount
		}
		if a.DaysBeforeCount != b.DaysBeforeCount {
			return a.DaysBeforeCount < b.DaysBeforeCount
		}
		return a.LeaveType < b.LeaveType
	})
	// players_before_count, game_ended and leave_along_count (the players voted out together), as they count them
	beg := 0
	along := func(from, to int) {
		for j := from; j < to; j++ {
			n := to - from
			res.Leaves[j].LeaveAlongCount = &n
		}
	}
	for i, l := range res.Leaves {
		l.PlayersBeforeCount = 10 - i
		if i > 0 {
			prev := res.Leaves[beg]
			if l.LeaveType != 1 || prev.LeaveType != 1 || l.NightsBeforeCount != prev.NightsBeforeCount || l.DaysBeforeCount != prev.DaysBeforeCount {
				along(beg, i)
				beg = i
			}
		}
	}
	if n := len(res.Leaves); n > 0 {
		res.Leaves[n-1].GameEnded = 1
		along(beg, n)
	}
}

// ImportMWT reads one MWT game as our record. Start and end times are read in zone (the club's time zone, in
// which MWT writes them). An MWT game our export wrote carries the whole game in its "mafiaclub" field; it
// imports as that game, and its MWT fields must agree with it (an import that disagrees is refused, naming the
// first difference). Any other MWT game is a summary: it is read as mafiaratings reads it (convert_mwt_game),
// with the only shots a recorded night kill allows (every black at the table shot the victim, R43) filled in
// and marked reconstructed, and replayed; a game whose departures need nominations or votes MWT does not
// record cannot be replayed without guessing them, and the builder refuses it, naming the seat.
func ImportMWT(data []byte, zone *time.Location) (*Imported, error) {
	if zone == nil {
		zone = time.UTC
	}
	h, err := mwtHeadOf(data, zone)
	if err != nil {
		return nil, err
	}
	c, times, top := h.carried, h.times, h.top
	var im *Imported
	if ext, ok := top["mafiaclub"]; ok && !isNull(ext) {
		im, err = mwtOurs(ext)
	} else {
		im, err = mwtSummary(h)
	}
	if err != nil {
		return nil, err
	}
	extra := map[string]json.RawMessage{}
	for k, v := range im.Record.Extra {
		extra[k] = v
	}
	extra["mwt"], _ = json.Marshal(c)
	extra["source"], _ = json.Marshal("mwt")
	for k, t := range map[string]int64{"started": times[0], "ended": times[1]} {
		extra[k], _ = json.Marshal(time.Unix(t, 0).In(zone).Format(time.RFC3339))
	}
	rec, err := record.New(im.Record.Rules.ID, im.Record.OptionJSON, im.Record.Seats, im.Record.Events, extra)
	if err != nil {
		return nil, gameErr("", "the imported record is not valid: %v", err)
	}
	im.Record = rec
	// The MWT fields must say what the game says: export it again and compare.
	again, err := ExportMWTRecord(rec, MWTMeta{Zone: zone})
	if err != nil {
		return nil, gameErr("", "the game does not export to MWT again: %v", err)
	}
	var want, got map[string]any
	_ = json.Unmarshal(data, &want)
	_ = json.Unmarshal(again, &got)
	if d := mwtDiff(want["result"], got["result"], "result"); d != "" {
		return nil, gameErr(d, "the MWT game says %s, but the game it replays to says %s", mwtShow(want["result"], d), mwtShow(got["result"], d))
	}
	return im, nil
}

// mwtHead is an MWT game's fields every reading of it checks first: the ids, the players' MWT ids, the roles'
// list, the times (read in the club's zone) and the result.
type mwtHead struct {
	top, res map[string]json.RawMessage
	carried  mwtCarried
	times    [2]int64
	winner   string
}

func mwtHeadOf(data []byte, zone *time.Location) (*mwtHead, error) {
	top, err := decodeObject(data, "")
	if err != nil {
		return nil, err
	}
	var c mwtCarried
	for _, f := range []struct {
		key string
		dst *int
	}{{"tournament_id", &c.Tournament}, {"table_number", &c.Table}, {"session_number", &c.Session},
		{"part_number", &c.Part}, {"referee_user_id", &c.Referee}} {
		if present(top, f.key) {
			if *f.dst, err = intOf(top[f.key], f.key); err != nil {
				return nil, err
			}
		}
	}
	if c.Tournament == 0 {
		return nil, inputErr("tournament_id", "missing")
	}
	if !present(top, "result") {
		return nil, inputErr("result", "missing")
	}
	res, err := objOf(top["result"], "result")
	if err != nil {
		return nil, err
	}
	list := func(key string) ([]json.RawMessage, error) {
		w := "result." + key
		if !present(res, key) {
			return nil, inputErr(w, "missing")
		}
		l, err := listOf(res[key], w)
		if err != nil {
			return nil, err
		}
		if len(l) != 10 {
			return nil, inputErr(w, "must have one entry for each of the 10 players, not %d", len(l))
		}
		return l, nil
	}
	players, err := list("players")
	if err != nil {
		return nil, err
	}
	for i, raw := range players {
		id := 0
		if !isNull(raw) {
			w := fieldf("result.players[%d] (seat %d)", i, i+1)
			s := strings.Trim(strings.TrimSpace(string(raw)), `"`) // mafiaratings writes the ids as strings
			if id, err = strconv.Atoi(s); err != nil || id <= 0 {
				return nil, inputErr(w, "must be an MWT user id, not %s", short(raw))
			}
		}
		c.Players = append(c.Players, id)
	}
	if _, err := list("player_roles"); err != nil {
		return nil, err
	}
	times := [2]int64{}
	for i, key := range []string{"start_time", "end_time"} {
		w := "result." + key
		if !present(res, key) {
			return nil, inputErr(w, "missing")
		}
		s, err := strOf(res[key], w)
		if err != nil {
			return nil, err
		}
		t, err := time.ParseInLocation("2006-01-02 15:04:05", mwtPadHour(s), zone)
		if err != nil {
			return nil, inputErr(w, "%q is not a time of the form 2026-07-15 19:04:05", s)
		}
		times[i] = t.Unix()
	}
	if !present(res, "result") {
		return nil, inputErr("result.result", "missing")
	}
	winner, err := strOf(res["result"], "result.result")
	if err != nil {
		return nil, err
	}
	if winner != "red" && winner != "black" {
		return nil, inputErr("result.result", "unknown result %q (red, black)", winner)
	}
	return &mwtHead{top: top, res: res, carried: c, times: times, winner: winner}, nil
}

// mwtPadHour gives MWT's hour without a leading zero one, for Go's parser.
func mwtPadHour(s string) string {
	if date, clock, ok := strings.Cut(s, " "); ok && len(clock) == 7 {
		return date + " 0" + clock
	}
	return s
}

// mwtOurs imports the game our export carried in "mafiaclub".
func mwtOurs(ext json.RawMessage) (*Imported, error) {
	o, err := objOf(ext, "mafiaclub")
	if err != nil {
		return nil, err
	}
	if !present(o, "mafiaratings") {
		return nil, inputErr("mafiaclub.mafiaratings", "missing")
	}
	im, err := ImportMafiaratings(o["mafiaratings"])
	if err != nil {
		return nil, mwtWhere(err, "mafiaclub.mafiaratings")
	}
	return im, nil
}

// mwtWhere puts the field the error comes from before its place.
func mwtWhere(err error, prefix string) error {
	switch e := err.(type) {
	case *InputError:
		c := *e
		c.Where = strings.TrimSuffix(prefix+"."+c.Where, ".")
		return &c
	case *GameError:
		c := *e
		c.Where = strings.TrimSuffix(prefix+"."+c.Where, ".")
		return &c
	}
	return err
}

// MWTFacts is what an MWT game says, in a neutral form: its ids, its times, the result, each seat's facts, the
// first night's victim and his best move, and the comment. ReadMWT gives it; ImportMWT replays a summary from it
// and a club's old protocols' import (club.ParseSummaries) files it as a summary.
type MWTFacts struct {
	Tournament, Table, Session, Part, Referee int
	Start, End                                time.Time // in the zone the file was read in
	Winner                                    mafia.Winner
	Seats                                     []MWTSeat // seat i+1 is Seats[i]; always 10
	KilledFirst                               int       // the seat killed on the first night, 0 when none is given
	BestMove                                  []int     // the seats the first night's victim named
	BestMoveBlacks                            *int      // how many of them MWT says were black (best_move), when given
	Comment                                   string
	// Ours: the game carries our "mafiaclub" field, the whole game, which ImportMWT replays; nothing else is read.
	Ours bool
}

// MWTSeat is one seat of an MWT game. Points are game_bonus less penalty (a penalty is a deduction whatever its
// sign), hundredths; Disciplinary is penalty_disciplinary as given (MWT's own fine for a removal, hundredths).
type MWTSeat struct {
	Player       int // the MWT user id, 0 when the file gives none
	Role         mafia.Role
	Fouls        int
	Points       int
	Disciplinary int
	Left         MWTLeave
	DonCheck     int // the night the don checked him, 0 none
	SheriffCheck int // the night the sheriff checked him, 0 none
}

// MWTLeave is how a seat left the game: Kind is MWT's leave_type (0 he stayed, 1 voted out, 2 killed at night,
// 3 disqualified, fouls included, 4 disqualified with his team's loss), Round the mafiaratings round he left in
// (a night's number for a night kill).
type MWTLeave struct {
	Kind, Round int
}

// MWTGames splits a file of MWT games: one game's object, or a JSON list of them.
func MWTGames(data []byte) ([]json.RawMessage, error) {
	t := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\ufeff")))
	if len(t) > 0 && t[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(t, &list); err != nil {
			return nil, inputErr("", "not a JSON list of MWT games: %v", err)
		}
		if len(list) == 0 {
			return nil, inputErr("", "the list has no MWT games")
		}
		return list, nil
	}
	return []json.RawMessage{t}, nil
}

// ReadMWT reads one MWT game's facts, its times in zone (the club's, in which MWT writes them). It checks what
// ImportMWT checks, field by field, and names the field of the first problem; a game with our "mafiaclub" field is
// given with Ours set and its ids, times and result only.
func ReadMWT(data []byte, zone *time.Location) (*MWTFacts, error) {
	if zone == nil {
		zone = time.UTC
	}
	h, err := mwtHeadOf(data, zone)
	if err != nil {
		return nil, err
	}
	if ext, ok := h.top["mafiaclub"]; ok && !isNull(ext) {
		f := &MWTFacts{Ours: true}
		h.fill(f, zone)
		return f, nil
	}
	return mwtFactsOf(h, zone)
}

func (h *mwtHead) fill(f *MWTFacts, zone *time.Location) {
	c := h.carried
	f.Tournament, f.Table, f.Session, f.Part, f.Referee = c.Tournament, c.Table, c.Session, c.Part, c.Referee
	f.Start, f.End = time.Unix(h.times[0], 0).In(zone), time.Unix(h.times[1], 0).In(zone)
	f.Winner = mafia.RedWins
	if h.winner == "black" {
		f.Winner = mafia.BlackWins
	}
}

// mwtFactsOf reads the result's facts as mafiaratings' convert_mwt_game reads them.
func mwtFactsOf(h *mwtHead, zone *time.Location) (*MWTFacts, error) {
	f := &MWTFacts{}
	h.fill(f, zone)
	var r struct {
		Roles         []string          `json:"player_roles"`
		Fouls         []json.RawMessage `json:"player_fouls"`
		Bonus         []json.RawMessage `json:"game_bonus"`
		Penalty       []json.RawMessage `json:"penalty"`
		Disciplinary  []json.RawMessage `json:"penalty_disciplinary"`
		KilledFirst   *int              `json:"killed_first"`
		BestMoveValue json.RawMessage   `json:"best_move_value"`
		BestMove      json.RawMessage   `json:"best_move"`
		Leaves        []json.RawMessage `json:"leaves"`
		RevealDon     []*int            `json:"reveal_don"`
		RevealSheriff []*int            `json:"reveal_sheriff"`
		Comment       string            `json:"comment"`
	}
	raw, _ := json.Marshal(h.res)
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, inputErr("result", "not an MWT result: %v", err)
	}
	f.Comment = r.Comment
	if len(r.Roles) != 10 {
		return nil, inputErr("result.player_roles", "must have one entry for each of the 10 players, not %d", len(r.Roles))
	}
	for i := 0; i < 10; i++ {
		s := MWTSeat{Player: h.carried.Players[i]}
		w := fieldf("result.player_roles[%d] (seat %d)", i, i+1)
		switch r.Roles[i] {
		case "red":
			s.Role = mafia.Citizen
		case "black":
			s.Role = mafia.Mafia
		case "sheriff":
			s.Role = mafia.Sheriff
		case "don":
			s.Role = mafia.Don
		default:
			return nil, inputErr(w, "unknown role %q (red, black, sheriff, don)", r.Roles[i])
		}
		if i < len(r.Fouls) {
			n, err := intOf(r.Fouls[i], fieldf("result.player_fouls[%d] (seat %d)", i, i+1))
			if err != nil {
				return nil, err
			}
			s.Fouls = n
		}
		// extra points less penalties (mafiaratings writes penalties negative, MWT's own site positive: either is
		// a deduction)
		for _, l := range []struct {
			list []json.RawMessage
			key  string
		}{{r.Bonus, "game_bonus"}, {r.Penalty, "penalty"}, {r.Disciplinary, "penalty_disciplinary"}} {
			if i >= len(l.list) || isNull(l.list[i]) {
				continue
			}
			p, err := record.Hundredths(l.list[i])
			if err != nil {
				return nil, inputErr(fieldf("result.%s[%d] (seat %d)", l.key, i, i+1), "%v", err)
			}
			switch l.key {
			case "penalty":
				if p > 0 {
					p = -p
				}
				s.Points += p
			case "game_bonus":
				s.Points += p
			default:
				s.Disciplinary = p
			}
		}
		f.Seats = append(f.Seats, s)
	}
	if r.KilledFirst != nil && *r.KilledFirst >= 1 && *r.KilledFirst <= 10 {
		f.KilledFirst = *r.KilledFirst
		if len(r.BestMoveValue) > 0 && !isNull(r.BestMoveValue) {
			if err := json.Unmarshal(r.BestMoveValue, &f.BestMove); err != nil {
				return nil, inputErr("result.best_move_value", "must be a list of seats, not %s", short(r.BestMoveValue))
			}
			if len(r.BestMove) > 0 && !isNull(r.BestMove) {
				n, err := intOf(r.BestMove, "result.best_move")
				if err != nil {
					return nil, err
				}
				f.BestMoveBlacks = &n
			}
		}
	}
	for i, raw := range r.Leaves {
		w := fieldf("result.leaves[%d]", i)
		l, err := objOf(raw, w)
		if err != nil {
			return nil, err
		}
		num := func(k string) (int, bool, error) {
			if !present(l, k) {
				return 0, false, nil
			}
			v, err := intOf(l[k], w+"."+k)
			return v, true, err
		}
		seat, ok, err := num("p_num")
		if err != nil || !ok || seat < 1 || seat > 10 {
			continue // as mafiaratings reads it: a leave without a seat is skipped
		}
		typ, ok, err := num("leave_type")
		if err != nil || !ok || typ < 1 || typ > 4 {
			continue
		}
		nights, hasN, err := num("nights_before_count")
		if err != nil {
			return nil, err
		}
		days, hasD, err := num("days_before_count")
		if err != nil {
			return nil, err
		}
		left := MWTLeave{Kind: typ}
		switch {
		case hasN:
			left.Round = nights
		case hasD && typ == 2:
			left.Round = days
		case hasD:
			left.Round = days - 1
		default:
			return nil, inputErr(w, "says neither how many nights nor how many days were played before the player left")
		}
		f.Seats[seat-1].Left = left
	}
	for _, c := range []struct {
		list []*int
		don  bool
	}{{r.RevealDon, true}, {r.RevealSheriff, false}} {
		for i, s := range c.list {
			if s == nil || *s < 1 || *s > 10 {
				continue
			}
			if c.don {
				f.Seats[*s-1].DonCheck = i + 1
			} else {
				f.Seats[*s-1].SheriffCheck = i + 1
			}
		}
	}
	return f, nil
}

// mwtSummary reads an MWT game without our field as mafiaratings' convert_mwt_game reads it (a mafiaratings game
// with don and sheriff checks, deaths with their round and type, the best move and foul counts), adds the shots
// of each night kill, and imports that.
func mwtSummary(h *mwtHead) (*Imported, error) {
	f, err := mwtFactsOf(h, time.UTC)
	if err != nil {
		return nil, err
	}
	mr, err := mwtToMR(f, h.times)
	if err != nil {
		return nil, err
	}
	im, err := ImportMafiaratings(mr)
	if err != nil {
		if ge, ok := err.(*GameError); ok {
			return nil, gameErr("result", "this MWT game is a summary without nominations, votes or shots (it carries no mafiaclub field), and its replay needs facts it does not record; they are not guessed: import it as an old protocol's summary at /admin/summaries instead (%s)", ge.Error())
		}
		return nil, mwtWhere(err, "result")
	}
	rec := im.Record
	events := append([]record.Event(nil), rec.Events...)
	for i := range events {
		if events[i].Type == mafia.EvShot {
			events[i].Reconstructed = true
		}
	}
	note := "Imported from an MWT game: a summary (who left when and how, fouls, checks, the best move, points), without nominations, votes or shots; " +
		"each night kill's shots are filled in (every black at the table shot the victim, R43) and marked reconstructed; fouls carry no moment."
	extra := map[string]json.RawMessage{}
	for k, v := range rec.Extra {
		extra[k] = v
	}
	var old string
	_ = json.Unmarshal(rec.Extra["note"], &old)
	extra["note"], _ = json.Marshal(strings.TrimSpace(note + " " + old))
	delete(extra, "mafiaratings")
	delete(extra, "id")
	out, err := record.New(rec.Rules.ID, rec.OptionJSON, rec.Seats, events, extra)
	if err != nil {
		return nil, gameErr("", "the imported record is not valid: %v", err)
	}
	im.Record = out
	im.Notes = append([]string{note}, im.Notes...)
	return im, nil
}

// mwtToMR is the MWT result as mafiaratings' convert_mwt_game reads it, as mafiaratings game JSON, with the
// shots of each night kill added.
func mwtToMR(f *MWTFacts, times [2]int64) ([]byte, error) {
	type mrP struct {
		Name     string `json:"name"`
		Role     string `json:"role,omitempty"`
		Warnings int    `json:"warnings"`
		Bonus    any    `json:"bonus,omitempty"`
		Legacy   []int  `json:"legacy,omitempty"`
		Death    *struct {
			Type  string `json:"type"`
			Round int    `json:"round"`
		} `json:"death,omitempty"`
		Don      *int   `json:"don,omitempty"`
		Sheriff  *int   `json:"sheriff,omitempty"`
		Shooting []*int `json:"shooting,omitempty"`
	}
	g := struct {
		Rules     string `json:"rules"`
		Features  string `json:"features"`
		Winner    string `json:"winner"`
		StartTime int64  `json:"startTime"`
		EndTime   int64  `json:"endTime"`
		Players   []*mrP `json:"players"`
		Comment   string `json:"comment,omitempty"`
	}{Rules: "0000000000000", Features: "gsdutlwh", Winner: "civ", StartTime: times[0], EndTime: times[1]}
	if f.Winner == mafia.BlackWins {
		g.Winner = "maf"
	}
	for i, s := range f.Seats {
		p := &mrP{Name: fmt.Sprintf("Seat %d", i+1), Warnings: s.Fouls}
		switch s.Role {
		case mafia.Mafia:
			p.Role = "maf"
		case mafia.Sheriff, mafia.Don:
			p.Role = s.Role.String()
		}
		// the disqualification's own points are the rule set's (R80), paid by the replay
		if s.Points != 0 {
			p.Bonus = json.RawMessage(record.FormatPoints(s.Points))
		}
		if k := s.Left.Kind; k != 0 {
			p.Death = &struct {
				Type  string `json:"type"`
				Round int    `json:"round"`
			}{Type: [...]string{"", "day", "night", "kickOut", "teamKickOut"}[k], Round: s.Left.Round}
			if k == 3 && s.Fouls >= 4 {
				p.Death.Type = "warnings"
			}
		}
		if n := s.DonCheck; n > 0 {
			p.Don = &n
		}
		if n := s.SheriffCheck; n > 0 {
			p.Sheriff = &n
		}
		g.Players = append(g.Players, p)
	}
	if f.KilledFirst > 0 && len(f.BestMove) > 0 {
		g.Players[f.KilledFirst-1].Legacy = f.BestMove
	}
	// A night kill: every black at the table shot the victim (R43), the only shots that give it.
	gone := func(p *mrP, night int) bool { // he left before night round `night`
		if p.Death == nil {
			return false
		}
		if p.Death.Type == "night" {
			return p.Death.Round < night
		}
		return p.Death.Round < night // a day or a disqualification of an earlier round
	}
	for v, victim := range g.Players {
		if victim.Death == nil || victim.Death.Type != "night" || victim.Death.Round < 1 {
			continue
		}
		night := victim.Death.Round
		for _, p := range g.Players {
			if (p.Role == "maf" || p.Role == "don") && !gone(p, night) {
				for len(p.Shooting) < night {
					p.Shooting = append(p.Shooting, nil)
				}
				t := v + 1
				p.Shooting[night-1] = &t
			}
		}
	}
	return json.Marshal(g)
}

// mwtDiff names the first field where two parsed MWT values differ ("" when they agree). Numbers compare by
// value, and a number written as a string (mafiaratings writes user ids so) equals the number.
func mwtDiff(a, b any, where string) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return where
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		var sorted []string
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			if d := mwtDiff(x[k], y[k], where+"."+k); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return where
		}
		for i := range x {
			if d := mwtDiff(x[i], y[i], fmt.Sprintf("%s[%d]", where, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if mwtScalar(a) != mwtScalar(b) {
		return where
	}
	return ""
}

func mwtScalar(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		if _, err := strconv.Atoi(x); err == nil {
			return x
		}
		return strconv.Quote(x)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// mwtShow is the value at path (as mwtDiff names it) inside v, for a message.
func mwtShow(v any, path string) string {
	rest := strings.TrimPrefix(path, "result")
	for rest != "" {
		if rest[0] == '.' {
			k := rest[1:]
			if i := strings.IndexAny(k, ".["); i >= 0 {
				k = k[:i]
			}
			m, _ := v.(map[string]any)
			v, rest = m[k], rest[1+len(k):]
		} else if rest[0] == '[' {
			j := strings.IndexByte(rest, ']')
			i, _ := strconv.Atoi(rest[1:j])
			l, _ := v.([]any)
			if i < len(l) {
				v = l[i]
			} else {
				v = nil
			}
			rest = rest[j+1:]
		} else {
			break
		}
	}
	if v == nil {
		return "nothing"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
