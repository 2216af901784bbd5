package sqlstore

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"time"

	"mafiaclub/internal/club"
)

// CreateTournament adds a tournament.
func (db *DB) CreateTournament(ctx context.Context, t *club.Tournament) error {
	if t.CreatedAt.IsZero() {
		t.CreatedAt = db.now()
	}
	id, err := db.w.insert(ctx, `INSERT INTO tournaments (name, starts_on, ends_on, place, rules, chief_judge, created_by, lot_seed, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.Name, t.StartsOn, t.EndsOn, t.Place, t.Rules, t.ChiefJudge, t.CreatedBy, t.LotSeed, ms(t.CreatedAt))
	if err != nil {
		return translate(err, "tournament")
	}
	t.ID = id
	return nil
}

const tournamentCols = `t.id, t.name, t.starts_on, t.ends_on, t.place, t.rules, t.chief_judge, u.name, t.created_by, t.lot_seed, t.created_at`

func scanTournament(row interface{ Scan(...any) error }) (*club.Tournament, error) {
	var t club.Tournament
	var created int64
	if err := row.Scan(&t.ID, &t.Name, &t.StartsOn, &t.EndsOn, &t.Place, &t.Rules, &t.ChiefJudge, &t.ChiefName, &t.CreatedBy, &t.LotSeed, &created); err != nil {
		return nil, err
	}
	t.CreatedAt = fromMS(created)
	return &t, nil
}

// Tournament returns a tournament.
func (db *DB) Tournament(ctx context.Context, id int64) (*club.Tournament, error) {
	t, err := scanTournament(db.r.QueryRowContext(ctx, `SELECT `+tournamentCols+` FROM tournaments t JOIN users u ON u.id = t.chief_judge WHERE t.id = ?`, id))
	return t, translate(err, "tournament")
}

// Tournaments lists the tournaments, the latest first.
func (db *DB) Tournaments(ctx context.Context) ([]club.Tournament, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+tournamentCols+` FROM tournaments t JOIN users u ON u.id = t.chief_judge ORDER BY t.starts_on DESC, t.id DESC`)
	if err != nil {
		return nil, translate(err, "tournament")
	}
	defer rows.Close()
	var out []club.Tournament
	for rows.Next() {
		t, err := scanTournament(rows)
		if err != nil {
			return nil, translate(err, "tournament")
		}
		out = append(out, *t)
	}
	return out, translate(rows.Err(), "tournament")
}

// AddParticipant adds a player to a tournament; a name already there is a Conflict.
func (db *DB) AddParticipant(ctx context.Context, p *club.Participant) error {
	id, err := insertParticipant(ctx, db.w.handle(), p, db.now())
	if err != nil {
		return err
	}
	p.ID = id
	return nil
}

func insertParticipant(ctx context.Context, h handle, p *club.Participant, now time.Time) (int64, error) {
	var player, replaces any
	if p.PlayerID != 0 {
		player = p.PlayerID
	}
	if p.Replaces != 0 {
		replaces = p.Replaces
	}
	id, err := h.insert(ctx, `INSERT INTO tournament_players (tournament_id, player_id, name, approved, replaces, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		p.TournamentID, player, p.Name, p.Approved, replaces, ms(now))
	return id, translate(err, "participant "+p.Name)
}

// RemoveParticipant removes a participant who plays in no stage and filed no protest.
func (db *DB) RemoveParticipant(ctx context.Context, id int64) error {
	res, err := db.w.ExecContext(ctx, `DELETE FROM tournament_players WHERE id = ?`, id)
	if err != nil {
		return translate(err, "participant")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.NotFound, "no such participant")
	}
	return nil
}

// ReplaceParticipant adds sub in the place of the participant leaving, marks him as gone and stores the stages'
// new schedules, in one transaction.
func (db *DB) ReplaceParticipant(ctx context.Context, leaving int64, sub *club.Participant, stages []club.Stage) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "participant")
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE tournament_players SET left_tournament = 1 WHERE id = ? AND left_tournament = 0`, leaving)
	if err != nil {
		return translate(err, "participant")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.Conflict, "the player has left already")
	}
	sub.Replaces = leaving
	if sub.ID, err = insertParticipant(ctx, tx.handle, sub, db.now()); err != nil {
		return err
	}
	for i := range stages {
		st := &stages[i]
		for _, round := range st.Schedule {
			for _, table := range round {
				for j := range table {
					if table[j] == 0 {
						table[j] = sub.ID
					}
				}
			}
		}
		for _, out := range st.SitOut {
			for j := range out {
				if out[j] == 0 {
					out[j] = sub.ID
				}
			}
		}
		sched, _ := json.Marshal(st.Schedule)
		out, _ := json.Marshal(st.SitOut)
		if _, err := tx.ExecContext(ctx, `UPDATE tournament_stages SET schedule = ?, sit_out = ? WHERE id = ?`, string(sched), string(out), st.ID); err != nil {
			return translate(err, "stage")
		}
	}
	return translate(tx.Commit(), "participant")
}

// Participants lists a tournament's participants in the order they joined.
func (db *DB) Participants(ctx context.Context, tournamentID int64) ([]club.Participant, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT id, tournament_id, COALESCE(player_id, 0), name, approved, COALESCE(replaces, 0), left_tournament
		FROM tournament_players WHERE tournament_id = ? ORDER BY id`, tournamentID)
	if err != nil {
		return nil, translate(err, "participant")
	}
	defer rows.Close()
	var out []club.Participant
	for rows.Next() {
		var p club.Participant
		var approved, left int
		if err := rows.Scan(&p.ID, &p.TournamentID, &p.PlayerID, &p.Name, &approved, &p.Replaces, &left); err != nil {
			return nil, translate(err, "participant")
		}
		p.Approved, p.Left = approved == 1, left == 1
		out = append(out, p)
	}
	return out, translate(rows.Err(), "participant")
}

// ApproveParticipant approves a self-registration.
func (db *DB) ApproveParticipant(ctx context.Context, id int64) error {
	res, err := db.w.ExecContext(ctx, `UPDATE tournament_players SET approved = 1 WHERE id = ?`, id)
	if err != nil {
		return translate(err, "participant")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.NotFound, "no such participant")
	}
	return nil
}

// CreateStage adds a stage with its schedule.
func (db *DB) CreateStage(ctx context.Context, s *club.Stage) error {
	sched, err := json.Marshal(s.Schedule)
	if err != nil {
		return club.Errorf(club.Internal, "schedule: %v", err)
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = db.now()
	}
	players, _ := json.Marshal(s.Players)
	apart, _ := json.Marshal(s.Apart)
	sitOut, _ := json.Marshal(s.SitOut)
	id, err := db.w.insert(ctx, `INSERT INTO tournament_stages (tournament_id, name, rounds, per_table, seed, schedule, players, apart, sit_out, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.TournamentID, s.Name, s.Rounds, s.PerTable, s.Seed, string(sched), string(players), string(apart), string(sitOut), ms(s.CreatedAt))
	if err != nil {
		return translate(err, "stage")
	}
	s.ID = id
	return nil
}

func scanStage(row interface{ Scan(...any) error }) (*club.Stage, error) {
	var s club.Stage
	var sched, players, apart, sitOut string
	var created int64
	if err := row.Scan(&s.ID, &s.TournamentID, &s.Name, &s.Rounds, &s.PerTable, &s.Seed, &sched, &players, &apart, &sitOut, &created); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		text string
		dst  any
	}{{sched, &s.Schedule}, {players, &s.Players}, {apart, &s.Apart}, {sitOut, &s.SitOut}} {
		if err := json.Unmarshal([]byte(f.text), f.dst); err != nil {
			return nil, err
		}
	}
	s.CreatedAt = fromMS(created)
	return &s, nil
}

const stageCols = `id, tournament_id, name, rounds, per_table, seed, schedule, players, apart, sit_out, created_at`

// Stage returns a stage with its schedule.
func (db *DB) Stage(ctx context.Context, id int64) (*club.Stage, error) {
	s, err := scanStage(db.r.QueryRowContext(ctx, `SELECT `+stageCols+` FROM tournament_stages WHERE id = ?`, id))
	return s, translate(err, "stage")
}

// Stages lists a tournament's stages in order.
func (db *DB) Stages(ctx context.Context, tournamentID int64) ([]club.Stage, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+stageCols+` FROM tournament_stages WHERE tournament_id = ? ORDER BY id`, tournamentID)
	if err != nil {
		return nil, translate(err, "stage")
	}
	defer rows.Close()
	var out []club.Stage
	for rows.Next() {
		s, err := scanStage(rows)
		if err != nil {
			return nil, translate(err, "stage")
		}
		out = append(out, *s)
	}
	return out, translate(rows.Err(), "stage")
}

// SetSchedule replaces a stage's schedule and sit-outs (after a reseating, a manual swap, a substitute).
func (db *DB) SetSchedule(ctx context.Context, stageID int64, seed int64, schedule [][][]int64, sitOut [][]int64) error {
	sched, err := json.Marshal(schedule)
	if err != nil {
		return club.Errorf(club.Internal, "schedule: %v", err)
	}
	out, _ := json.Marshal(sitOut)
	_, err = db.w.ExecContext(ctx, `UPDATE tournament_stages SET seed = ?, schedule = ?, sit_out = ? WHERE id = ?`, seed, string(sched), string(out), stageID)
	return translate(err, "stage")
}

// SetTableJudge names the judge of a stage's table.
func (db *DB) SetTableJudge(ctx context.Context, stageID int64, table int, userID int64) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO tournament_judges (stage_id, table_no, user_id) VALUES (?, ?, ?)
		ON CONFLICT (stage_id, table_no) DO UPDATE SET user_id = excluded.user_id`, stageID, table, userID)
	return translate(err, "judge")
}

// TableJudges lists a stage's table judges by table.
func (db *DB) TableJudges(ctx context.Context, stageID int64) ([]club.TableJudge, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT j.stage_id, j.table_no, j.user_id, u.name FROM tournament_judges j JOIN users u ON u.id = j.user_id
		WHERE j.stage_id = ? ORDER BY j.table_no`, stageID)
	if err != nil {
		return nil, translate(err, "judge")
	}
	defer rows.Close()
	var out []club.TableJudge
	for rows.Next() {
		var j club.TableJudge
		if err := rows.Scan(&j.StageID, &j.Table, &j.UserID, &j.Name); err != nil {
			return nil, translate(err, "judge")
		}
		out = append(out, j)
	}
	return out, translate(rows.Err(), "judge")
}

// FileProtest stores a protest.
func (db *DB) FileProtest(ctx context.Context, p *club.StoredProtest) error {
	id, err := db.w.insert(ctx, `INSERT INTO protests (game_id, participant_id, matter, text, at) VALUES (?, ?, ?, ?, ?)`,
		p.GameID, p.ParticipantID, p.Matter, p.Text, ms(p.At))
	if err != nil {
		return translate(err, "protest")
	}
	p.ID = id
	return nil
}

// Protests lists a game's protests in the order they were filed.
func (db *DB) Protests(ctx context.Context, gameID int64) ([]club.StoredProtest, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT p.id, p.game_id, p.participant_id, tp.name, p.matter, p.text, p.at, p.decided,
		COALESCE(p.decided_by, 0), COALESCE(u.name, ''), COALESCE(p.decided_at, 0), p.upheld, p.reason
		FROM protests p JOIN tournament_players tp ON tp.id = p.participant_id LEFT JOIN users u ON u.id = p.decided_by
		WHERE p.game_id = ? ORDER BY p.id`, gameID)
	if err != nil {
		return nil, translate(err, "protest")
	}
	defer rows.Close()
	var out []club.StoredProtest
	for rows.Next() {
		var p club.StoredProtest
		var at, decidedAt int64
		var decided, upheld int
		if err := rows.Scan(&p.ID, &p.GameID, &p.ParticipantID, &p.Name, &p.Matter, &p.Text, &at, &decided, &p.DecidedBy, &p.DecidedByName, &decidedAt, &upheld, &p.Reason); err != nil {
			return nil, translate(err, "protest")
		}
		p.At, p.Decided, p.Upheld = fromMS(at), decided == 1, upheld == 1
		if decidedAt != 0 {
			p.DecidedAt = fromMS(decidedAt)
		}
		out = append(out, p)
	}
	return out, translate(rows.Err(), "protest")
}

// DecideProtest records a decision once: a decided protest is never decided again.
func (db *DB) DecideProtest(ctx context.Context, p *club.StoredProtest) error {
	res, err := db.w.ExecContext(ctx, `UPDATE protests SET decided = 1, decided_by = ?, decided_at = ?, upheld = ?, reason = ? WHERE id = ? AND decided = 0`,
		p.DecidedBy, ms(p.DecidedAt), p.Upheld, p.Reason, p.ID)
	if err != nil {
		return translate(err, "protest")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.Conflict, "the protest is decided already")
	}
	return nil
}

// ApproveExtra records the chief judge's agreement to a winner's 0.6-0.7 extra points (§T6.1.3).
func (db *DB) ApproveExtra(ctx context.Context, gameID int64, seat int, by int64, at time.Time) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO extra_approvals (game_id, seat, approved_by, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		gameID, seat, by, ms(at))
	return translate(err, "approval")
}

// ExtraApproved reports whether the chief judge agreed to a seat's high extra points.
func (db *DB) ExtraApproved(ctx context.Context, gameID int64, seat int) (bool, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM extra_approvals WHERE game_id = ? AND seat = ?`, gameID, seat).Scan(&n)
	return n > 0, translate(err, "approval")
}

// tournamentStampSQL reads, as one text per row, every row a tournament's overview is made of (the tournament
// and its chief judge's name, its participants, its stages, their judges, its stages' games with their versions,
// statuses and hosts' names), in one order, in both dialects. The stages' rows are found by their tournament's
// stages (games_stage): a join from the games would walk every game of the club.
const tournamentStampSQL = `
SELECT 't' AS k, CAST(t.id AS TEXT) || '|' || t.name || '|' || t.starts_on || '|' || t.ends_on || '|' || t.place || '|' || t.rules || '|' ||
	CAST(t.chief_judge AS TEXT) || '|' || u.name || '|' || CAST(t.lot_seed AS TEXT) AS v
	FROM tournaments t JOIN users u ON u.id = t.chief_judge WHERE t.id = ?
UNION ALL
SELECT 'p', CAST(p.id AS TEXT) || '|' || COALESCE(CAST(p.player_id AS TEXT), '') || '|' || p.name || '|' || CAST(p.approved AS TEXT) || '|' ||
	COALESCE(CAST(p.replaces AS TEXT), '') || '|' || CAST(p.left_tournament AS TEXT)
	FROM tournament_players p WHERE p.tournament_id = ?
UNION ALL
SELECT 's', CAST(s.id AS TEXT) || '|' || s.name || '|' || CAST(s.rounds AS TEXT) || '|' || CAST(s.per_table AS TEXT) || '|' ||
	CAST(s.seed AS TEXT) || '|' || s.schedule || '|' || s.players || '|' || s.apart || '|' || s.sit_out
	FROM tournament_stages s WHERE s.tournament_id = ?
UNION ALL
SELECT 'j', CAST(j.stage_id AS TEXT) || '|' || CAST(j.table_no AS TEXT) || '|' || CAST(j.user_id AS TEXT) || '|' || u.name
	FROM tournament_judges j JOIN users u ON u.id = j.user_id WHERE j.stage_id IN (SELECT id FROM tournament_stages WHERE tournament_id = ?)
UNION ALL
SELECT 'g', CAST(g.id AS TEXT) || '|' || CAST(g.version AS TEXT) || '|' || g.status || '|' || u.name
	FROM games g JOIN users u ON u.id = g.host_id WHERE g.stage_id IN (SELECT id FROM tournament_stages WHERE tournament_id = ?)
ORDER BY 1, 2`

// TournamentStamp is the SHA-256 of every row tournamentStampSQL reads.
func (db *DB) TournamentStamp(ctx context.Context, id int64) (string, error) {
	rows, err := db.r.QueryContext(ctx, tournamentStampSQL, id, id, id, id, id)
	if err != nil {
		return "", translate(err, "tournament")
	}
	defer rows.Close()
	h := sha256.New()
	found := false
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return "", translate(err, "tournament")
		}
		found = found || k == "t"
		h.Write([]byte(k))
		h.Write([]byte(v))
		h.Write([]byte{0})
	}
	if err := rows.Err(); err != nil {
		return "", translate(err, "tournament")
	}
	if !found {
		return "", club.Errorf(club.NotFound, "no such tournament")
	}
	return string(h.Sum(nil)), nil
}
