package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"mafiaclub/internal/club"
)

// clubID is the one club's row of club_profile.
const clubID = 1

// ClubProfile returns the club's identity; a club never set is club.NewClub().
func (db *DB) ClubProfile(ctx context.Context) (*club.Club, error) {
	c := club.NewClub()
	var names string
	var extras int
	var updated int64
	err := db.r.QueryRowContext(ctx, `SELECT name, names, city, description, site, telegram, instagram, youtube, rules, club_extras,
		logo, logo_type, updated_at FROM club_profile WHERE id = ?`, clubID).Scan(&c.Name, &names, &c.City, &c.Description, &c.Site,
		&c.Telegram, &c.Instagram, &c.YouTube, &c.Rules, &extras, &c.Logo, &c.LogoType, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return c, nil
	}
	if err != nil {
		return nil, translate(err, "club")
	}
	if err := json.Unmarshal([]byte(names), &c.Names); err != nil {
		return nil, &club.Error{Code: club.Internal, Message: "the club's names", Cause: err}
	}
	c.ClubExtras = extras != 0
	if updated != 0 {
		c.Updated = fromMS(updated)
	}
	if len(c.Logo) == 0 {
		c.Logo = nil
	}
	return c, nil
}

// SetClubProfile stores the club's identity in place of the one stored.
func (db *DB) SetClubProfile(ctx context.Context, c *club.Club) error {
	names := []byte("{}")
	if len(c.Names) > 0 {
		var err error
		if names, err = json.Marshal(c.Names); err != nil {
			return &club.Error{Code: club.Internal, Message: "the club's names", Cause: err}
		}
	}
	extras := 0
	if c.ClubExtras {
		extras = 1
	}
	var logo any
	if len(c.Logo) > 0 {
		logo = c.Logo
	}
	var updated int64
	if !c.Updated.IsZero() {
		updated = ms(c.Updated)
	}
	return db.inTx(ctx, "club", func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM club_profile WHERE id = ?`, clubID); err != nil {
			return translate(err, "club")
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO club_profile (id, name, names, city, description, site, telegram, instagram, youtube,
			rules, club_extras, logo, logo_type, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, clubID, c.Name, string(names),
			c.City, c.Description, c.Site, c.Telegram, c.Instagram, c.YouTube, c.Rules, extras, logo, c.LogoType, updated)
		return translate(err, "club")
	})
}
