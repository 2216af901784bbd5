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

// mrTime is the platform's game time object.
type mrTime struct {
	Round            int    `json:"round"`
	Time             string `json:"time"`
	Speaker          int    `json:"speaker,omitempty"`
	VotingRound      *int   `json:"votingRound,omitempty"`
	Nominee          int    `json:"nominee,omitempty"`
	BeforeNomination bool   `json:"beforeNomination,omitempty"`
}

type mrDeath struct {
	Round int     `json:"round"`
	Type  string  `json:"type"`
	Time  *mrTime `json:"time,omitempty"`
}

type mrPlayerOut struct {
	ID         *int              `json:"id,omitempty"`
	Name       string            `json:"name"`
	Role       string            `json:"role,omitempty"`
	Death      *mrDeath          `json:"death,omitempty"`
	Don        *int              `json:"don,omitempty"`
	Sheriff    *int              `json:"sheriff,omitempty"`
	Legacy     []int             `json:"legacy,omitempty"`
	Nominating []*int            `json:"nominating,omitempty"`
	Voting     []json.RawMessage `json:"voting,omitempty"`
	Shooting   []*int            `json:"shooting,omitempty"`
	Warnings   []mrTime          `json:"warnings,omitempty"`
	Bonus      json.RawMessage   `json:"bonus,omitempty"`
	Comment    string            `json:"comment,omitempty"`
}

type mrGameOut struct {
	ID           *int            `json:"id,omitempty"`
	ClubID       *int            `json:"clubId,omitempty"`
	EventID      *int            `json:"eventId,omitempty"`
	TournamentID json.RawMessage `json:"tournamentId,omitempty"`
	StartTime    *int64          `json:"startTime,omitempty"`
	EndTime      *int64          `json:"endTime,omitempty"`
	Language     string          `json:"language,omitempty"`
	Moderator    *mrModerator    `json:"moderator,omitempty"`
	Rules        string          `json:"rules"`
	Features     string          `json:"features"`
	Winner       string          `json:"winner,omitempty"`
	Time         *mrTime         `json:"time,omitempty"`
	Players      []mrPlayerOut   `json:"players"`
	Mafiaclub    *mrExt          `json:"mafiaclub"`
}

type mrModerator struct {
	ID int `json:"id"`
}

// MRMeta are the fields mafiaratings' create (its api/ops/game.php op=create, the call its judge page makes)
// needs beside the game itself: without a result it answers "Unknown result", and without eventId it answers
// 200 and stores nothing. Zero fields are taken from the record's carried fields (the importer keeps the
// platform's in "mafiaratings", "started" and "ended"; seats' "player" ids "mafiaratings:N"); the export refuses,
// with the list, what is still missing.
type MRMeta struct {
	EventID, ClubID, Moderator int
	Language                   string
	Start, End                 int64       // Unix seconds
	Players                    map[int]int // seat -> the player's mafiaratings user id
	// Draft writes the export even when create would refuse it or drop it (an unfinished game, missing
	// fields): for reading it or importing it back, never for op=create.
	Draft bool
}

// mrCarried is the "mafiaratings" field an import carries in the record: the platform's fields of the game that
// our record has no place for.
type mrCarried struct {
	ClubID    int    `json:"clubId,omitempty"`
	EventID   int    `json:"eventId,omitempty"`
	Moderator int    `json:"moderator,omitempty"`
	Language  string `json:"language,omitempty"`
}

// exporter walks a record through the engine and notes each fact in the platform's form.
type exporter struct {
	rec     *record.Record
	eng     *mafia.Game
	n       int
	stage   string // the night's progress: "", "shooting", "don", "sheriff"
	speaker int
	nomBy   map[int]bool // nominations made in the current speech
	round   int          // the voting round of the current day, from 0
	cands   int          // votes recorded in the current round
	inRound bool
	// votedToday: a vote was recorded today, so the speeches are over whatever the plan says
	votedToday bool
	// afterVote: the seats removed by discipline on a day after its voting came to its result
	afterVote map[int]bool
	// voteDone: by day, the voting came to its result (its last vote or lift vote was recorded)
	voteDone map[int]bool
	// lastDisc: the moment of the discipline event just before, when no other event came between
	lastDisc *mrTime
	// the record's event number of each foul in the platform's warnings (by seat), of each departure by
	// disqualification or team loss (by seat), and of each entry of our field's discipline
	idx      int
	warnIdx  map[int][]int
	deathIdx map[int]int
	discIdx  []int
	// by day (engine number): voter -> votes per round; lift votes; whether a day's lift was reconstructed
	votes   map[int]map[int][]int
	nRnd    map[int]int
	lifts   map[int]map[int]bool
	liftRec map[int]bool
	out     mrGameOut
	ext     mrExt
	bonus   map[int]int
}

// ExportMafiaratings turns our record into a mafiaratings game JSON. Only a 10-seat game of a rule set that
// exports there (mafia.Rules.Export) can be expressed; an event the rules reject ends the export with an error
// naming it. Unless meta.Draft, an unfinished game and a game without the fields create needs are refused.
func ExportMafiaratings(data []byte, meta MRMeta) ([]byte, error) {
	rec, err := record.Decode(data)
	if err != nil {
		return nil, inputErr("", "not a valid game record: %v", err)
	}
	return ExportRecord(rec, meta)
}

// ExportRecord is ExportMafiaratings for a decoded record.
func ExportRecord(rec *record.Record, meta MRMeta) ([]byte, error) {
	if rec.Rules.Export != mafia.ExportMafiaratings {
		return nil, gameErr("rules", "mafiaratings plays sport mafia with a sheriff and a don; %s cannot be expressed there", rec.Rules.ID)
	}
	n := len(rec.Seats)
	if n != 10 {
		return nil, gameErr("seats", "mafiaratings games seat 10 players, this one %d", n)
	}
	eng, err := mafia.NewGame(rec.Rules, rec.Options, rec.Roles())
	if err != nil {
		return nil, inputErr("", "%v", err)
	}
	x := &exporter{rec: rec, eng: eng, n: n, nomBy: map[int]bool{}, votes: map[int]map[int][]int{},
		nRnd: map[int]int{}, lifts: map[int]map[int]bool{}, liftRec: map[int]bool{}, bonus: map[int]int{}, afterVote: map[int]bool{}, voteDone: map[int]bool{},
		warnIdx: map[int][]int{}, deathIdx: map[int]int{}}
	x.out.Players = make([]mrPlayerOut, n)
	x.ext = mrExt{Rules: rec.Rules.ID, Options: rec.OptionJSON, Extra: rec.Extra}
	hasProfiles := false
	for i, s := range rec.Seats {
		p := &x.out.Players[i]
		p.Name = s.Name
		switch s.Role {
		case mafia.Sheriff:
			p.Role = "sheriff"
		case mafia.Mafia:
			p.Role = "maf"
		case mafia.Don:
			p.Role = "don"
		}
		if id, ok := strings.CutPrefix(s.Player, "mafiaratings:"); ok {
			if v, err := strconv.Atoi(id); err == nil {
				p.ID = &v
			}
		}
		if s.Player != "" {
			hasProfiles = true
		}
	}
	if hasProfiles {
		for _, s := range rec.Seats {
			x.ext.Players = append(x.ext.Players, s.Player)
		}
	}
	for i, e := range rec.Events {
		if err := x.event(i+1, e); err != nil {
			return nil, err
		}
	}
	x.finish()
	x.fitTheirCheck()
	if err := x.meta(meta); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(x.out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// now is the current moment in the platform's game time form.
func (x *exporter) now() mrTime {
	phase, num := x.eng.Phase()
	r := num - 1
	if x.eng.Finished() {
		return mrTime{Round: r, Time: "end"}
	}
	if phase == mafia.PhaseNight {
		switch x.stage {
		case "":
			if num == 1 {
				return mrTime{Round: r, Time: "start"}
			}
			return mrTime{Round: r, Time: "night start"}
		default:
			return mrTime{Round: r, Time: x.stage}
		}
	}
	n := x.eng.Next()
	if x.speaker == 0 && n.Allowed.Has(mafia.EvSpeech) {
		return mrTime{Round: r, Time: "night kill speaking"}
	}
	if n.Allowed.Has(mafia.EvSpeech) || (x.speaker != 0 && !x.votedToday && n.Allowed.Has(mafia.EvNominate)) {
		return mrTime{Round: r, Time: "speaking", Speaker: x.speaker}
	}
	if n.Allowed.Has(mafia.EvLift) {
		return mrTime{Round: r, Time: "voting kill all"}
	}
	if n.Allowed.Has(mafia.EvVote) {
		k := x.round
		return mrTime{Round: r, Time: "voting", VotingRound: &k, Nominee: planSeat(&n, mafia.EvVote)}
	}
	t := mrTime{Round: r, Time: "day kill speaking"}
	if d := x.eng.During(); d.Kind == mafia.DuringLastWord {
		t.Speaker = int(d.Seat)
	}
	return t
}

// timeOf is the platform's game time of moment d (the record's "during"), in the form its server checks: a
// speech or a day last word names the speaker, a vote its round and nominee, a tie speech its round and speaker,
// the lift its round (include/game.php check_gametime).
func (x *exporter) timeOf(d mafia.During) mrTime {
	phase, num := x.eng.Phase()
	r, k := num-1, x.round
	switch d.Kind {
	case mafia.DuringNight:
		if phase == mafia.PhaseNight {
			return x.now()
		}
	case mafia.DuringSpeech:
		t := mrTime{Round: r, Time: "speaking", Speaker: int(d.Seat)}
		if int(d.Seat) == x.speaker && !x.nomBy[x.speaker] && x.eng.Next().Allowed.Has(mafia.EvNominate) {
			t.BeforeNomination = true
		}
		return t
	case mafia.DuringTieSpeech:
		return mrTime{Round: r, Time: "voting", VotingRound: &k, Speaker: int(d.Seat)}
	case mafia.DuringLastWord:
		if o := x.eng.Out(int(d.Seat)); o.How == mafia.OutKilled {
			return mrTime{Round: r, Time: "night kill speaking"}
		}
		return mrTime{Round: r, Time: "day kill speaking", Speaker: int(d.Seat)}
	case mafia.DuringNominationsClosed:
		return mrTime{Round: r, Time: "voting start"}
	case mafia.DuringVote:
		return mrTime{Round: r, Time: "voting", VotingRound: &k, Nominee: int(d.Seat)}
	case mafia.DuringLift:
		return mrTime{Round: r, Time: "voting kill all", VotingRound: &k}
	}
	t := x.now()
	if t.Time == "night kill speaking" {
		t.Time = "day start" // the morning of a day without a victim
	}
	return t
}

// disciplineTime is when a discipline event falls: its "during", or, where the record has none, the moment the
// engine names now (without guessing which tied candidate is speaking).
func (x *exporter) disciplineTime(e record.Event) mrTime {
	d := e.During
	if d.Kind == mafia.DuringUnknown {
		d = x.eng.During()
		if d.Kind == mafia.DuringTieSpeech {
			d.Seat = 0
		}
	}
	return x.timeOf(d)
}

func (x *exporter) event(idx int, e record.Event) error {
	x.idx = idx
	before := x.now()
	phase, num := x.eng.Phase()
	wasAlive := x.eng.Alive()
	votingOver := phase == mafia.PhaseDay && x.votedToday && !x.eng.Next().Allowed.Has(mafia.EvVote) && !x.eng.Next().Allowed.Has(mafia.EvLift)
	var lastVoters mafia.Seats
	n := x.eng.Next()
	if e.Type == mafia.EvVote {
		lastVoters = x.eng.Alive() &^ n.Voted
	}
	if before.Time == "speaking" && x.speaker != 0 && !x.nomBy[x.speaker] && n.Allowed.Has(mafia.EvNominate) {
		before.BeforeNomination = true
	}
	switch e.Type {
	case mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify, mafia.EvTeamLoss:
		before = x.disciplineTime(e)
		if e.During.Kind == mafia.DuringUnknown && x.lastDisc != nil && !x.eng.Finished() {
			// where the record does not say (a team loss), the moment of the discipline just before: the engine
			// cannot tell that the host had said the last speech was over
			before = *x.lastDisc
		}
		if x.eng.Finished() && x.eng.Winner() == mafia.Draw {
			// after a declared draw, which the platform's fields place only as the game's end: at the end,
			// so that an import applies it after the draw, as it was
			before = mrTime{Round: num - 1, Time: "end"}
		}
	}
	if e.Reconstructed {
		switch e.Type {
		case mafia.EvDay, mafia.EvNight, mafia.EvSpeech, mafia.EvShot, mafia.EvLift:
		default:
			return gameErr(fmt.Sprintf("event %d (%s)", idx, e.Type), "an importer reconstructed it, and mafiaratings has no way to say so; an export states only what the record holds")
		}
	}
	if err := x.eng.Apply(e.Event); err != nil {
		return gameErr(fmt.Sprintf("event %d (%s)", idx, e.Type), "rejected by %s: %v; only the accepted part of a game can be exported", x.rec.Rules.ID, err)
	}
	seat := int(e.Seat)
	p := func(s int) *mrPlayerOut { return &x.out.Players[s-1] }
	where := fmt.Sprintf("event %d (%s)", idx, e.Type)
	switch e.Type {
	case mafia.EvDay:
		x.stage, x.speaker, x.round, x.cands, x.inRound, x.votedToday = "", 0, 0, 0, false, false
		x.nomBy = map[int]bool{}
	case mafia.EvNight:
		x.stage, x.speaker = "", 0
	case mafia.EvSpeech:
		x.speaker = seat
	case mafia.EvNominate:
		x.nomBy[seat] = true
		setAt(&p(seat).Nominating, num-1, int(e.Target))
	case mafia.EvVote:
		x.votedToday = true
		if !x.inRound {
			x.inRound, x.cands = true, 0
		}
		voters := e.Voters
		cands := n.NCand
		last := x.cands == cands-1
		if last && x.rec.Options.DefaultVoteToLast {
			voters |= lastVoters
		}
		day := x.votes[num]
		if day == nil {
			day = map[int][]int{}
			x.votes[num] = day
		}
		for _, v := range voters.List() {
			for len(day[v]) <= x.round {
				day[v] = append(day[v], 0)
			}
			day[v][x.round] = int(e.Target)
		}
		if x.round+1 > x.nRnd[num] {
			x.nRnd[num] = x.round + 1
		}
		x.cands++
		if last {
			x.round++
			x.inRound, x.cands = false, 0
		}
	case mafia.EvLift:
		m := map[int]bool{}
		for _, s := range wasAlive.List() {
			m[s] = e.Voters.Has(s)
		}
		x.lifts[num] = m
		x.liftRec[num] = e.Reconstructed
	case mafia.EvShot:
		x.stage = "shooting"
		if e.Reconstructed {
			break // an export states only what the record holds: the importer reconstructs it again
		}
		pl := p(seat)
		k := num - 2
		for len(pl.Shooting) <= k {
			pl.Shooting = append(pl.Shooting, nil)
		}
		if pl.Shooting[k] != nil {
			return gameErr(where, "seat %d shoots twice on night %d; mafiaratings keeps one shot per player and night", seat, num)
		}
		t := int(e.Target)
		pl.Shooting[k] = &t
	case mafia.EvCheck:
		r := num - 1
		target := p(int(e.Target))
		field := &target.Sheriff
		x.stage = "sheriff"
		if x.rec.Seats[seat-1].Role == mafia.Don {
			field = &target.Don
			x.stage = "don"
		}
		if *field == nil {
			*field = &r
		} else {
			x.ext.Checks = append(x.ext.Checks, mrExtCheck{Night: r, By: seat, Target: int(e.Target)})
		}
	case mafia.EvBestMove:
		var t []int
		for _, s := range e.Targets[:e.NTargets] {
			t = append(t, int(s))
		}
		p(seat).Legacy = t
	case mafia.EvFoul:
		pl := p(seat)
		pl.Warnings = append(pl.Warnings, before)
		x.warnIdx[seat] = append(x.warnIdx[seat], idx)
		if wasAlive.Has(seat) && !x.eng.Alive().Has(seat) {
			b := before
			pl.Death = &mrDeath{Round: num - 1, Type: "warnings", Time: &b}
		}
	case mafia.EvWarning:
		x.discipline("warning", seat, before, e.Reason)
	case mafia.EvDisqualify:
		if wasAlive.Has(seat) && !x.eng.Alive().Has(seat) {
			b := before
			p(seat).Death = &mrDeath{Round: num - 1, Type: "kickOut", Time: &b}
			x.deathIdx[seat] = idx
		} else {
			x.discipline("disqualify", seat, before, e.Reason)
		}
	case mafia.EvTeamLoss:
		if wasAlive.Has(seat) && !x.eng.Alive().Has(seat) {
			b := before
			p(seat).Death = &mrDeath{Round: num - 1, Type: "teamKickOut", Time: &b}
			x.deathIdx[seat] = idx
		} else {
			x.discipline("team_loss", seat, before, e.Reason) // by a player who already left (002 §6.8.5)
		}
	case mafia.EvAdjust:
		x.ext.Adjust = append(x.ext.Adjust, mrExtAdjust{Seat: seat, Points: json.RawMessage(record.FormatPoints(int(e.Points))), Reason: e.Reason})
		x.bonus[seat] += int(e.Points)
		if e.Reason != "" {
			pl := p(seat)
			if pl.Comment != "" {
				pl.Comment += "; "
			}
			pl.Comment += e.Reason
		}
	case mafia.EvDraw:
		t := before
		x.out.Time = &t
	}
	if x.inRound && wasAlive != x.eng.Alive() && e.Type != mafia.EvVote && x.eng.Next().Allowed.Has(mafia.EvVote) {
		return gameErr(where, "seat %d left during a voting round, which restarts it without him (%s); mafiaratings keeps one set of votes per round",
			seat, x.rec.Rules.ID)
	}
	switch e.Type {
	case mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify, mafia.EvTeamLoss:
		b := before
		x.lastDisc = &b
	case mafia.EvAdjust:
	default:
		x.lastDisc = nil
	}
	if votingOver && wasAlive.Has(seat) && !x.eng.Alive().Has(seat) {
		x.afterVote[seat] = true
	}
	if e.Type == mafia.EvVote || e.Type == mafia.EvLift {
		if n := x.eng.Next(); x.eng.Finished() || (!n.Allowed.Has(mafia.EvVote) && !n.Allowed.Has(mafia.EvLift)) {
			x.voteDone[num] = true
		}
	}
	// departures by vote or shot
	for _, s := range (wasAlive &^ x.eng.Alive()).List() {
		o := x.eng.Out(s)
		switch o.How {
		case mafia.OutVoted:
			p(s).Death = &mrDeath{Round: int(o.Number) - 1, Type: "day"}
		case mafia.OutKilled:
			p(s).Death = &mrDeath{Round: int(o.Number) - 1, Type: "night"}
		}
	}
	return nil
}

func (x *exporter) discipline(typ string, seat int, at mrTime, reason string) {
	raw, _ := json.Marshal(at)
	x.ext.Discipline = append(x.ext.Discipline, mrExtDiscipline{Type: typ, Seat: seat, Time: raw, Reason: reason})
	x.discIdx = append(x.discIdx, x.idx)
}

func setAt(list *[]*int, i, v int) {
	for len(*list) <= i {
		*list = append(*list, nil)
	}
	(*list)[i] = &v
}

func (x *exporter) finish() {
	o := &x.out
	opt := x.rec.Options
	code := []byte("0000000000000")
	if opt.TwoOfFourNoLift {
		code[7] = '1'
	}
	if x.rec.Rules.Mute == mafia.MuteShort {
		code[11] = '1'
	}
	if opt.Day1LiftOnly || opt.Day1Respeech {
		// their first-day rule 7.16.2 (RULES_FIRST_DAY_VOTING_TO_TALK): the winner of the day-1 vote does not
		// simply leave; ours then puts him to a lift vote (the kill-all vote of the platform's fields)
		code[4] = '1'
	}
	o.Rules = string(code)
	o.Features = "gsdutclhvknwr"
	for _, rec := range x.liftRec {
		if rec {
			// A lift vote the importer reconstructed is not a recorded fact: the game says its kill-all votes
			// were not recorded ("k" is a game-wide feature), and the recorded ones travel in our field.
			o.Features = "gsdutclhvnwr"
			for _, day := range sortedKeys(x.lifts) {
				if x.liftRec[day] {
					continue
				}
				l := mrExtLift{Round: day - 1}
				for _, s := range sortedKeys(x.lifts[day]) {
					if x.lifts[day][s] {
						l.Yes = append(l.Yes, s)
					}
				}
				x.ext.Lifts = append(x.ext.Lifts, l)
			}
			x.lifts = map[int]map[int]bool{}
			break
		}
	}
	switch x.eng.Winner() {
	case mafia.RedWins:
		o.Winner = "civ"
	case mafia.BlackWins:
		o.Winner = "maf"
	case mafia.Draw:
		o.Winner = "tie"
	default:
		t := x.now()
		if t.Time == "speaking" {
			t.BeforeNomination = false
		}
		o.Time = &t
	}
	if o.Winner != "tie" && o.Winner != "" {
		o.Time = nil
	}
	if raw, ok := x.rec.Extra["id"]; ok {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if id, ok := strings.CutPrefix(s, "mafiaratings:"); ok {
				if v, err := strconv.Atoi(id); err == nil {
					o.ID = &v
				}
			}
		}
	}
	if u := x.carriedTime("started"); u != 0 {
		o.StartTime = &u
	}
	for day, players := range x.votes {
		for s, rounds := range players {
			x.setVoting(s, day, rounds)
		}
	}
	for day, m := range x.lifts {
		for s := range m {
			if _, ok := x.votes[day][s]; !ok {
				x.setVoting(s, day, nil)
			}
		}
	}
	for s, b := range x.bonus {
		if b != 0 {
			o.Players[s-1].Bonus = json.RawMessage(record.FormatPoints(b))
		}
	}
	if len(x.ext.Adjust) == 0 {
		x.ext.Adjust = nil
	}
	o.Mafiaclub = &x.ext
}

// meta fills the fields mafiaratings' create needs (MRMeta) from meta and the record's carried fields and, unless
// meta.Draft, refuses an export create would refuse or drop, naming what is missing.
func (x *exporter) meta(m MRMeta) error {
	o := &x.out
	var c mrCarried
	if raw, ok := x.rec.Extra["mafiaratings"]; ok {
		json.Unmarshal(raw, &c)
	}
	pick := func(flag, carried int) *int {
		if flag != 0 {
			return &flag
		}
		if carried != 0 {
			return &carried
		}
		return nil
	}
	o.EventID, o.ClubID = pick(m.EventID, c.EventID), pick(m.ClubID, c.ClubID)
	if id := pick(m.Moderator, c.Moderator); id != nil {
		o.Moderator = &mrModerator{ID: *id}
	}
	o.Language = c.Language
	if m.Language != "" {
		o.Language = m.Language
	}
	if m.Start != 0 {
		o.StartTime = &m.Start
	}
	end := m.End
	if end == 0 {
		end = x.carriedTime("ended")
	}
	if end != 0 {
		o.EndTime = &end
	}
	if raw, ok := x.rec.Extra["tournament"]; ok {
		var v int
		if json.Unmarshal(raw, &v) == nil {
			o.TournamentID = raw
		}
	}
	for s, id := range m.Players {
		if s >= 1 && s <= x.n {
			v := id
			o.Players[s-1].ID = &v
		}
	}
	if m.Draft {
		return nil
	}
	if !x.eng.Finished() {
		return gameErr("winner", "the game is unfinished; mafiaratings' create refuses a game without a result (\"Unknown result\")")
	}
	var missing []string
	need := func(ok bool, what string) {
		if !ok {
			missing = append(missing, what)
		}
	}
	need(o.EventID != nil, "eventId (--event-id)")
	need(o.ClubID != nil, "clubId (--club-id)")
	need(o.Moderator != nil, "moderator (--moderator)")
	need(o.Language != "", "language (--language)")
	need(o.StartTime != nil, "startTime (--start, or the record's \"started\")")
	need(o.EndTime != nil, "endTime (--end, or the record's \"ended\")")
	var noID []string
	for i := range o.Players {
		if o.Players[i].ID == nil {
			noID = append(noID, strconv.Itoa(i+1))
		}
	}
	if len(noID) > 0 {
		missing = append(missing, "the mafiaratings ids of seats "+strings.Join(noID, ", ")+" (--player SEAT=ID, or the seat's \"player\" mafiaratings:ID)")
	}
	if len(missing) > 0 {
		return gameErr("", "mafiaratings' create would refuse or drop this export; it needs %s", strings.Join(missing, "; "))
	}
	return nil
}

// carriedTime reads a carried RFC 3339 time ("started", "ended") as Unix seconds; 0 when absent.
func (x *exporter) carriedTime(key string) int64 {
	raw, ok := x.rec.Extra[key]
	if !ok {
		return 0
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0
	}
	return t.Unix()
}

// setVoting writes a player's votes of one day: a seat for a single round, else one seat per round (null where
// he had no vote), then his kill-all vote when the day had one.
func (x *exporter) setVoting(s, day int, rounds []int) {
	p := &x.out.Players[s-1]
	for len(p.Voting) < day {
		p.Voting = append(p.Voting, json.RawMessage("null"))
	}
	liftDay := x.lifts[day] != nil
	n := x.nRnd[day]
	if n == 1 && !liftDay {
		if len(rounds) > 0 && rounds[0] != 0 {
			p.Voting[day-1] = json.RawMessage(strconv.Itoa(rounds[0]))
		}
		return
	}
	var parts []string
	for k := 0; k < n; k++ {
		if k < len(rounds) && rounds[k] != 0 {
			parts = append(parts, strconv.Itoa(rounds[k]))
		} else {
			parts = append(parts, "null")
		}
	}
	if yes, voted := x.lifts[day][s]; liftDay && voted {
		parts = append(parts, strconv.FormatBool(yes))
	}
	p.Voting[day-1] = json.RawMessage("[" + strings.Join(parts, ",") + "]")
}

// fitTheirCheck writes what mafiaratings' own check (Game::check in their include/game.php, which their create
// runs on every game it stores) would change or drop in the platform's fields in a form it accepts, and keeps
// each fact those fields cannot hold in our own field, where our importer reads it back
// (testdata/mafiaratings-check/README.md):
//   - a best move their rules give only the victim of the first shooting night (bm_first_kill_any_night): ours;
//   - the hands of a voting that did not come to its result (cancelled by a disqualification, R68, or ended with
//     the game): ours, since their check takes hands for a voting that was held and wants every hand;
//   - the nominations of a day left without votes where their check wants them (day1_no_vote, a draw declared
//     before the voting, the next day's vote cancelled by a rule of ours theirs does not know): ours;
//   - every foul after a player's 4th (he had left, or the game was over): ours, since their check keeps four;
//   - the moment of a foul or departure at the end of a day that left nobody with a last word: the next night's
//     start, as their own client writes it, the exact moment ours;
//   - the departure of a black after the night's shots whose shot missed the victim his partners killed: at the
//     shooting, which is when their rules decide the kill, the exact moment ours;
//   - a departure during the speeches of a day whose speaking order theirs does not know (the opener after the
//     night victim): at the latest speech, in their order, after the nominations it follows, the exact moment
//     ours.
func (x *exporter) fitTheirCheck() {
	o := &x.out
	// best moves
	for i := range o.Players {
		p := &o.Players[i]
		if len(p.Legacy) > 0 && (p.Death == nil || p.Death.Type != "night" || p.Death.Round > 1) {
			x.ext.Legacy = append(x.ext.Legacy, mrExtLegacy{Seat: i + 1, Targets: p.Legacy})
			p.Legacy = nil
		}
	}
	// the hands of a voting that did not come to its result
	for _, d := range x.eng.Result().Days {
		if x.voteDone[d.Day] {
			continue
		}
		r := d.Day - 1
		if k := x.nRnd[d.Day]; k > 0 {
			x.ext.VotingRounds = append(x.ext.VotingRounds, mrExtRounds{Round: r, Rounds: k})
		}
		for i := range o.Players {
			p := &o.Players[i]
			if r < len(p.Voting) && string(p.Voting[r]) != "null" {
				x.ext.Voting = append(x.ext.Voting, mrExtVoting{Round: r, Seat: i + 1, Voting: p.Voting[r]})
				p.Voting[r] = json.RawMessage("null")
			}
		}
	}
	for i := range o.Players {
		p := &o.Players[i]
		for len(p.Voting) > 0 && string(p.Voting[len(p.Voting)-1]) == "null" {
			p.Voting = p.Voting[:len(p.Voting)-1]
		}
	}
	// nominations of a day without votes that their check would want votes for
	for r := 0; r < 60; r++ {
		noms, votes := 0, false
		for i := range o.Players {
			p := &o.Players[i]
			if r < len(p.Nominating) && p.Nominating[r] != nil {
				noms++
			}
			if r < len(p.Voting) && string(p.Voting[r]) != "null" {
				votes = true
			}
		}
		if noms == 0 || votes || (r == 0 && noms == 1) || x.cancelledForThem(r) {
			continue
		}
		for i := range o.Players {
			p := &o.Players[i]
			if r < len(p.Nominating) && p.Nominating[r] != nil {
				x.ext.Nominating = append(x.ext.Nominating, mrExtNominating{Round: r, By: i + 1, Target: *p.Nominating[r]})
				p.Nominating[r] = nil
			}
		}
	}
	for i := range o.Players {
		p := &o.Players[i]
		for len(p.Nominating) > 0 && p.Nominating[len(p.Nominating)-1] == nil {
			p.Nominating = p.Nominating[:len(p.Nominating)-1]
		}
	}
	// fouls after the 4th
	for i := range o.Players {
		p := &o.Players[i]
		const keep = 4
		if len(p.Warnings) <= keep {
			continue
		}
		for j, w := range p.Warnings[keep:] {
			raw, _ := json.Marshal(w)
			x.ext.Discipline = append(x.ext.Discipline, mrExtDiscipline{Type: "foul", Seat: i + 1, Time: raw})
			x.discIdx = append(x.discIdx, x.warnIdx[i+1][keep+j])
		}
		p.Warnings = p.Warnings[:keep]
		x.warnIdx[i+1] = x.warnIdx[i+1][:keep]
	}
	// the end of a day that left nobody with a last word
	for i := range o.Players {
		p := &o.Players[i]
		for j := range p.Warnings {
			if t := p.Warnings[j]; t.Time == "day kill speaking" && t.Speaker == 0 {
				x.setTime(i+1, j, false, mrTime{Round: t.Round + 1, Time: "night start"})
			}
		}
		if d := p.Death; d != nil && d.Time != nil && d.Time.Time == "day kill speaking" && d.Time.Speaker == 0 {
			x.setTime(i+1, -1, true, mrTime{Round: d.Time.Round + 1, Time: "night start"})
		}
	}
	x.fitShooting()
	x.fitSpeakingOrder()
	x.fitOrder()
}

// fitOrder keeps in our field the record's order of the fouls, warnings and departures by discipline where the
// platform's fields, which list them player by player, would give another: in the order the importer reads them
// (each seat's warnings, then his departure by disqualification or team loss, seat by seat; then our field's
// discipline), the position of each in the record's order. Two at the same moment (two disqualifications in one
// last word) leave in the order they were recorded.
func (x *exporter) fitOrder() {
	var idx []int
	for s := 1; s <= x.n; s++ {
		idx = append(idx, x.warnIdx[s]...)
		if d := x.out.Players[s-1].Death; d != nil && (d.Type == "kickOut" || d.Type == "teamKickOut") {
			idx = append(idx, x.deathIdx[s])
		}
	}
	idx = append(idx, x.discIdx...)
	order := make([]int, len(idx))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return idx[order[a]] < idx[order[b]] })
	for i, k := range order {
		if i != k {
			x.ext.Order = order
			return
		}
	}
}

// setTime writes seat's foul j (from 0; -1: none) or departure, or both, at t in the platform's fields, and keeps
// the moment they held in our own field. A departure by a 4th foul is that foul's moment: both move together.
func (x *exporter) setTime(seat, j int, death bool, t mrTime) {
	p := &x.out.Players[seat-1]
	if death && p.Death != nil && p.Death.Type == "warnings" && len(p.Warnings) == 4 {
		j = 3
	}
	if j == 3 && p.Death != nil && p.Death.Type == "warnings" {
		death = true
	}
	if j >= 0 {
		raw, _ := json.Marshal(p.Warnings[j])
		k := j
		x.ext.Times = append(x.ext.Times, mrExtTime{Seat: seat, Warning: &k, Time: raw})
		p.Warnings[j] = t
	}
	if death && p.Death != nil && p.Death.Time != nil {
		raw, _ := json.Marshal(p.Death.Time)
		x.ext.Times = append(x.ext.Times, mrExtTime{Seat: seat, Death: true, Time: raw})
		c := t
		p.Death.Time = &c
	}
}

// nightTimes are the platform's night moments.
var nightTimes = map[string]bool{"start": true, "arrangement": true, "relaxed sitting": true, "night start": true,
	"shooting": true, "don": true, "sheriff": true, "night end": true}

// fitShooting writes at the shooting the departure of a black removed later in a night whose victim he did not
// shoot: their check takes every black at the table after the shots for a shooter of the victim (check_deaths),
// where ours decides the kill by those still at the table when the night ends (R43).
func (x *exporter) fitShooting() {
	o := &x.out
	for v := range o.Players {
		d := o.Players[v].Death
		if d == nil || d.Type != "night" || d.Round < 1 {
			continue
		}
		for j := range o.Players {
			p := &o.Players[j]
			if p.Role != "maf" && p.Role != "don" {
				continue
			}
			k := d.Round - 1
			if k < len(p.Shooting) && p.Shooting[k] != nil && *p.Shooting[k] == v+1 {
				continue
			}
			dt := p.Death
			if dt == nil || dt.Time == nil || dt.Time.Round != d.Round || !nightTimes[dt.Time.Time] || gametimeOrder(dt.Time.Time) <= gametimeOrder("shooting") {
				continue
			}
			x.setTime(j+1, -1, true, mrTime{Round: d.Round, Time: "shooting"})
		}
	}
}

// gametimeOrder is the order of the platform's moments within a round (their gametime_to_int).
func gametimeOrder(t string) int {
	for i, s := range []string{"start", "arrangement", "relaxed sitting", "night start", "shooting", "don", "sheriff",
		"night end", "day start", "night kill speaking", "speaking", "voting start", "voting", "voting kill all", "day kill speaking"} {
		if s == t {
			return i
		}
	}
	return 15
}

// cancelledForThem says whether their check takes round r's voting, which has no votes in the platform's
// fields, for cancelled (their is_voting_canceled): a player removed by discipline in that round, or on the
// day before after its voting came to its result, unless he led that voting himself (their check takes a
// leader for voted out).
func (x *exporter) cancelledForThem(r int) bool {
	for i := range x.out.Players {
		d := x.out.Players[i].Death
		if d == nil {
			continue
		}
		switch d.Type {
		case "warnings", "kickOut", "teamKickOut", "giveUp":
			if d.Round == r || (d.Round == r-1 && x.afterVote[i+1] && !x.ledTheirVote(r-1, i+1)) {
				return true
			}
		}
	}
	return false
}

// ledTheirVote says whether seat had the most votes of round r's last voting round in the platform's fields
// (their when_voting_is_decided).
func (x *exporter) ledTheirVote(r, seat int) bool {
	votes := map[int]int{}
	for i := range x.out.Players {
		p := &x.out.Players[i]
		if r >= len(p.Voting) {
			continue
		}
		var list []any
		if err := json.Unmarshal(p.Voting[r], &list); err != nil {
			var v float64
			if json.Unmarshal(p.Voting[r], &v) == nil {
				votes[int(v)]++
			}
			continue
		}
		for k := len(list) - 1; k >= 0; k-- {
			if v, ok := list[k].(float64); ok {
				votes[int(v)]++
				break
			}
		}
	}
	most := 0
	for _, c := range votes {
		most = max(most, c)
	}
	return most > 0 && votes[seat] == most
}

// theirDeath is a seat's departure in their check's terms (get_player_death_time without the last word): its
// moment, and whether it is known.
func (x *exporter) theirDeath(seat int) (mrTime, bool) {
	p := &x.out.Players[seat-1]
	d := p.Death
	switch {
	case d == nil:
		last := 0
		for i := range x.out.Players {
			q := &x.out.Players[i]
			last = max(last, len(q.Nominating), len(q.Voting), len(q.Shooting))
			if q.Don != nil {
				last = max(last, *q.Don)
			}
			if q.Sheriff != nil {
				last = max(last, *q.Sheriff)
			}
		}
		return mrTime{Round: last, Time: "end"}, true
	case d.Time != nil:
		return *d.Time, true
	case d.Type == "night":
		return mrTime{Round: d.Round, Time: "shooting"}, true
	case d.Type == "day":
		return mrTime{Round: d.Round, Time: "voting"}, true
	case d.Type == "warnings" && len(p.Warnings) > 3:
		return p.Warnings[3], true
	}
	return mrTime{}, false
}

// theirOpener is who opens round r in their check (who_speaks_first under their rotation rule 6.3.1, which our
// export's rules code says): the seat after the previous round's opener that is at the table when the day
// starts.
func (x *exporter) theirOpener(r int) int {
	atStart := func(s int) bool {
		t, ok := x.theirDeath(s)
		if !ok {
			return false
		}
		return t.Round > r || (t.Round == r && gametimeOrder(t.Time) > gametimeOrder("night kill speaking"))
	}
	next := func(prev int) int { // seats from 1; prev 0 starts at seat 1
		for k := 1; k <= 10; k++ {
			s := (prev+k-1)%10 + 1
			if atStart(s) {
				return s
			}
		}
		return prev
	}
	if r == 0 {
		return next(0)
	}
	return next(x.theirOpener(r - 1))
}

// fitSpeakingOrder moves a departure during a day's speeches, in the platform's fields, to the latest speech in
// their order among its own speech, the speeches of those who nominated the player that day and the player's
// own: where our speaking order is not theirs (opener_follows_night_victim), their check would otherwise take
// his nomination, or one of him, for one made after he left.
func (x *exporter) fitSpeakingOrder() {
	o := &x.out
	for i := range o.Players {
		p := &o.Players[i]
		d := p.Death
		if d == nil || d.Time == nil || d.Time.Time != "speaking" {
			continue
		}
		r := d.Time.Round
		first := x.theirOpener(r)
		pos := func(s int) int { return (s - first + 10) % 10 }
		best := d.Time.Speaker
		if r < len(p.Nominating) && p.Nominating[r] != nil && pos(i+1) > pos(best) {
			best = i + 1
		}
		for m := range o.Players {
			q := &o.Players[m]
			if r < len(q.Nominating) && q.Nominating[r] != nil && *q.Nominating[r] == i+1 && pos(m+1) > pos(best) {
				best = m + 1
			}
		}
		if best != d.Time.Speaker {
			x.setTime(i+1, -1, true, mrTime{Round: r, Time: "speaking", Speaker: best})
		}
	}
}
