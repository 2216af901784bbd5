package club

import (
	"context"
	"time"

	"mafiaclub/internal/seating"
	"mafiaclub/internal/tourney"
)

// Services are the club's services, one per area; every interface (the site, the commands) goes through them and
// never through the store. Each checks who may do what.
type Services struct {
	Clock       *Clock
	Accounts    *Accounts    // logins, sessions, sign-ups, passwords, profiles, members' statuses and roles
	Nights      *Nights      // club nights and registrations
	Games       *Games       // live games: the host's actions
	Records     *Records     // saved games: the history, the public record, the rating, players' pages
	Tournaments *Tournaments // tournaments, their seating, standings and protests
	Live        *Live        // games as spectators see them: the public view and the delayed broadcast
	Backups     *Backups     // copies of the database (SQLite), made from the site by an admin
	Notices     *Notices     // members' inboxes and e-mail settings; the outbox and the reminders
	Club        *Clubs       // the club's identity: its name, description, logo, links and defaults
	Telegram    *Telegram    // the club's bot and channel: members' links, the bot's buttons, the Telegram outbox
	Summaries   *Summaries   // the games of the club's old protocols: imported from summaries, deleted
	Heavy       *HeavyWork   // the club's share of the installation's heavy work (imports, backups)
}

// NewServices builds the services over a store, all on one clock. The backups folder is set apart
// (Services.Backups = NewBackups(...)): without it the site makes none.
func NewServices(store Store, clock *Clock) *Services {
	s := &Services{Clock: clock, Backups: NewBackups(store, clock, ""), Heavy: NewHeavyWork()}
	s.Accounts = newAccounts(store, clock)
	s.Nights = &Nights{store: store, clock: clock}
	s.Games = &Games{store: store, clock: clock}
	s.Tournaments = &Tournaments{store: store, games: s.Games, clock: clock}
	s.Games.tours = s.Tournaments
	s.Records = &Records{store: store, games: s.Games, clock: clock}
	s.Notices = &Notices{store: store, clock: clock, accounts: s.Accounts}
	s.Live = &Live{store: store, games: s.Games, clock: clock}
	s.Club = &Clubs{store: store, clock: clock}
	s.Telegram = &Telegram{store: store, clock: clock, nights: s.Nights}
	s.Summaries = &Summaries{store: store, clock: clock, clubs: s.Club}
	return s
}

// Records shows the saved games and what is built from them: the history, a game's public record, the club's
// rating and the players' pages. All of it is public; public pages show nicknames only.
type Records struct {
	store   Store
	games   *Games
	clock   *Clock
	club    clubCache
	leaders leadersCache // the club rating's lines, for the front door
}

// Public returns a game for its public page: once it has a result. A game is public from the moment it ends, not
// only once its host saves it, so that its players can read it and protest within the ten minutes (§T6.3.1);
// until then, it is not found.
func (r *Records) Public(ctx context.Context, id int64) (*State, error) {
	st, err := r.games.load(ctx, id)
	if err != nil {
		return nil, err
	}
	if st.Game.Status != GameSaved && !st.Play.Finished() {
		return nil, Errorf(NotFound, "no such game")
	}
	return st, nil
}

// History lists saved games, newest first, by the filter (its status is always saved).
func (r *Records) History(ctx context.Context, f GameFilter) ([]Game, error) {
	f.Status = GameSaved
	return r.store.Games(ctx, f)
}

// Player returns a player's public profile (his nickname and whether he has a photo; never his real name) and
// his results in saved games, oldest first.
func (r *Records) Player(ctx context.Context, id int64) (*Player, []GameResult, error) {
	pl, err := r.store.Player(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	res, err := r.store.PlayerResults(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	return &Player{ID: pl.ID, Nick: pl.Nick, HasPhoto: pl.HasPhoto}, res, nil
}

// List lists the tournaments: public.
func (s *Tournaments) List(ctx context.Context) ([]Tournament, error) {
	return s.store.Tournaments(ctx)
}

// Overview is a tournament's page: its participants, its stages with their judges and games.
type Overview struct {
	Tournament   *Tournament
	Participants []Participant
	Stages       []StageOverview
}

// StageOverview is a stage with the judges of its tables, its games and the seating generator's figures of its
// schedule as it stands (nil when they cannot be computed).
type StageOverview struct {
	Stage
	Judges  []TableJudge
	Games   []Game
	Quality *seating.Quality
}

// JudgeOf returns the judge of a table, 0 when none is named.
func (o StageOverview) JudgeOf(table int) int64 {
	for _, j := range o.Judges {
		if j.Table == table {
			return j.UserID
		}
	}
	return 0
}

// Stamp names everything a tournament's overview is read from, in one read: the same stamp, the same overview.
func (s *Tournaments) Stamp(ctx context.Context, id int64) (string, error) {
	return s.store.TournamentStamp(ctx, id)
}

// Overview returns a tournament's page: public.
func (s *Tournaments) Overview(ctx context.Context, id int64) (*Overview, error) {
	t, err := s.store.Tournament(ctx, id)
	if err != nil {
		return nil, err
	}
	o := &Overview{Tournament: t}
	if o.Participants, err = s.store.Participants(ctx, id); err != nil {
		return nil, err
	}
	stages, err := s.store.Stages(ctx, id)
	if err != nil {
		return nil, err
	}
	for _, st := range stages {
		so := StageOverview{Stage: st}
		if so.Judges, err = s.store.TableJudges(ctx, st.ID); err != nil {
			return nil, err
		}
		if so.Games, err = s.store.Games(ctx, GameFilter{StageID: st.ID, Limit: 500}); err != nil {
			return nil, err
		}
		if sched, _, err := restore(&st, o.Participants); err == nil {
			q := sched.Quality()
			so.Quality = &q
		}
		o.Stages = append(o.Stages, so)
	}
	return o, nil
}

// GameInfo is what a tournament game's pages add: its tournament and stage, the protests with their decisions,
// whether the viewer is the chief judge, and how long the viewer may still protest (0: he may not).
type GameInfo struct {
	Tournament *Tournament
	Stage      *Stage
	Protests   []StoredProtest
	IsChief    bool
	// ApprovesExtra: the viewer agrees to a winner's 0.6 or 0.7 in this game (the chief judge, or the organiser
	// in his place when he plays at its table).
	ApprovesExtra bool
	ProtestLeft   time.Duration
	// Number is the game's number in its tournament, as its protocol gives it (§P7.2.1, the game's sequence
	// number): the games of the earlier stages first, then round by round, table by table (round r at table t of
	// a stage of T tables is its (r-1)·T + t-th game), so that no two games of a tournament share it.
	Number int
}

// Info returns a tournament game's GameInfo for the viewer u (nil: the public); nil for a club game.
func (s *Tournaments) Info(ctx context.Context, u *User, st *State) (*GameInfo, error) {
	if st.Game.StageID == 0 {
		return nil, nil
	}
	stage, err := s.store.Stage(ctx, st.Game.StageID)
	if err != nil {
		return nil, err
	}
	t, err := s.store.Tournament(ctx, stage.TournamentID)
	if err != nil {
		return nil, err
	}
	info := &GameInfo{Tournament: t, Stage: stage, IsChief: u != nil && u.ID == t.ChiefJudge}
	if info.ApprovesExtra, err = s.mayApproveExtra(ctx, u, t, st.Game); err != nil {
		return nil, err
	}
	stages, err := s.store.Stages(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	for _, other := range stages {
		if other.ID == stage.ID {
			break
		}
		info.Number += other.Rounds * other.Tables()
	}
	info.Number += (st.Game.Round-1)*stage.Tables() + st.Game.TableNo
	if info.Protests, err = s.store.Protests(ctx, st.Game.ID); err != nil {
		return nil, err
	}
	if u == nil || u.PlayerID == 0 {
		return info, nil
	}
	end := gameEnd(st)
	if end.IsZero() {
		return info, nil
	}
	for _, seat := range st.Game.Seats {
		if seat.PlayerID == u.PlayerID {
			info.ProtestLeft = max(0, end.Add(tourney.ProtestWindow).Sub(s.now()))
		}
	}
	return info, nil
}
