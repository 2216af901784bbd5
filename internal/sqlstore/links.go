package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"mafiaclub/internal/club"
)

// CreateAccountLink keeps a one-time link's hashes, dropping the links expired at its creation.
func (db *DB) CreateAccountLink(ctx context.Context, l club.AccountLink) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "account link")
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM account_links WHERE expires_at <= ?`, ms(l.CreatedAt)); err != nil {
		return translate(err, "account link")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO account_links (token_hash, purpose, user_id, device_hash, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?)`, l.TokenHash, string(l.Purpose), l.UserID, l.DeviceHash, ms(l.CreatedAt), ms(l.Expires)); err != nil {
		return translate(err, "account link")
	}
	return translate(tx.Commit(), "account link")
}

// UseAccountLink uses a link up: the DELETE that finds it takes it (and, on PostgreSQL, its row lock), so two uses
// at once never both succeed. A link of another browser does not match, and stays.
func (db *DB) UseAccountLink(ctx context.Context, tokenHash []byte, purpose club.LinkPurpose, deviceHash []byte, now time.Time) (int64, error) {
	var userID int64
	err := db.w.QueryRowContext(ctx, `DELETE FROM account_links WHERE token_hash = ? AND purpose = ? AND device_hash = ? AND expires_at > ?
		RETURNING user_id`, tokenHash, string(purpose), deviceHash, ms(now)).Scan(&userID)
	if err == sql.ErrNoRows {
		return 0, club.Errorf(club.NotFound, "no such link")
	}
	return userID, translate(err, "account link")
}

// ConfirmedEmail returns a member's e-mail address when it is confirmed, "" otherwise.
func (db *DB) ConfirmedEmail(ctx context.Context, userID int64) (string, error) {
	var addr string
	err := db.r.QueryRowContext(ctx, `SELECT CASE WHEN email = email_confirmed THEN email ELSE '' END FROM users WHERE id = ?`, userID).Scan(&addr)
	return addr, translate(err, "member")
}

// ConfirmEmail confirms a member's address, if it is still his.
func (db *DB) ConfirmEmail(ctx context.Context, userID int64, address string) error {
	res, err := db.w.ExecContext(ctx, `UPDATE users SET email_confirmed = email WHERE id = ? AND email = ? AND email != ''`, userID, address)
	if err != nil {
		return translate(err, "member")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.NotFound, "the address is no longer the member's")
	}
	return nil
}
