package club

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"time"

	"mafiaclub/internal/seating"
	"mafiaclub/internal/tourney"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// Tournaments runs tournaments (seed 002 §7-§8, §T6, §P7): an admin organises them, the chief judge decides
// protests and agrees to a winner's high extra points, each table's judge hosts its games.
type Tournaments struct {
	store Store
	games *Games
	clock *Clock
}

func (s *Tournaments) now() time.Time { return s.clock.Now() }

func randomSeed() int64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return int64(binary.LittleEndian.Uint64(b[:]) >> 1)
}

// Create adds a tournament; its rule set defaults to fiim-xcraft and its lot's seed is drawn now (unless t has one:
// the demo's season gives its own, so that its standings are its seed's).
func (s *Tournaments) Create(ctx context.Context, admin *User, t *Tournament) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	var err error
	if t.Name, err = cleanName(t.Name, MaxTitle, "tournament's name", false); err != nil {
		return err
	}
	if t.Place, err = cleanName(t.Place, MaxTitle, "place", true); err != nil {
		return err
	}
	if t.Rules == "" {
		t.Rules = DefaultTournamentRules
	}
	if _, ok := mafia.RuleSet(t.Rules); !ok {
		return Errorf(Invalid, "unknown rule set %q", t.Rules)
	}
	from, err1 := time.Parse("2006-01-02", t.StartsOn)
	to, err2 := time.Parse("2006-01-02", t.EndsOn)
	if err1 != nil || err2 != nil || to.Before(from) {
		return Errorf(Invalid, "the dates: the first and the last day, like 2027-03-13")
	}
	chief, uerr := s.store.User(ctx, t.ChiefJudge)
	if uerr != nil || !chief.Role.Can(RoleHost) {
		return Errorf(Invalid, "the chief judge must be a host or an admin")
	}
	if t.LotSeed == 0 {
		t.LotSeed = randomSeed()
	}
	t.CreatedBy, t.CreatedAt = admin.ID, s.now()
	return s.store.CreateTournament(ctx, t)
}

// AddParticipant registers a player by his club nickname, or a guest by name; an admin's registration is
// approved at once.
func (s *Tournaments) AddParticipant(ctx context.Context, admin *User, tournamentID int64, name string) (*Participant, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	name, err := cleanName(name, MaxNick, "player's nickname or guest's name", false)
	if err != nil {
		return nil, err
	}
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return nil, err
	}
	p := &Participant{TournamentID: tournamentID, Name: name, Approved: true}
	if pl, err := s.store.PlayerByNick(ctx, name); err == nil {
		p.PlayerID, p.Name = pl.ID, pl.Nick
	} else if ErrorCode(err) != NotFound {
		return nil, err
	}
	return p, s.store.AddParticipant(ctx, p)
}

// Register is a member's own registration; it waits for the organiser's approval.
func (s *Tournaments) Register(ctx context.Context, u *User, tournamentID int64) (*Participant, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	if u.Status != StatusActive && u.Status != StatusLowPriority && !u.Role.Can(RoleHost) {
		return nil, ErrNotApproved
	}
	pl, err := s.store.Player(ctx, u.PlayerID)
	if err != nil {
		return nil, Errorf(Invalid, "this account has no player profile")
	}
	if _, err := s.store.Tournament(ctx, tournamentID); err != nil {
		return nil, err
	}
	p := &Participant{TournamentID: tournamentID, PlayerID: pl.ID, Name: pl.Nick}
	return p, s.store.AddParticipant(ctx, p)
}

// Approve approves a self-registration to the tournament.
func (s *Tournaments) Approve(ctx context.Context, admin *User, tournamentID, participantID int64) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	parts, err := s.store.Participants(ctx, tournamentID)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if p.ID == participantID {
			return s.store.ApproveParticipant(ctx, participantID)
		}
	}
	return Errorf(NotFound, "no such participant in this tournament")
}

// stageOf returns a stage of the tournament: a stage of another tournament is not found here, so that an action
// on one tournament's page never reaches another's.
func (s *Tournaments) stageOf(ctx context.Context, tournamentID, stageID int64) (*Stage, error) {
	st, err := s.store.Stage(ctx, stageID)
	if err != nil {
		return nil, err
	}
	if st.TournamentID != tournamentID {
		return nil, Errorf(NotFound, "no such stage in this tournament")
	}
	return st, nil
}

// StageForm is an organiser's new stage: its name and rounds, a final's cut (Top: only the first Top players of
// the standings so far; 0 for all the approved players), the size and number of tables (0: the rule set's
// largest table, at most 10; as many full tables as the players fill) and the pairs of participants' names that
// never sit at one table (the organiser's conflicts); Seed is the seating's seed (0: drawn now).
type StageForm struct {
	Name             string
	Rounds, Top      int
	PerTable, Tables int
	Apart            [][2]string
	Seed             int64
}

// TableSizes returns the table sizes a stage of a tournament under rules may have: the rule set's range within the
// seating generator's (7 to 10).
func TableSizes(rules string) (lo, hi int) {
	rs, ok := mafia.RuleSet(rules)
	if !ok {
		return seating.MaxPerTable, seating.MaxPerTable
	}
	return max(rs.MinPlayers, seating.MinPerTable), min(rs.MaxPlayers, seating.MaxPerTable)
}

// AddStage seats the approved participants (or a final's top players) for the form's rounds with the seating
// generator: any number of players from one full table on, the players the full tables leave over sitting out in
// turn, so that everyone plays the same number of games or, where no schedule can be equal, within one; seat
// numbers, tables and meetings balanced; reproducible from the seed it records.
func (s *Tournaments) AddStage(ctx context.Context, admin *User, tournamentID int64, f StageForm) (*Stage, *seating.Quality, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, nil, err
	}
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return nil, nil, err
	}
	lo, hi := TableSizes(t.Rules)
	per := f.PerTable
	if per == 0 {
		per = hi
	}
	if per < lo || per > hi {
		if lo == hi {
			return nil, nil, Errorf(Invalid, "%s is played at tables of %d", t.Rules, lo)
		}
		return nil, nil, Errorf(Invalid, "%s is played at tables of %d to %d", t.Rules, lo, hi)
	}
	all, err := s.store.Participants(ctx, tournamentID)
	if err != nil {
		return nil, nil, err
	}
	var ids []int64
	for _, p := range all {
		if p.Approved && !p.Left {
			ids = append(ids, p.ID)
		}
	}
	if f.Top > 0 {
		lines, _, err := s.Standings(ctx, tournamentID, "")
		if err != nil {
			return nil, nil, err
		}
		if len(lines) < f.Top {
			return nil, nil, Errorf(Invalid, "only %d players have results; a final of %d needs more", len(lines), f.Top)
		}
		ids = ids[:0]
		for _, l := range lines[:f.Top] {
			ids = append(ids, l.Participant)
		}
	}
	index := map[string]int{}
	for i, id := range ids {
		for _, p := range all {
			if p.ID == id {
				index[strings.ToLower(p.Name)] = i
			}
		}
	}
	var pairs [][2]int
	for _, pair := range f.Apart {
		a, okA := index[strings.ToLower(strings.TrimSpace(pair[0]))]
		b, okB := index[strings.ToLower(strings.TrimSpace(pair[1]))]
		if !okA || !okB {
			return nil, nil, Errorf(Invalid, "%s and %s: both must play in this stage", pair[0], pair[1])
		}
		pairs = append(pairs, [2]int{a, b})
	}
	if len(ids) < per {
		return nil, nil, Errorf(Invalid, "%d approved players do not fill a table of %d", len(ids), per)
	}
	if f.Tables < 0 || f.Tables > len(ids)/per {
		return nil, nil, Errorf(Invalid, "%d players fill 1 to %d tables of %d", len(ids), len(ids)/per, per)
	}
	if f.Rounds < 1 || f.Rounds > 30 {
		return nil, nil, Errorf(Invalid, "1 to 30 rounds")
	}
	name, err := cleanName(f.Name, MaxTitle, "stage's name", true)
	if err != nil {
		return nil, nil, err
	}
	seed := f.Seed
	if seed == 0 {
		seed = randomSeed()
	}
	st := &Stage{TournamentID: tournamentID, Name: name, Rounds: f.Rounds, PerTable: per, Seed: seed}
	if st.Name == "" {
		st.Name = "1"
	}
	st.Players = ids
	for _, pr := range pairs {
		st.Apart = append(st.Apart, [2]int64{ids[pr[0]], ids[pr[1]]})
	}
	tables := f.Tables
	if tables == 0 {
		tables = len(ids) / per
	}
	q, err := seat(st, tables)
	if err != nil {
		return nil, nil, err
	}
	return st, q, s.store.CreateStage(ctx, st)
}

// seat fills a stage's schedule and sit-outs from its seed, players and pairs kept apart, at tables tables.
func seat(st *Stage, tables int) (*seating.Quality, error) {
	ids := st.Players
	index := map[int64]int{}
	for i, id := range ids {
		index[id] = i
	}
	var pairs [][2]int
	for _, pr := range st.Apart {
		pairs = append(pairs, [2]int{index[pr[0]], index[pr[1]]})
	}
	sched, err := seating.Generate(seating.Params{Players: len(ids), PerTable: st.PerTable, Tables: tables, Rounds: st.Rounds,
		Seed: uint64(st.Seed), Apart: pairs})
	if err != nil {
		if errors.Is(err, seating.ErrInfeasible) {
			return nil, Errorf(Invalid, "the pairs kept apart cannot all be kept apart at these tables; try fewer pairs, more tables or another seed")
		}
		return nil, &Error{Code: Internal, Message: "the seating", Cause: err}
	}
	st.Schedule, st.SitOut = nil, nil
	for r := 0; r < st.Rounds; r++ {
		var round [][]int64
		for tb := 0; tb < sched.Tables(); tb++ {
			var seats []int64
			for _, p := range sched.Table(r, tb) {
				seats = append(seats, ids[p])
			}
			round = append(round, seats)
		}
		st.Schedule = append(st.Schedule, round)
		out := []int64{}
		for _, p := range sched.SitOut(r) {
			out = append(out, ids[p])
		}
		st.SitOut = append(st.SitOut, out)
	}
	q := sched.Quality()
	return &q, nil
}

// restore rebuilds a stored stage's schedule for the generator's figures and its checks: each participant is the
// generator's player he took the place of (a substitute is the player he replaced, see Replace).
func restore(st *Stage, parts []Participant) (*seating.Schedule, map[int64]int, error) {
	index := map[int64]int{}
	for i, id := range st.Players {
		index[id] = i
	}
	for changed := true; changed; { // substitutes of substitutes
		changed = false
		for _, p := range parts {
			if _, ok := index[p.ID]; !ok && p.Replaces != 0 {
				if i, ok := index[p.Replaces]; ok {
					index[p.ID], changed = i, true
				}
			}
		}
	}
	var pairs [][2]int
	for _, pr := range st.Apart {
		pairs = append(pairs, [2]int{index[pr[0]], index[pr[1]]})
	}
	var tables [][][]int
	for _, round := range st.Schedule {
		var rt [][]int
		for _, table := range round {
			var seats []int
			for _, id := range table {
				i, ok := index[id]
				if !ok {
					return nil, nil, &Error{Code: Internal, Message: "the stage's schedule names a participant it was not seated with"}
				}
				seats = append(seats, i)
			}
			rt = append(rt, seats)
		}
		tables = append(tables, rt)
	}
	sched, err := seating.FromTables(seating.Params{Players: len(st.Players), PerTable: st.PerTable, Seed: uint64(st.Seed), Apart: pairs}, tables)
	if err != nil {
		return nil, nil, &Error{Code: Internal, Message: "the stage's schedule", Cause: err}
	}
	return sched, index, nil
}

// begun reports whether any game of a stage has begun.
func (s *Tournaments) begun(ctx context.Context, stageID int64) (bool, error) {
	games, err := s.store.Games(ctx, GameFilter{StageID: stageID, Limit: 1})
	return len(games) > 0, err
}

// Reseat seats a stage that has not begun again from seed: the same seed, players and pairs give the same
// schedule, so a recorded seed reproduces it.
func (s *Tournaments) Reseat(ctx context.Context, admin *User, tournamentID, stageID, seed int64) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	st, err := s.stageOf(ctx, tournamentID, stageID)
	if err != nil {
		return err
	}
	if begun, err := s.begun(ctx, stageID); err != nil || begun {
		if err == nil {
			err = Errorf(Invalid, "the stage has begun")
		}
		return err
	}
	// a player replaced before the stage began is reseated as his substitute
	parts, err := s.store.Participants(ctx, tournamentID)
	if err != nil {
		return err
	}
	sub := map[int64]int64{}
	for _, p := range parts {
		if p.Replaces != 0 {
			sub[p.Replaces] = p.ID
		}
	}
	current := func(id int64) int64 {
		for n := 0; sub[id] != 0 && n < len(parts); n++ {
			id = sub[id]
		}
		return id
	}
	for i, id := range st.Players {
		st.Players[i] = current(id)
	}
	for i, pr := range st.Apart {
		st.Apart[i] = [2]int64{current(pr[0]), current(pr[1])}
	}
	st.Seed = seed
	if _, err := seat(st, st.Tables()); err != nil {
		return err
	}
	return s.store.SetSchedule(ctx, stageID, seed, st.Schedule, st.SitOut)
}

// Swap exchanges two participants' places in one round of a stage, as the organiser decides; with a player who
// sits the round out, the other sits it out instead (each then plays a game more or fewer, and the figures show
// it). A swap that would seat a pair kept apart together is refused, and so is a round that has begun.
func (s *Tournaments) Swap(ctx context.Context, admin *User, tournamentID, stageID int64, round int, a, b int64) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	st, err := s.stageOf(ctx, tournamentID, stageID)
	if err != nil {
		return err
	}
	if round < 1 || round > len(st.Schedule) {
		return Errorf(Invalid, "no round %d", round)
	}
	var pa, pb *int64
	for _, table := range st.Schedule[round-1] {
		for i := range table {
			switch table[i] {
			case a:
				pa = &table[i]
			case b:
				pb = &table[i]
			}
		}
	}
	out := st.SitsOut(round)
	for i := range out {
		switch out[i] {
		case a:
			pa = &out[i]
		case b:
			pb = &out[i]
		}
	}
	if pa == nil || pb == nil || a == b {
		return Errorf(Invalid, "choose two players of round %d", round)
	}
	if slices.Contains(out, a) && slices.Contains(out, b) {
		return Errorf(Invalid, "both sit round %d out; choose a player who plays it", round)
	}
	games, err := s.store.Games(ctx, GameFilter{StageID: stageID, Limit: 500})
	if err != nil {
		return err
	}
	for _, g := range games {
		if g.Round == round {
			return Errorf(Invalid, "round %d has begun", round)
		}
	}
	parts, err := s.store.Participants(ctx, tournamentID)
	if err != nil {
		return err
	}
	sched, index, err := restore(st, parts)
	if err != nil {
		return err
	}
	if err := sched.Swap(round-1, index[a], index[b]); err != nil {
		if errors.Is(err, seating.ErrApart) {
			return Errorf(Invalid, "the swap would seat two players kept apart at one table")
		}
		return &Error{Code: Internal, Message: "the swap", Cause: err}
	}
	*pa, *pb = b, a
	slices.Sort(out)
	return s.store.SetSchedule(ctx, stageID, st.Seed, st.Schedule, st.SitOut)
}

// SetJudge names the judge of a table of a stage.
func (s *Tournaments) SetJudge(ctx context.Context, admin *User, tournamentID, stageID int64, table int, userID int64) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	st, err := s.stageOf(ctx, tournamentID, stageID)
	if err != nil {
		return err
	}
	if table < 1 || table > st.Tables() {
		return Errorf(Invalid, "the stage has tables 1 to %d", st.Tables())
	}
	judge, err := s.store.User(ctx, userID)
	if err != nil || !judge.Role.Can(RoleHost) {
		return Errorf(Invalid, "a table's judge must be a host or an admin")
	}
	return s.store.SetTableJudge(ctx, stageID, table, userID)
}

// judgeOf returns the judge of a stage's table, or 0.
func (s *Tournaments) judgeOf(ctx context.Context, stageID int64, table int) (int64, error) {
	js, err := s.store.TableJudges(ctx, stageID)
	if err != nil {
		return 0, err
	}
	for _, j := range js {
		if j.Table == table {
			return j.UserID, nil
		}
	}
	return 0, nil
}

// CanHost reports whether u hosts the games of a tournament's table whose judge is judge: that judge or the
// tournament's chief judge.
func CanHost(u *User, t *Tournament, judge int64) bool {
	return u != nil && u.Role.Can(RoleHost) && (u.ID == judge && judge != 0 || u.ID == t.ChiefJudge)
}

// ErrNotTheJudge refuses an action on a tournament game by anyone but its table's judge and the chief judge.
var ErrNotTheJudge = &Error{Code: Forbidden, Message: "only this table's judge or the chief judge runs its games",
	Format: "only this table's judge or the chief judge runs its games"}

// mayHost checks that u may run a game: any host a club game; a tournament game its table's judge or the chief
// judge.
func (s *Tournaments) mayHost(ctx context.Context, u *User, g *Game) error {
	if err := need(u, RoleHost); err != nil {
		return err
	}
	if g.StageID == 0 {
		return nil
	}
	stage, err := s.store.Stage(ctx, g.StageID)
	if err != nil {
		return err
	}
	t, err := s.store.Tournament(ctx, stage.TournamentID)
	if err != nil {
		return err
	}
	judge, err := s.judgeOf(ctx, g.StageID, g.TableNo)
	if err != nil {
		return err
	}
	if !CanHost(u, t, judge) {
		return ErrNotTheJudge
	}
	return nil
}

// StartGame starts a scheduled game (stage, round, table) with its participants in their seats; the roles are
// dealt at random on the server or entered as dealt with cards. Its table's judge or the chief judge hosts it.
func (s *Tournaments) StartGame(ctx context.Context, u *User, tournamentID, stageID int64, round, table int, roles []string) (*Game, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	st, err := s.stageOf(ctx, tournamentID, stageID)
	if err != nil {
		return nil, err
	}
	t, err := s.store.Tournament(ctx, st.TournamentID)
	if err != nil {
		return nil, err
	}
	judge, err := s.judgeOf(ctx, stageID, table)
	if err != nil {
		return nil, err
	}
	if !CanHost(u, t, judge) {
		return nil, ErrNotTheJudge
	}
	if round < 1 || round > len(st.Schedule) || table < 1 || table > st.Tables() {
		return nil, Errorf(Invalid, "no such round and table")
	}
	parts, err := s.store.Participants(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	byID := map[int64]Participant{}
	for _, p := range parts {
		byID[p.ID] = p
	}
	ids := st.Schedule[round-1][table-1]
	rs, _ := mafia.RuleSet(t.Rules)
	dealt := roles == nil
	if dealt {
		dealt, err := DealRoles(rs, len(ids), 0, false)
		if err != nil {
			return nil, err
		}
		for _, r := range dealt {
			roles = append(roles, r.String())
		}
	}
	if len(roles) != len(ids) {
		return nil, Errorf(Invalid, "give a role for each of the %d seats", len(ids))
	}
	seats := make([]Seat, len(ids))
	for i, id := range ids {
		p := byID[id]
		seats[i] = Seat{Seat: i + 1, Role: roles[i], Name: p.Name, PlayerID: p.PlayerID}
	}
	return s.games.start(ctx, u, t.Rules, nil, seats, true, 0, func(g *Game) {
		g.StageID, g.Round, g.TableNo, g.Dealt = stageID, round, table, dealt
	})
}

// participantsAt returns the participant ids at the seats of a tournament game.
func participantsAt(st *Stage, g *Game) []int64 {
	if st == nil || g.Round < 1 || g.Round > len(st.Schedule) || g.TableNo < 1 || g.TableNo > st.Tables() {
		return nil
	}
	return st.Schedule[g.Round-1][g.TableNo-1]
}

// Standings orders the participants of a tournament (a stage when stageName is not "") by §T6.2, from its saved
// games, with the lot drawn from the tournament's seed.
func (s *Tournaments) Standings(ctx context.Context, tournamentID int64, stageName string) ([]tourney.Line, map[int64]Participant, error) {
	t, err := s.store.Tournament(ctx, tournamentID)
	if err != nil {
		return nil, nil, err
	}
	stages, err := s.store.Stages(ctx, tournamentID)
	if err != nil {
		return nil, nil, err
	}
	var results []tourney.GameResult
	for i := range stages {
		st := &stages[i]
		games, err := s.store.Games(ctx, GameFilter{StageID: st.ID, Status: GameSaved, Limit: 500})
		if err != nil {
			return nil, nil, err
		}
		for _, g := range games {
			state, err := s.games.load(ctx, g.ID)
			if err != nil {
				return nil, nil, err
			}
			ids := participantsAt(st, state.Game)
			if len(ids) != len(state.Game.Seats) {
				continue
			}
			results = append(results, tourney.FromGame(state.Play, ids, st.Name))
		}
	}
	parts, err := s.store.Participants(ctx, tournamentID)
	if err != nil {
		return nil, nil, err
	}
	byID := map[int64]Participant{}
	for _, p := range parts {
		byID[p.ID] = p
	}
	return tourney.Standings(results, stageName, uint64(t.LotSeed)), byID, nil
}

// gameEnd is the moment a game got its result: the time of the event that finished it (zero while it goes on).
func gameEnd(st *State) time.Time {
	g, err := mafia.NewGame(st.Record.Rules, st.Record.Options, st.Record.Roles())
	if err != nil {
		return time.Time{}
	}
	for i, e := range st.Record.Events {
		if g.Apply(e.Event) != nil {
			return time.Time{}
		}
		if g.Finished() && i < len(st.Log) {
			return st.Log[i].At
		}
	}
	return time.Time{}
}

// GameEnd is when a tournament game ended, for the protest window (zero while it goes on).
func (s *Tournaments) GameEnd(st *State) time.Time { return gameEnd(st) }

// FileProtest files a player's protest about a tournament game, within ten minutes of its end (§T6.3.1).
func (s *Tournaments) FileProtest(ctx context.Context, u *User, gameID int64, matter, text string) (*StoredProtest, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	text, err := cleanText(text, MaxNote, "protest", true)
	if err != nil {
		return nil, err
	}
	st, stage, err := s.tournamentGame(ctx, gameID)
	if err != nil {
		return nil, err
	}
	ids := participantsAt(stage, st.Game)
	parts, err := s.store.Participants(ctx, stage.TournamentID)
	if err != nil {
		return nil, err
	}
	var me int64
	for _, p := range parts {
		if p.PlayerID != 0 && p.PlayerID == u.PlayerID {
			me = p.ID
		}
	}
	existing, err := s.store.Protests(ctx, gameID)
	if err != nil {
		return nil, err
	}
	var prior []tourney.Protest
	for _, e := range existing {
		prior = append(prior, tourney.Protest{GameID: e.GameID, By: e.ParticipantID, Matter: e.Matter, Decided: e.Decided})
	}
	p, err := tourney.File(gameID, me, ids, gameEnd(st), s.now(), matter, text, prior)
	if err != nil {
		return nil, protestError(err)
	}
	sp := &StoredProtest{GameID: gameID, ParticipantID: me, Matter: p.Matter, Text: p.Text, At: p.At}
	return sp, s.store.FileProtest(ctx, sp)
}

// DecideProtest records the chief judge's final decision, with its reason (§T6.3.2-§T6.3.4).
func (s *Tournaments) DecideProtest(ctx context.Context, u *User, gameID, protestID int64, upheld bool, reason string) error {
	reason, err := cleanText(reason, MaxNote, "reason", true)
	if err != nil {
		return err
	}
	t, _, err := s.judgedTournament(ctx, u, gameID)
	if err != nil {
		return err
	}
	if u.ID != t.ChiefJudge {
		return Errorf(Forbidden, "only the chief judge decides protests")
	}
	list, err := s.store.Protests(ctx, gameID)
	if err != nil {
		return err
	}
	for i := range list {
		if list[i].ID != protestID {
			continue
		}
		tp := tourney.Protest{Decided: list[i].Decided}
		if err := tourney.Decide(&tp, u.ID, t.ChiefJudge, upheld, reason, s.now()); err != nil {
			if err == tourney.ErrNotChiefJudge {
				return Errorf(Forbidden, "only the chief judge decides protests")
			}
			return protestError(err)
		}
		p := list[i]
		p.DecidedBy, p.DecidedAt, p.Upheld, p.Reason = u.ID, tp.DecidedAt, tp.Upheld, tp.Reason
		return s.store.DecideProtest(ctx, &p)
	}
	return Errorf(NotFound, "no such protest")
}

// ErrSeatedApprover refuses the agreement to a winner's 0.6 or 0.7 to one of the game's players: a chief judge who
// plays in his own tournament would otherwise agree to the points of his own table. The organiser agrees in his
// place.
var ErrSeatedApprover = Errorf(Forbidden, "you sit at this table: the tournament's organiser agrees to its extra points in your place")

// ApproveExtra records the chief judge's agreement to a winner's 0.6 or 0.7 extra points (§T6.1.3). A chief judge
// who sits at the game's table may not give it; the tournament's organiser (the admin who created it) gives it in
// his place, unless he sits there too.
func (s *Tournaments) ApproveExtra(ctx context.Context, u *User, gameID int64, seat int) error {
	t, st, err := s.judgedTournament(ctx, u, gameID)
	if err != nil {
		return err
	}
	if Seated(u, st.Game) && (u.ID == t.ChiefJudge || u.ID == t.CreatedBy) {
		return ErrSeatedApprover
	}
	if ok, err := s.mayApproveExtra(ctx, u, t, st.Game); err != nil {
		return err
	} else if !ok {
		return Errorf(Forbidden, "only the chief judge agrees to a winner's 0.6 or 0.7")
	}
	if st.Game.Status != GameLive {
		return Errorf(Closed, "the game is saved; an admin may reopen it")
	}
	if seat < 1 || seat > len(st.Game.Seats) {
		return Errorf(Invalid, "there is no seat %d at this table", seat)
	}
	return s.store.ApproveExtra(ctx, gameID, seat, u.ID, s.now())
}

// mayApproveExtra reports whether u agrees to a winner's 0.6 or 0.7 in tournament t's game g: its chief judge,
// or its organiser (the admin who created it) when the chief judge sits at g's table; never one who sits there.
func (s *Tournaments) mayApproveExtra(ctx context.Context, u *User, t *Tournament, g *Game) (bool, error) {
	if u == nil || !u.Role.Can(RoleHost) || Seated(u, g) {
		return false, nil
	}
	if u.ID == t.ChiefJudge {
		return true, nil
	}
	if u.ID != t.CreatedBy || !u.Role.Can(RoleAdmin) {
		return false, nil
	}
	chief, err := s.store.User(ctx, t.ChiefJudge)
	if err != nil {
		return false, err
	}
	return Seated(chief, g), nil
}

// checkExtras refuses a judge's extra points that need the chief judge's agreement and do not have it. The
// engine enforces the hard limits of §T6.1; this is §T6.1.3's approval, a tournament's matter.
func (s *Tournaments) checkExtras(ctx context.Context, u *User, st *State, events []record.Event) error {
	if st.Game.StageID == 0 {
		return nil
	}
	stage, err := s.store.Stage(ctx, st.Game.StageID)
	if err != nil {
		return err
	}
	t, err := s.store.Tournament(ctx, stage.TournamentID)
	if err != nil {
		return err
	}
	play := st.Play
	for _, e := range events {
		if e.Type != mafia.EvAdjust || e.Points <= 0 || !play.Finished() || u.ID == t.ChiefJudge {
			continue
		}
		seats := play.Result().Seats
		seat := int(e.Seat)
		if seat < 1 || seat > len(seats) {
			continue // the engine refuses it with the reason
		}
		sr := seats[seat-1]
		already := 0
		for _, it := range sr.Score {
			if it.Item == mafia.ItemJudgeExtra {
				already += it.Points
			}
		}
		if tourney.ExtraNeedsApproval(sr.Won, already, int(e.Points)) {
			ok, err := s.store.ExtraApproved(ctx, st.Game.ID, seat)
			if err != nil {
				return err
			}
			if !ok {
				return Errorf(Forbidden, "a winner's 0.6 or 0.7 needs the chief judge's agreement")
			}
		}
	}
	return nil
}

// tournamentGame loads a tournament game and its stage.
func (s *Tournaments) tournamentGame(ctx context.Context, gameID int64) (*State, *Stage, error) {
	st, err := s.games.load(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	if st.Game.StageID == 0 {
		return nil, nil, Errorf(NotFound, "not a tournament game")
	}
	stage, err := s.store.Stage(ctx, st.Game.StageID)
	if err != nil {
		return nil, nil, err
	}
	return st, stage, nil
}

// protestError says a refused protest or decision in words the catalogues translate.
func protestError(err error) error {
	switch err {
	case tourney.ErrNotAPlayer:
		return Errorf(Invalid, "only a player of the game may protest")
	case tourney.ErrProtestTooLate:
		return Errorf(Invalid, "the ten minutes after the game's end are over")
	case tourney.ErrGameNotOver:
		return Errorf(Invalid, "the game is not over yet")
	case tourney.ErrAlreadyProtests:
		return Errorf(Invalid, "this player has already protested this game")
	case tourney.ErrMatterDecided:
		return Errorf(Invalid, "this matter is decided, and the decision is final")
	case tourney.ErrDecided:
		return Errorf(Invalid, "the protest is decided, and the decision is final")
	case tourney.ErrNoReason:
		return Errorf(Invalid, "a decision needs its written reason")
	case tourney.ErrNoMatter:
		return Errorf(Invalid, "say what the protest is about")
	}
	return err
}

// judgedTournament checks the role and returns the tournament of a tournament game: the prologue of a judge's
// action on it.
func (s *Tournaments) judgedTournament(ctx context.Context, u *User, gameID int64) (*Tournament, *State, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, nil, err
	}
	st, stage, err := s.tournamentGame(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	t, err := s.store.Tournament(ctx, stage.TournamentID)
	return t, st, err
}
