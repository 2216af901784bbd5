package sqlstore

import (
	"context"
	"database/sql"
	"strings"

	"mafiaclub/internal/club"
)

// ImportSummaries files summary games in one transaction (club.SummaryStore): each as a saved game with its seats,
// facts and results; the ratings in step, with one Elo pass per rule set from its earliest new game; the import
// logged. A game whose source the history has is skipped.
func (db *DB) ImportSummaries(ctx context.Context, entry club.SummaryLogEntry, games []club.StoredSummary) ([]int64, error) {
	var ids []int64
	err := db.inTx(ctx, "summary", func(tx *txn) error {
		if err := bumpRating(ctx, tx); err != nil { // the ratings' lock first: the imports and saves take turns
			return err
		}
		ids = ids[:0]
		var fresh []club.StoredSummary
		for _, s := range games {
			var id int64
			err := tx.QueryRowContext(ctx, `SELECT id FROM games WHERE source = ?`, s.Game.Source).Scan(&id)
			switch {
			case err == nil:
				entry.Skipped++
				continue
			case err != sql.ErrNoRows:
				return translate(err, "game")
			}
			fresh = append(fresh, s)
		}
		entry.Games = len(fresh)
		logID, err := tx.insert(ctx, `INSERT INTO summary_log (at, by_user, action, file, digest, games, skipped, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			ms(entry.At), entry.By, entry.Action, entry.File, entry.Digest, entry.Games, entry.Skipped, entry.Detail)
		if err != nil {
			return translate(err, "summary log")
		}
		due := map[string]*eloDue{}
		var order []string
		for _, s := range fresh {
			g := *s.Game
			g.Status = club.GameLive
			if err := createGame(ctx, tx, &g); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE games SET status = ?, winner = ?, saved_at = ?, version = 1 WHERE id = ?`,
				string(club.GameSaved), s.Winner, ms(entry.At), g.ID); err != nil {
				return translate(err, "game")
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO game_summaries (game_id, log_id, facts, digest) VALUES (?, ?, ?, ?)`,
				g.ID, logID, string(s.Facts), s.Digest); err != nil {
				return translate(err, "summary")
			}
			if err := audit(ctx, tx, g.ID, club.AuditEntry{At: entry.At, By: entry.By, Action: "import_summary", Detail: entry.File}); err != nil {
				return err
			}
			results := make([]club.GameResult, len(s.Results))
			copy(results, s.Results)
			for i := range results {
				results[i].GameID = g.ID
			}
			passes, err := replaceResults(ctx, tx, g.ID, nil, results, s.Winner)
			if err != nil {
				return err
			}
			for _, p := range passes {
				d := due[p.rules]
				if d == nil {
					d = &eloDue{rules: p.rules, from: p.from, dirty: map[int64]bool{}}
					due[p.rules] = d
					order = append(order, p.rules)
				}
				if p.from.before(d.from) {
					d.from = p.from
				}
				for pl := range p.dirty {
					d.dirty[pl] = true
				}
			}
			ids = append(ids, g.ID)
		}
		for _, rules := range order {
			d := due[rules]
			if err := eloPass(ctx, tx, d.rules, d.from, d.dirty); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// KnownSummaries returns which of the sources the history has, with their games and facts' digests.
func (db *DB) KnownSummaries(ctx context.Context, sources []string) (map[string]club.KnownSummary, error) {
	out := map[string]club.KnownSummary{}
	for len(sources) > 0 {
		chunk := sources[:min(len(sources), 500)]
		sources = sources[len(chunk):]
		args := make([]any, len(chunk))
		for i, s := range chunk {
			args[i] = s
		}
		rows, err := db.r.QueryContext(ctx, `SELECT g.source, g.id, COALESCE(s.digest, '') FROM games g LEFT JOIN game_summaries s ON s.game_id = g.id
			WHERE g.source IN (?`+strings.Repeat(", ?", len(chunk)-1)+`)`, args...)
		if err != nil {
			return nil, translate(err, "summary")
		}
		for rows.Next() {
			var src string
			var k club.KnownSummary
			if err := rows.Scan(&src, &k.GameID, &k.Digest); err != nil {
				rows.Close()
				return nil, translate(err, "summary")
			}
			out[src] = k
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, translate(err, "summary")
		}
	}
	return out, nil
}

// GameSummary returns a summary game's facts.
func (db *DB) GameSummary(ctx context.Context, gameID int64) ([]byte, error) {
	var facts string
	if err := db.r.QueryRowContext(ctx, `SELECT facts FROM game_summaries WHERE game_id = ?`, gameID).Scan(&facts); err != nil {
		return nil, translate(err, "summary")
	}
	return []byte(facts), nil
}

// DeleteSummary removes a summary game, its results leaving the ratings (the Elo from its date on), and logs it.
func (db *DB) DeleteSummary(ctx context.Context, gameID int64, entry club.SummaryLogEntry) error {
	return db.inTx(ctx, "summary", func(tx *txn) error {
		if err := bumpRating(ctx, tx); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM game_summaries WHERE game_id = ?`, gameID).Scan(&n); err != nil {
			return translate(err, "summary")
		}
		if n == 0 {
			return club.Errorf(club.NotFound, "no such game from an old protocol")
		}
		old, err := gameResults(ctx, tx, `game_id = ?`, gameID)
		if err != nil {
			return err
		}
		if err := changeResults(ctx, tx, gameID, old, nil, ""); err != nil {
			return err
		}
		for _, table := range []string{"game_summaries", "game_audit", "game_seats", "game_events", "action_keys", "game_broadcast", "protests", "extra_approvals"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE game_id = ?`, gameID); err != nil {
				return translate(err, "summary")
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id = ?`, gameID); err != nil {
			return translate(err, "game")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO summary_log (at, by_user, action, file, digest, games, skipped, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			ms(entry.At), entry.By, entry.Action, entry.File, entry.Digest, entry.Games, entry.Skipped, entry.Detail)
		return translate(err, "summary log")
	})
}

// SummaryLog lists the imports and deletions of summaries, newest first.
func (db *DB) SummaryLog(ctx context.Context, limit int) ([]club.SummaryLogEntry, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT l.id, l.at, l.by_user, u.name, l.action, l.file, l.digest, l.games, l.skipped, l.detail
		FROM summary_log l JOIN users u ON u.id = l.by_user ORDER BY l.id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, translate(err, "summary log")
	}
	defer rows.Close()
	var out []club.SummaryLogEntry
	for rows.Next() {
		var e club.SummaryLogEntry
		var at int64
		if err := rows.Scan(&e.ID, &at, &e.By, &e.ByName, &e.Action, &e.File, &e.Digest, &e.Games, &e.Skipped, &e.Detail); err != nil {
			return nil, translate(err, "summary log")
		}
		e.At = fromMS(at)
		out = append(out, e)
	}
	return out, translate(rows.Err(), "summary log")
}
