package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"mafiaclub/internal/club"
)

// CreateUser adds an account.
func (db *DB) CreateUser(ctx context.Context, u *club.User) error {
	if u.CreatedAt.IsZero() {
		u.CreatedAt = db.now()
	}
	var player any
	if u.PlayerID != 0 {
		player = u.PlayerID
	}
	if u.Status == "" {
		u.Status = club.StatusActive
	}
	id, err := db.w.insert(ctx, `INSERT INTO users (login, name, role, password_hash, player_id, lang, status, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, u.Login, u.Name, string(u.Role), u.PasswordHash, player, u.Lang, string(u.Status), ms(u.CreatedAt))
	if err != nil {
		return translate(err, "login "+u.Login)
	}
	u.ID = id
	return nil
}

const userCols = `id, login, name, role, password_hash, COALESCE(player_id, 0), lang, status, created_at`

func scanUser(row interface{ Scan(...any) error }) (*club.User, error) {
	var u club.User
	var role, status string
	var created int64
	if err := row.Scan(&u.ID, &u.Login, &u.Name, &role, &u.PasswordHash, &u.PlayerID, &u.Lang, &status, &created); err != nil {
		return nil, err
	}
	u.Role, u.Status, u.CreatedAt = club.Role(role), club.MemberStatus(status), fromMS(created)
	return &u, nil
}

// UserByLogin finds an account by its login, ignoring case (by lower(login): PostgreSQL's unique index is on it;
// on SQLite, whose lower() folds ASCII letters only, this is the same as the column's NOCASE).
func (db *DB) UserByLogin(ctx context.Context, login string) (*club.User, error) {
	u, err := scanUser(db.r.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE lower(login) = lower(?)`, strings.TrimSpace(login)))
	return u, translate(err, "user")
}

// User finds an account by id.
func (db *DB) User(ctx context.Context, id int64) (*club.User, error) {
	u, err := scanUser(db.r.QueryRowContext(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
	return u, translate(err, "user")
}

// Users lists every account by login, ignoring case.
func (db *DB) Users(ctx context.Context) ([]club.User, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+userCols+` FROM users ORDER BY lower(login)`)
	if err != nil {
		return nil, translate(err, "user")
	}
	defer rows.Close()
	var out []club.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, translate(err, "user")
		}
		out = append(out, *u)
	}
	return out, translate(rows.Err(), "user")
}

// SetUserLang remembers an account's language.
func (db *DB) SetUserLang(ctx context.Context, id int64, lang string) error {
	_, err := db.w.ExecContext(ctx, `UPDATE users SET lang = ? WHERE id = ?`, lang, id)
	return translate(err, "user")
}

// CreateSession stores a session by the hash of its token.
func (db *DB) CreateSession(ctx context.Context, tokenHash []byte, userID int64, expires time.Time) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (?, ?, ?)`, tokenHash, userID, ms(expires))
	return translate(err, "session")
}

// SessionUser returns the account of an unexpired session.
func (db *DB) SessionUser(ctx context.Context, tokenHash []byte, now time.Time) (*club.User, error) {
	u, err := scanUser(db.r.QueryRowContext(ctx, `SELECT u.id, u.login, u.name, u.role, u.password_hash, COALESCE(u.player_id, 0), u.lang, u.status, u.created_at
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND s.expires_at > ?`, tokenHash, ms(now)))
	if err == sql.ErrNoRows {
		return nil, club.Errorf(club.Unauthorized, "the session has ended; log in again")
	}
	return u, translate(err, "session")
}

// DeleteSession ends a session.
func (db *DB) DeleteSession(ctx context.Context, tokenHash []byte) error {
	_, err := db.w.ExecContext(ctx, `DELETE FROM sessions WHERE token_hash = ?`, tokenHash)
	return translate(err, "session")
}

// CreatePlayer adds a player profile.
func (db *DB) CreatePlayer(ctx context.Context, p *club.Player) error {
	if p.CreatedAt.IsZero() {
		p.CreatedAt = db.now()
	}
	id, err := db.w.insert(ctx, `INSERT INTO players (nick, nick_key, real_name, created_at) VALUES (?, ?, ?, ?)`, p.Nick, nickKey(p.Nick), p.RealName, ms(p.CreatedAt))
	if err != nil {
		return translate(err, "player")
	}
	p.ID = id
	return nil
}

// Player finds a player by id.
func (db *DB) Player(ctx context.Context, id int64) (*club.Player, error) {
	var p club.Player
	var created int64
	err := db.r.QueryRowContext(ctx, `SELECT id, nick, real_name, photo IS NOT NULL, created_at FROM players WHERE id = ?`, id).Scan(&p.ID, &p.Nick, &p.RealName, &p.HasPhoto, &created)
	p.CreatedAt = fromMS(created)
	return &p, translate(err, "player")
}

// UpdatePlayer changes a profile's nickname and real name.
// The ratings' version is raised with it: the rating pages show nicknames, and a page a reader holds (its ETag)
// must not outlive a change of one.
func (db *DB) UpdatePlayer(ctx context.Context, p *club.Player) error {
	return db.inTx(ctx, "player", func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE players SET nick = ?, nick_key = ?, real_name = ? WHERE id = ?`, p.Nick, nickKey(p.Nick), p.RealName, p.ID)
		if err != nil {
			return translate(err, "player")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return club.Errorf(club.NotFound, "no such player")
		}
		return bumpRating(ctx, tx)
	})
}

// SetPlayerPhoto stores or removes a profile's photo. The ratings' version is raised with it, as with a changed
// nickname: a player's page shows his photo, and is kept (and tagged) by that version.
func (db *DB) SetPlayerPhoto(ctx context.Context, playerID int64, photo []byte, contentType string) error {
	var v any
	if photo != nil {
		v = photo
	}
	return db.inTx(ctx, "player", func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE players SET photo = ?, photo_type = ? WHERE id = ?`, v, contentType, playerID)
		if err != nil {
			return translate(err, "player")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return club.Errorf(club.NotFound, "no such player")
		}
		return bumpRating(ctx, tx)
	})
}

// PlayerPhoto reads a profile's photo and its content type; a profile without one is NotFound.
func (db *DB) PlayerPhoto(ctx context.Context, playerID int64) ([]byte, string, error) {
	var photo []byte
	var ct string
	err := db.r.QueryRowContext(ctx, `SELECT photo, photo_type FROM players WHERE id = ? AND photo IS NOT NULL`, playerID).Scan(&photo, &ct)
	return photo, ct, translate(err, "photo")
}

// SearchPlayers finds players whose nickname contains query (any case), nicknames that start with it first.
func (db *DB) SearchPlayers(ctx context.Context, query string, limit int) ([]club.Player, error) {
	if limit <= 0 || limit > 200 {
		limit = 50
	}
	q := nickKey(query)
	like := "%" + escapeLike(q) + "%"
	rows, err := db.r.QueryContext(ctx, `SELECT id, nick, real_name, created_at FROM players
		WHERE nick_key LIKE ? ESCAPE '\'
		AND NOT EXISTS (SELECT 1 FROM users u WHERE u.player_id = players.id AND u.status IN ('pending', 'excluded')) ORDER BY (nick_key LIKE ? ESCAPE '\') DESC, nick_key LIMIT ?`, like, escapeLike(q)+"%", limit)
	if err != nil {
		return nil, translate(err, "player")
	}
	defer rows.Close()
	var out []club.Player
	for rows.Next() {
		var p club.Player
		var created int64
		if err := rows.Scan(&p.ID, &p.Nick, &p.RealName, &created); err != nil {
			return nil, translate(err, "player")
		}
		p.CreatedAt = fromMS(created)
		out = append(out, p)
	}
	return out, translate(rows.Err(), "player")
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// nickKey is the form in which nicknames are compared: trimmed and folded to lower case by Go, so that "Анна" and
// "анна" are one nickname on SQLite as on PostgreSQL.
func nickKey(nick string) string { return club.NickKey(nick) }

// PlayerByNick finds the player with this nickname, ignoring case; NotFound when there is none.
func (db *DB) PlayerByNick(ctx context.Context, nick string) (*club.Player, error) {
	var p club.Player
	var created int64
	err := db.r.QueryRowContext(ctx, `SELECT id, nick, real_name, photo IS NOT NULL, created_at FROM players WHERE nick_key = ?`, nickKey(nick)).
		Scan(&p.ID, &p.Nick, &p.RealName, &p.HasPhoto, &created)
	p.CreatedAt = fromMS(created)
	return &p, translate(err, "player")
}

// fillNickKeys gives the players of an older database their nickname keys.
func (db *DB) fillNickKeys(ctx context.Context) error {
	rows, err := db.w.QueryContext(ctx, `SELECT id, nick FROM players WHERE nick_key IS NULL`)
	if err != nil {
		return err
	}
	type row struct {
		id   int64
		nick string
	}
	var todo []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.nick); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, r)
	}
	rows.Close()
	for _, r := range todo {
		if _, err := db.w.ExecContext(ctx, `UPDATE players SET nick_key = ? WHERE id = ?`, nickKey(r.nick), r.id); err != nil {
			return fmt.Errorf("player %d (%q): %w", r.id, r.nick, err)
		}
	}
	return nil
}

// SetPassword replaces an account's password hash and ends its other sessions, in one transaction.
func (db *DB) SetPassword(ctx context.Context, id int64, hash string, keepSession []byte) error {
	return db.inTx(ctx, "user", func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, hash, id)
		if err != nil {
			return translate(err, "user")
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return club.Errorf(club.NotFound, "no such user")
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ? AND token_hash != ?`, id, keepSession)
		return translate(err, "session")
	})
}
