package sqlstore

import (
	"context"

	"mafiaclub/internal/club"
)

// SetSeats replaces a live game's seats at version (cards, names, player profiles) and logs it, in one transaction:
// the version is raised first, so that a stale one changes nothing. A log given replaces the game's log.
func (db *DB) SetSeats(ctx context.Context, gameID, version int64, seats []club.Seat, log []club.StoredEvent, a club.AuditEntry) error {
	return db.inTx(ctx, "game", func(tx *txn) error {
		if err := bump(ctx, tx, gameID, version, 0, club.GameLive); err != nil {
			return err
		}
		for _, s := range seats {
			var player any
			if s.PlayerID != 0 {
				player = s.PlayerID
			}
			res, err := tx.ExecContext(ctx, `UPDATE game_seats SET role = ?, name = ?, player_id = ? WHERE game_id = ? AND seat = ?`,
				s.Role, s.Name, player, gameID, s.Seat)
			if err != nil {
				return translate(err, "seat")
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return club.Errorf(club.NotFound, "the game has no seat %d", s.Seat)
			}
		}
		if log != nil {
			if _, err := tx.ExecContext(ctx, `DELETE FROM game_events WHERE game_id = ?`, gameID); err != nil {
				return translate(err, "event")
			}
			for _, e := range log {
				if _, err := tx.ExecContext(ctx, `INSERT INTO game_events (game_id, seq, event, at, by_user) VALUES (?, ?, ?, ?, ?)`,
					gameID, e.Seq, string(e.JSON), ms(e.At), e.By); err != nil {
					return translate(err, "event")
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE games SET events = ? WHERE id = ?`, len(log), gameID); err != nil {
				return translate(err, "game")
			}
		}
		return audit(ctx, tx, gameID, a)
	})
}
