package club

import (
	"context"
	"mafiaclub/mafia"
	"time"
)

// Tournament is a tournament: its rule set (fiim-xcraft by default), its chief judge and the seed of its lot
// (seed 002 §T6.2.4: the lot is drawn from it, so it can be repeated).
type Tournament struct {
	ID         int64
	Name       string
	StartsOn   string // YYYY-MM-DD in the club's time zone
	EndsOn     string
	Place      string
	Rules      string
	ChiefJudge int64
	ChiefName  string
	CreatedBy  int64
	LotSeed    int64
	CreatedAt  time.Time
}

// Participant is a player of a tournament: a club player (PlayerID) or a guest; self-registrations wait for the
// organiser's approval.
type Participant struct {
	ID           int64
	TournamentID int64
	PlayerID     int64
	Name         string
	Approved     bool
	// Replaces is the participant this one took the place of mid-tournament (0: none); his games stay his. Left
	// is set on a participant who left and was replaced: he plays no more.
	Replaces int64
	Left     bool
}

// Stage is a part of a tournament (qualifying rounds, a final) with its seating: Schedule[round][table][seat] is
// a participant's id, seats in order, and SitOut[round] the participants who sit the round out (none when the
// players fill the tables; a stage seated before sit-outs existed has no list at all).
type Stage struct {
	ID           int64
	TournamentID int64
	Name         string
	Rounds       int
	PerTable     int
	Seed         int64
	Schedule     [][][]int64
	SitOut       [][]int64
	Players      []int64    // the participants in the order the generator got them
	Apart        [][2]int64 // the pairs of participants kept apart
	CreatedAt    time.Time
}

// Tables is the number of tables of the stage.
func (s Stage) Tables() int {
	if len(s.Schedule) == 0 {
		return 0
	}
	return len(s.Schedule[0])
}

// SitsOut returns the participants who sit out a round (from 1), none when all play.
func (s Stage) SitsOut(round int) []int64 {
	if round < 1 || round > len(s.SitOut) {
		return nil
	}
	return s.SitOut[round-1]
}

// TableJudge is the judge (host) of one table of a stage.
type TableJudge struct {
	StageID int64
	Table   int
	UserID  int64
	Name    string
}

// StoredProtest is a protest as stored, with the chief judge's decision once made (§T6.3).
type StoredProtest struct {
	ID            int64
	GameID        int64
	ParticipantID int64
	Name          string
	Matter        string
	Text          string
	At            time.Time
	Decided       bool
	DecidedBy     int64
	DecidedByName string
	DecidedAt     time.Time
	Upheld        bool
	Reason        string
}

// TournamentStore is the storage of tournaments, part of the Store contract.
type TournamentStore interface {
	CreateTournament(ctx context.Context, t *Tournament) error
	Tournament(ctx context.Context, id int64) (*Tournament, error)
	Tournaments(ctx context.Context) ([]Tournament, error)
	AddParticipant(ctx context.Context, p *Participant) error
	Participants(ctx context.Context, tournamentID int64) ([]Participant, error)
	ApproveParticipant(ctx context.Context, id int64) error
	// RemoveParticipant removes a participant; NotFound when there is none.
	RemoveParticipant(ctx context.Context, id int64) error
	// ReplaceParticipant adds sub (approved) in the place of the participant leaving and marks him as gone, and
	// stores the stages' schedules and sit-outs with sub in every place that holds 0, all in one transaction; a
	// participant who has left already is a Conflict.
	ReplaceParticipant(ctx context.Context, leaving int64, sub *Participant, stages []Stage) error
	CreateStage(ctx context.Context, s *Stage) error
	Stage(ctx context.Context, id int64) (*Stage, error)
	Stages(ctx context.Context, tournamentID int64) ([]Stage, error)
	// SetSchedule replaces a stage's seed, schedule and sit-outs (a reseating, a swap, a substitute).
	SetSchedule(ctx context.Context, stageID int64, seed int64, schedule [][][]int64, sitOut [][]int64) error
	SetTableJudge(ctx context.Context, stageID int64, table int, userID int64) error
	TableJudges(ctx context.Context, stageID int64) ([]TableJudge, error)
	// TournamentStamp names, in one read, everything a tournament's overview is read from: the tournament with
	// its chief judge's name, its participants, its stages, their judges with their names, and its stages' games
	// with their versions, statuses and hosts' names. Any change to any of them changes it (NotFound: no such
	// tournament).
	TournamentStamp(ctx context.Context, id int64) (string, error)
	FileProtest(ctx context.Context, p *StoredProtest) error
	Protests(ctx context.Context, gameID int64) ([]StoredProtest, error)
	DecideProtest(ctx context.Context, p *StoredProtest) error
	ApproveExtra(ctx context.Context, gameID int64, seat int, by int64, at time.Time) error
	ExtraApproved(ctx context.Context, gameID int64, seat int) (bool, error)
}

// DefaultTournamentRules is the rule set a tournament gets when the organiser names none: the first with
// tournament points (X-Craft §8.2-§8.3, §T6.1), asked of the engine rather than named.
var DefaultTournamentRules = func() string {
	for _, rs := range mafia.RuleSets() {
		if rs.Points == mafia.PointsXCraft {
			return rs.ID
		}
	}
	return ClubRules
}()
