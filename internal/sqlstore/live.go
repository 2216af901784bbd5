package sqlstore

import (
	"context"
	"database/sql"
	"errors"
)

// GameBroadcast returns a game's own broadcast delay in minutes; set is false when the game follows the club's
// default.
func (db *DB) GameBroadcast(ctx context.Context, gameID int64) (minutes int, set bool, err error) {
	err = db.r.QueryRowContext(ctx, `SELECT delay_minutes FROM game_broadcast WHERE game_id = ?`, gameID).Scan(&minutes)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, translate(err, "game")
	}
	return minutes, true, nil
}

// SetGameBroadcast sets a game's own broadcast delay (0: none for this game), or with set false lets the game
// follow the club's default again.
func (db *DB) SetGameBroadcast(ctx context.Context, gameID int64, minutes int, set bool) error {
	return db.inTx(ctx, "game", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM game_broadcast WHERE game_id = ?`, gameID); err != nil {
			return translate(err, "game")
		}
		if !set {
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO game_broadcast (game_id, delay_minutes) VALUES (?, ?)`, gameID, minutes)
		return translate(err, "game")
	})
}

// Setting returns a club setting; ok is false when it was never set.
func (db *DB) Setting(ctx context.Context, name string) (value string, ok bool, err error) {
	err = db.r.QueryRowContext(ctx, `SELECT value FROM club_settings WHERE name = ?`, name).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, translate(err, "setting")
	}
	return value, true, nil
}

// SetSetting sets a club setting.
func (db *DB) SetSetting(ctx context.Context, name, value string) error {
	return db.inTx(ctx, "setting", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM club_settings WHERE name = ?`, name); err != nil {
			return translate(err, "setting")
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO club_settings (name, value) VALUES (?, ?)`, name, value)
		return translate(err, "setting")
	})
}
