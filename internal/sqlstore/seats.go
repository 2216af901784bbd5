package sqlstore

import (
	"context"

	"mafiaclub/internal/club"
)

// SetSeats replaces a live game's seats at version (cards, names, player profiles) and logs it, in one transaction:
// the version is raised first, so that a stale one changes nothing.
func (db *DB) SetSeats(ctx context.Context, gameID, version int64, seats []club.Seat, a club.AuditEntry) error {
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
		return audit(ctx, tx, gameID, a)
	})
}
