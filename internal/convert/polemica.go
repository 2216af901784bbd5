package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// Polemica's match JSON (version 4; Vyasma-Mafia polemica-library): days count from 1, and night n follows day n,
// so Polemica's night n is the engine's night n+1 and its day d the engine's day d. votes[] entries with num 0
// are the day's nominations (voter = the nominating player), num 1, 2, ... the voting rounds, and entries
// without num the yes votes of the lift vote. Departures are not recorded: they follow from the shots, votes and
// disqualifications.

// polemicaRuleSets are tried in this order; the first under which the whole game replays is chosen. Polemica
// does not record the rules a game was played by; it serves FSM tournaments as well as FIIM-lineage ones, so the
// FSM rules come first, then the club's own rule set, which plays the FIIM rules (mafia.ClubRules).
func polemicaRuleSets() []*mafia.Rules {
	fsm, _ := mafia.RuleSet("fsm-2026")
	return []*mafia.Rules{fsm, mafia.ClubRules()}
}

// ImportPolemica converts one Polemica game to our record: the API's match JSON, or the match page's JSON (the game
// in "data", the page's facts beside it; see polemica_page.go), whose facts the replay must agree with. Its start
// is read in UTC (ImportPolemicaIn).
func ImportPolemica(data []byte) (*Imported, error) { return ImportPolemicaIn(data, time.UTC) }

// ImportPolemicaIn is ImportPolemica with the time zone Polemica's times are read in. The platform writes a game's
// start without an offset ("2024-11-14T21:28:35.252938"), the time on the clock where it was played: the record's
// "started" is that time in zone, in RFC 3339 with the zone's offset, so that the game takes its place in its
// season and in the order of the club's games. A start that already has an offset keeps it.
func ImportPolemicaIn(data []byte, zone *time.Location) (*Imported, error) {
	im, err := importPolemica(data)
	if err != nil {
		return nil, err
	}
	var started string
	if raw, ok := im.Record.Extra["started"]; ok && json.Unmarshal(raw, &started) == nil {
		if t, ok := polemicaTime(started, zone); ok {
			im.Record.Extra["started"], _ = json.Marshal(t.Format(time.RFC3339))
		}
	}
	return im, nil
}

// polemicaTime reads a time as Polemica writes it: ISO 8601 with or without fractions of a second and an offset;
// without an offset, in zone.
func polemicaTime(s string, zone *time.Location) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05"} { // a fraction after the seconds is read too
		if t, err := time.ParseInLocation(layout, s, zone); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func importPolemica(data []byte) (*Imported, error) {
	top, err := decodeObject(data, "")
	if err != nil {
		return nil, err
	}
	game, page, err := polemicaUnwrap(top)
	if err != nil {
		return nil, err
	}
	var facts *polemicaFacts
	if page != nil {
		if facts, err = readPolemicaFacts(game, page); err != nil {
			return nil, err
		}
	}
	var misfits Phrases
	for _, r := range polemicaRuleSets() {
		id := r.ID
		g, err := parsePolemica(game, page, facts, r)
		if err != nil {
			return nil, inData(err, page != nil) // malformed input, or a difference no rule set can bridge
		}
		im, err := g.build()
		if err == nil && facts != nil {
			err = facts.check(im.Game, id)
		}
		if err == nil {
			if len(misfits) > 0 {
				return withMisfits(im, misfits)
			}
			return im, nil
		}
		var ie *InputError
		if errors.As(err, &ie) {
			return nil, inData(err, page != nil)
		}
		misfits = append(misfits, phrase("%s does not fit (%v)", RuleSet(id), err))
	}
	return nil, gameErr("", "no rule set of ours fits this game: %s", misfits)
}

// inData names a field of the match page's game as the page spells it, inside "data".
func inData(err error, page bool) error {
	var ie *InputError
	if !page || !errors.As(err, &ie) || strings.HasPrefix(ie.Where, "data") || strings.HasPrefix(ie.Where, "players[") && strings.Contains(ie.What, "page") {
		return err
	}
	where := "data"
	if ie.Where != "" {
		where = "data." + ie.Where
	}
	return &InputError{Where: where, What: ie.What, Format: ie.Format, Args: ie.Args}
}

// rolesErr says why the seats' roles make no game under r, as a reader can check them in the file: how many of
// each role the seats have.
func rolesErr(r *mafia.Rules, seats []record.Seat) error {
	var count [5]int
	for _, s := range seats {
		switch s.Role {
		case mafia.Citizen:
			count[0]++
		case mafia.Sheriff:
			count[1]++
		case mafia.Mafia:
			count[2]++
		case mafia.Don:
			count[3]++
		default:
			count[4]++
		}
	}
	return inputErr("players", "the roles do not make a game under %s: citizens %d, sheriffs %d, mafia %d, dons %d, others %d",
		RuleSet(r.ID), count[0], count[1], count[2], count[3], count[4])
}

// withMisfits rebuilds the record's note with the rule sets that did not fit, first.
func withMisfits(im *Imported, misfits Phrases) (*Imported, error) {
	notes := append([]string{"Rule sets tried before: " + misfits.String() + "."}, im.Notes...)
	extra := map[string]json.RawMessage{}
	for k, v := range im.Record.Extra {
		extra[k] = v
	}
	note, _ := json.Marshal(strings.Join(notes, " "))
	extra["note"] = note
	rec, err := record.New(im.Record.Rules.ID, im.Record.OptionJSON, im.Record.Seats, im.Record.Events, extra)
	if err != nil {
		return nil, err
	}
	return &Imported{Record: rec, Game: im.Game, Notes: notes}, nil
}

// parsePolemica reads the match JSON (top; in the page's form the object in "data", page the page around it).
func parsePolemica(top, page map[string]json.RawMessage, facts *polemicaFacts, r *mafia.Rules) (*game, error) {
	if present(top, "version") {
		v, err := intOf(top["version"], "version")
		if err != nil {
			return nil, err
		}
		if v != 4 {
			return nil, inputErr("version", "match JSON version %d; this importer reads version 4", v)
		}
	}
	if !present(top, "players") {
		return nil, inputErr("players", "missing")
	}
	plist, err := listOf(top["players"], "players")
	if err != nil {
		return nil, err
	}
	n := len(plist)
	if n != 10 {
		return nil, inputErr("players", "%d players; a Polemica game has 10", n)
	}
	g := newGame("polemica", n)
	g.resultField = "result"
	g.voteField = func(day, round, voter int) string {
		return fieldf("votes (day %d, num %d, voter %d)", day, round+1, voter)
	}
	g.useRules(r)
	g.seats = make([]record.Seat, n)
	players := make([]map[string]json.RawMessage, n+1)
	for i, raw := range plist {
		where := fieldf("players[%d]", i)
		p, err := objOf(raw, where)
		if err != nil {
			return nil, err
		}
		if !present(p, "position") {
			return nil, inputErr(where+".position", "missing")
		}
		pos, err := seatOf(p["position"], n, where+".position")
		if err != nil {
			return nil, err
		}
		if players[pos] != nil {
			return nil, inputErr(where+".position", "seat %d is listed twice", pos)
		}
		players[pos] = p
		s := record.Seat{Seat: pos, Name: fmt.Sprintf("Seat %d", pos)}
		where = fieldf("players[%d] (seat %d)", i, pos)
		if present(p, "username") {
			name, err := strOf(p["username"], where+".username")
			if err != nil {
				return nil, err
			}
			if strings.TrimSpace(name) != "" {
				s.Name = name
			}
		}
		if !present(p, "role") {
			return nil, inputErr(where+".role", "missing")
		}
		role, err := intOf(p["role"], where+".role")
		if err != nil {
			return nil, err
		}
		switch role {
		case 0:
			s.Role = mafia.Don
		case 1:
			s.Role = mafia.Mafia
		case 2:
			s.Role = mafia.Citizen
		case 3:
			s.Role = mafia.Sheriff
		default:
			return nil, inputErr(where+".role", "unknown role %d (0 don, 1 mafia, 2 citizen, 3 sheriff)", role)
		}
		if present(p, "player") {
			raw := p["player"]
			if strings.HasPrefix(strings.TrimSpace(string(raw)), "{") {
				if o, err := objOf(raw, where+".player"); err == nil && present(o, "id") {
					raw = o["id"]
				}
			}
			if id, err := intOf(raw, where+".player"); err == nil {
				s.Player = "polemica:" + strconv.Itoa(id)
			}
		}
		g.seats[pos-1] = s
	}
	if r.ValidateRoles(seatRoles(g.seats)) != nil {
		return nil, rolesErr(r, g.seats)
	}

	if present(top, "result") {
		res, err := intOf(top["result"], "result")
		if err != nil {
			return nil, err
		}
		switch res {
		case 0:
			g.winner = mafia.RedWins
		case 1:
			g.winner = mafia.BlackWins
		default:
			return nil, inputErr("result", "unknown result %d (0 red wins, 1 black wins)", res)
		}
		g.finished = true
	} else {
		// An unfinished game: its stage says where it stopped. The record stops there too, every recorded
		// event in it, so that a host can continue the game from the engine's next step.
		if !present(top, "stage") {
			return nil, inputErr("result", "missing, and no stage says where the unfinished game stopped")
		}
		st, err := objOf(top["stage"], "stage")
		if err != nil {
			return nil, err
		}
		at, err := polemicaSlot(st, n, "stage")
		if err != nil {
			return nil, err
		}
		at = at.at()
		switch {
		case at.kind == slEnd:
			return nil, inputErr("result", "missing, but the stage says the game is over")
		case at.kind < slMorning:
			at.kind = slAfterSheriff // a night stops before its "day": what it recorded is in
		case at.kind == slSpeechBefore:
			at.kind = slSpeech
		}
		g.stop = &at
		g.touch(at.num)
		typ, _ := strOf(st["type"], "stage.type")
		g.note("The game is unfinished (Polemica records no result); it stops at %s (Polemica's stage %q), where a host can continue it.", at, typ)
	}
	g.dayVotes = true
	g.liftYesOnly = true

	// votes
	if present(top, "votes") {
		votes, err := listOf(top["votes"], "votes")
		if err != nil {
			return nil, err
		}
		for i, raw := range votes {
			where := fieldf("votes[%d]", i)
			v, err := objOf(raw, where)
			if err != nil {
				return nil, err
			}
			for _, k := range []string{"day", "voter", "candidate"} {
				if !present(v, k) {
					return nil, inputErr(where+"."+k, "missing")
				}
			}
			day, err := intOf(v["day"], where+".day")
			if err != nil {
				return nil, err
			}
			if day < 1 || day > 30 {
				return nil, inputErr(where+".day", "day %d is out of range", day)
			}
			voter, err := seatOf(v["voter"], n, where+".voter")
			if err != nil {
				return nil, err
			}
			where = fieldf("votes[%d] (day %d, seat %d)", i, day, voter)
			g.touch(day)
			if !present(v, "num") {
				f := g.lifts[day]
				f.recorded, f.where = true, "votes (lift)"
				f.yes = append(f.yes, voter)
				g.lifts[day] = f
				continue
			}
			num, err := intOf(v["num"], where+".num")
			if err != nil {
				return nil, err
			}
			if num < 0 || num > 20 {
				return nil, inputErr(where+".num", "%d is out of range", num)
			}
			cand, err := seatOf(v["candidate"], n, where+".candidate")
			if err != nil {
				return nil, err
			}
			if num == 0 {
				if g.noms[day] == nil {
					g.noms[day] = map[int]nomination{}
				}
				if _, dup := g.noms[day][voter]; dup {
					return nil, gameErr(where, "seat %d nominates twice on day %d (R21)", voter, day)
				}
				g.noms[day][voter] = nomination{target: cand, where: where}
				continue
			}
			k := num - 1
			for len(g.rounds[day]) <= k {
				g.rounds[day] = append(g.rounds[day], nil)
			}
			if g.rounds[day][k] == nil {
				g.rounds[day][k] = map[int]int{}
			}
			if _, dup := g.rounds[day][k][voter]; dup {
				return nil, gameErr(where, "seat %d votes twice in round %d of day %d", voter, num, day)
			}
			g.rounds[day][k][voter] = cand
			g.roundsAt[day] = "votes"
		}
	}
	zv, zvWhere, err := polemicaZeroVoting(top, page)
	if err != nil {
		return nil, err
	}
	if zv != "" {
		if err := g.polemicaDayOne(zv, zvWhere, r); err != nil {
			return nil, err
		}
	}
	// shots and checks
	if present(top, "shots") {
		shots, err := listOf(top["shots"], "shots")
		if err != nil {
			return nil, err
		}
		for i, raw := range shots {
			where := fieldf("shots[%d]", i)
			s, err := objOf(raw, where)
			if err != nil {
				return nil, err
			}
			night, err := polemicaNight(s, where)
			if err != nil {
				return nil, err
			}
			for _, k := range []string{"shooter", "victim"} {
				if !present(s, k) {
					return nil, inputErr(where+"."+k, "missing")
				}
			}
			by, err := seatOf(s["shooter"], n, where+".shooter")
			if err != nil {
				return nil, err
			}
			t, err := seatOf(s["victim"], n, where+".victim")
			if err != nil {
				return nil, err
			}
			g.shots[night] = append(g.shots[night], shotFact{by: by, target: t, where: fieldf("%s (night %d, seat %d)", where, night-1, by)})
			g.touch(night)
		}
	}
	if present(top, "checks") {
		checks, err := listOf(top["checks"], "checks")
		if err != nil {
			return nil, err
		}
		for i, raw := range checks {
			where := fieldf("checks[%d]", i)
			c, err := objOf(raw, where)
			if err != nil {
				return nil, err
			}
			night, err := polemicaNight(c, where)
			if err != nil {
				return nil, err
			}
			if !present(c, "role") || !present(c, "player") {
				return nil, inputErr(where, "needs role and player")
			}
			role, err := intOf(c["role"], where+".role")
			if err != nil {
				return nil, err
			}
			t, err := seatOf(c["player"], n, where+".player")
			if err != nil {
				return nil, err
			}
			f := checkFact{target: t, where: fieldf("%s (night %d)", where, night-1)}
			switch role {
			case 0:
				g.donCheck[night] = append(g.donCheck[night], f)
			case 3:
				g.sherCheck[night] = append(g.sherCheck[night], f)
			default:
				return nil, inputErr(where+".role", "role %d does not check (0 don, 3 sheriff)", role)
			}
			g.touch(night)
		}
	}
	// fouls, disqualifications, best moves
	for pos := 1; pos <= n; pos++ {
		if err := g.polemicaPlayer(pos, players[pos]); err != nil {
			return nil, err
		}
	}
	if present(top, "id") {
		if id, err := intOf(top["id"], "id"); err == nil {
			g.extra["id"], _ = json.Marshal("polemica:" + strconv.Itoa(id))
		}
	}
	if present(top, "started") {
		if st, err := strOf(top["started"], "started"); err == nil {
			g.extra["started"], _ = json.Marshal(st)
		}
	}
	g.extra["source"], _ = json.Marshal("polemica")
	why := r.ID + ": Polemica serves FSM tournaments and the whole game replays under the FSM rules."
	if r.Club {
		why = r.ID + ": the game follows the FIIM tie procedure (a re-vote of every tied set, then a lift vote by more than half of the table, R33-R35), which fsm-2026 does not have (R36, R40); club_extras off (the club's own points, not the platform's); candidate_self_vote on (Polemica counts a candidate's hand against himself, C-03)."
	}
	form := "match JSON version 4"
	if page != nil {
		form = "the match page's JSON: the game in data (version 4), checked against the page's facts"
		if facts != nil && facts.points {
			form += "; the page's points are Polemica's scoring and are not compared"
		}
	}
	g.notes = append([]string{fmt.Sprintf("Imported from Polemica (%s). Rule set %s Speech events are synthesized in the rule set's speaking order (the platform records none); nominations follow it. Nights are numbered ours: Polemica's night n is our night n+1.", form, why)}, g.notes...)
	return g, nil
}

// polemicaZeroVoting reads how the first day is voted: zeroVoting in the game's config (newer files), at the
// game's top level (older ones), or on the match page. "" when none says.
func polemicaZeroVoting(top, page map[string]json.RawMessage) (string, string, error) {
	type place struct {
		m     map[string]json.RawMessage
		where string
	}
	places := []place{{top, ""}}
	if page != nil {
		places = []place{{top, "data."}, {page, ""}} // the game is in data, the page around it
	}
	for _, p := range places {
		if present(p.m, "config") {
			cfg, err := objOf(p.m["config"], p.where+"config")
			if err != nil {
				return "", "", err
			}
			if present(cfg, "zeroVoting") {
				zv, err := strOf(cfg["zeroVoting"], p.where+"config.zeroVoting")
				return zv, p.where + "config.zeroVoting", err
			}
		}
		if present(p.m, "zeroVoting") {
			zv, err := strOf(p.m["zeroVoting"], p.where+"zeroVoting")
			return zv, p.where + "zeroVoting", err
		}
	}
	return "", "", nil
}

// polemicaDayOne sets the option of Polemica's day-one variant (its "zero voting").
func (g *game) polemicaDayOne(zv, where string, r *mafia.Rules) error {
	key := map[string]string{"liftOnly": "day1_lift_only", "none": "day1_no_vote", "respeech": "day1_respeech"}[zv]
	if key == "" {
		return inputErr(where, "unknown zero voting %q (none, respeech, liftOnly)", zv)
	}
	if _, ok := r.Option(key); !ok {
		return gameErr(where, "Polemica's zero voting %q needs the option %s, which %s does not have: a rule difference", zv, Option(key), RuleSet(r.ID))
	}
	switch zv {
	case "liftOnly":
		// The first day's vote only puts its leader to the lift question: the option day1_lift_only.
		g.setOption(key, true)
		g.note("Polemica's zero voting %q: on day 1 the leader of the vote leaves only if more than half of the table then votes to lift him (option day1_lift_only); Polemica lists only the yes votes of a lift.", zv)
	case "respeech":
		g.setOption(key, true)
		g.note("Polemica's zero voting %q: on day 1 the leader of the vote speaks again, then leaves only if more than half of the table votes to lift him (option day1_respeech); Polemica lists only the yes votes of a lift.", zv)
	case "none":
		if len(g.rounds[1]) > 0 || g.lifts[1].recorded {
			// The platform recorded a vote on day 1: its "none" did not keep the day from being voted.
			g.note("Polemica's zero voting %q, but day 1 was voted: it is voted here as on every day.", zv)
			return nil
		}
		g.setOption(key, true)
		g.note("Polemica's zero voting %q: day 1 has nominations but no vote, and nobody leaves by vote that day (option day1_no_vote).", zv)
	}
	return nil
}

// polemicaNight reads a shot's or check's night: Polemica's night n follows day n, so it is the engine's n+1.
func polemicaNight(o map[string]json.RawMessage, where string) (int, error) {
	if !present(o, "night") {
		return 0, inputErr(where+".night", "missing")
	}
	night, err := intOf(o["night"], where+".night")
	if err != nil {
		return 0, err
	}
	if night < 1 || night > 30 {
		return 0, inputErr(where+".night", "night %d is out of range", night)
	}
	return night + 1, nil
}

// polemicaStages are the stage types the importer places, each at the moment of ours its name says.
var polemicaStages = []string{"dealing", "briefing", "comIntro", "freeSeating", "mafiaIntro", "donIntro", "acquaintance",
	"speech", "toVoting", "voting", "reVoting", "reSpeech", "lift", "liftVoting", "voted", "night", "shooting",
	"donCheck", "comCheck", "comKill", "guess", "shooted", "day", "morning", "gameOver", "end"}

// polemicaSlot reads a stage ({type, day, player, voting}) as a moment.
func polemicaSlot(st map[string]json.RawMessage, n int, where string) (slot, error) {
	if !present(st, "type") {
		return slot{}, inputErr(where+".type", "missing")
	}
	typ, err := strOf(st["type"], where+".type")
	if err != nil {
		return slot{}, err
	}
	day := 0
	if present(st, "day") {
		if day, err = intOf(st["day"], where+".day"); err != nil {
			return slot{}, err
		}
		if day < 0 || day > 30 {
			return slot{}, inputErr(where+".day", "day %d is out of range", day)
		}
	}
	player := 0
	if present(st, "player") {
		if player, err = seatOf(st["player"], n, where+".player"); err != nil {
			return slot{}, err
		}
	}
	voting := 0
	if present(st, "voting") {
		if voting, err = intOf(st["voting"], where+".voting"); err != nil {
			return slot{}, err
		}
		if voting < 0 || voting > 20 {
			return slot{}, inputErr(where+".voting", "%d is out of range", voting)
		}
	}
	needDay := func() error {
		if day < 1 {
			return inputErr(where+".day", "missing or 0 for a %q stage", typ)
		}
		return nil
	}
	switch typ {
	case "dealing", "briefing", "comIntro":
		return slot{kind: slNightStart, num: 1}, nil
	case "speech":
		if err := needDay(); err != nil {
			return slot{}, err
		}
		if player == 0 {
			return slot{}, inputErr(where+".player", "missing (a speech stage names the speaker)")
		}
		return slot{kind: slSpeech, num: day, seat: player}, nil
	case "freeSeating", "mafiaIntro", "donIntro", "acquaintance":
		return slot{kind: slNightStart, num: 1}, nil
	case "night":
		return slot{kind: slNightStart, num: day + 1}, nil
	case "day", "morning":
		if err := needDay(); err != nil {
			return slot{}, err
		}
		return slot{kind: slMorning, num: day, who: player}, nil
	case "toVoting":
		// the speeches are over and the host turns to the vote: the nominations are closed
		if err := needDay(); err != nil {
			return slot{}, err
		}
		return slot{kind: slVotingStart, num: day}, nil
	case "reSpeech":
		if err := needDay(); err != nil {
			return slot{}, err
		}
		return slot{kind: slRoundStart, num: day, round: max(voting, 1), who: player}, nil
	case "voting", "reVoting":
		if err := needDay(); err != nil {
			return slot{}, err
		}
		k := max(voting, 1) - 1
		if player != 0 {
			return slot{kind: slBeforeVote, num: day, round: k, seat: player}, nil
		}
		return slot{kind: slRoundStart, num: day, round: k}, nil
	case "lift", "liftVoting":
		if err := needDay(); err != nil {
			return slot{}, err
		}
		return slot{kind: slBeforeLift, num: day}, nil
	case "voted":
		if err := needDay(); err != nil {
			return slot{}, err
		}
		return slot{kind: slAfterVoting, num: day, who: player}, nil
	case "shooted":
		if err := needDay(); err != nil {
			return slot{}, err
		}
		return slot{kind: slMorning, num: day, who: player}, nil
	case "shooting":
		return slot{kind: slAfterShots, num: day + 1}, nil
	case "donCheck":
		return slot{kind: slAfterDon, num: day + 1}, nil
	case "comCheck", "comKill", "guess":
		return slot{kind: slAfterSheriff, num: day + 1}, nil
	case "gameOver", "end":
		return slot{kind: slEnd}, nil
	}
	return slot{}, inputErr(where+".type", "unknown stage %q: no moment of ours is known for it (known: %s)", typ, strings.Join(polemicaStages, ", "))
}

func (g *game) polemicaPlayer(seat int, p map[string]json.RawMessage) error {
	n := len(g.seats)
	where := fieldf("players (seat %d)", seat)
	if present(p, "techs") {
		techs, err := listOf(p["techs"], where+".techs")
		if err != nil {
			return err
		}
		if len(techs) > 0 {
			return gameErr(where+".techs", "seat %d has technical fouls; no rule set of ours counts them: a rule difference", seat)
		}
	}
	var fourth *slot
	count := 0
	if present(p, "fouls") {
		fouls, err := listOf(p["fouls"], where+".fouls")
		if err != nil {
			return err
		}
		if len(fouls) > 10 {
			return inputErr(where+".fouls", "%d fouls is too many", len(fouls))
		}
		for i, raw := range fouls {
			wi := fieldf("%s.fouls[%d]", where, i)
			f, err := objOf(raw, wi)
			if err != nil {
				return err
			}
			if !present(f, "stage") {
				return inputErr(wi+".stage", "missing")
			}
			st, err := objOf(f["stage"], wi+".stage")
			if err != nil {
				return err
			}
			at, err := polemicaSlot(st, n, wi+".stage")
			if err != nil {
				return err
			}
			if i == 3 {
				a := at
				fourth = &a
			}
			g.addPending(at, record.Event{Event: mafia.Foul(seat)}, wi)
		}
		count = len(fouls)
	}
	g.expFouls[seat] = count
	if present(p, "disqual") {
		w := where + ".disqual"
		st, err := objOf(p["disqual"], w)
		if err != nil {
			return err
		}
		at, err := polemicaSlot(st, n, w)
		if err != nil {
			return err
		}
		if fourth != nil && *fourth == at {
			g.expect[seat] = expectOut{known: true, how: mafia.OutFouls, phase: slotPhase(at), num: at.num}
		} else {
			g.addPending(at, record.Event{Event: mafia.Disqualify(seat)}, w)
			g.expect[seat] = expectOut{known: true, how: mafia.OutDisqualified, phase: slotPhase(at), num: at.num}
		}
		g.touch(at.num)
	}
	if present(p, "guess") {
		w := where + ".guess"
		gu, err := objOf(p["guess"], w)
		if err != nil {
			return err
		}
		if present(gu, "mafs") {
			list, err := listOf(gu["mafs"], w+".mafs")
			if err != nil {
				return err
			}
			if len(list) > 3 {
				return inputErr(w+".mafs", "a best move names at most 3 seats, not %d", len(list))
			}
			var targets []int
			for i, v := range list {
				t, err := seatOf(v, n, fieldf("%s.mafs[%d]", w, i))
				if err != nil {
					return err
				}
				for _, o := range targets {
					if o == t {
						return inputErr(w+".mafs", "seat %d is named twice", t)
					}
				}
				targets = append(targets, t)
			}
			if len(targets) > 0 {
				g.bestMove[seat] = targets
				g.bmWhere[seat] = w
			}
		}
		if present(gu, "civs") {
			g.note("Polemica's guesses name red players too (guess.civs); our best move names only the seats believed black (guess.mafs).")
		}
	}
	return nil
}
