package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"mafiaclub/internal/club"
)

var _ club.PersonStore = (*DB)(nil)

// CreatePerson adds a person (club.PersonStore); a login taken, ignoring case, is a Conflict.
func (db *DB) CreatePerson(ctx context.Context, p *club.Person) error {
	if p.CreatedAt.IsZero() {
		p.CreatedAt = db.now()
	}
	id, err := db.w.insert(ctx, `INSERT INTO persons (login, password_hash, created_at) VALUES (?, ?, ?)`,
		strings.TrimSpace(p.Login), p.PasswordHash, ms(p.CreatedAt))
	if err != nil {
		return translate(err, "person")
	}
	p.ID = id
	return nil
}

const personCols = `id, login, password_hash, created_at`

func scanPerson(row interface{ Scan(...any) error }) (*club.Person, error) {
	var p club.Person
	var created int64
	if err := row.Scan(&p.ID, &p.Login, &p.PasswordHash, &created); err != nil {
		return nil, err
	}
	p.CreatedAt = fromMS(created)
	return &p, nil
}

// PersonByLogin finds a person by login, ignoring case (as UserByLogin).
func (db *DB) PersonByLogin(ctx context.Context, login string) (*club.Person, error) {
	p, err := scanPerson(db.r.QueryRowContext(ctx, `SELECT `+personCols+` FROM persons WHERE lower(login) = lower(?)`, strings.TrimSpace(login)))
	return p, translate(err, "person")
}

// DeletePerson removes a person with his sessions and memberships (not his accounts in the clubs' stores).
func (db *DB) DeletePerson(ctx context.Context, id int64) error {
	_, err := db.w.ExecContext(ctx, `DELETE FROM persons WHERE id = ?`, id)
	return translate(err, "person")
}

// CreatePersonSession stores a person's session by the hash of its token.
func (db *DB) CreatePersonSession(ctx context.Context, tokenHash []byte, personID int64, expires time.Time) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO person_sessions (token_hash, person_id, expires_at) VALUES (?, ?, ?)`, tokenHash, personID, ms(expires))
	return translate(err, "session")
}

// SessionPerson returns the person of an unexpired session.
func (db *DB) SessionPerson(ctx context.Context, tokenHash []byte, now time.Time) (*club.Person, error) {
	p, err := scanPerson(db.r.QueryRowContext(ctx, `SELECT p.id, p.login, p.password_hash, p.created_at
		FROM person_sessions s JOIN persons p ON p.id = s.person_id WHERE s.token_hash = ? AND s.expires_at > ?`, tokenHash, ms(now)))
	if err == sql.ErrNoRows {
		return nil, club.Errorf(club.Unauthorized, "the session has ended; log in again")
	}
	return p, translate(err, "session")
}

// DeletePersonSession ends a person's session.
func (db *DB) DeletePersonSession(ctx context.Context, tokenHash []byte) error {
	_, err := db.w.ExecContext(ctx, `DELETE FROM person_sessions WHERE token_hash = ?`, tokenHash)
	return translate(err, "session")
}

// AddMembership links a person to his account in a club: a second membership of his in the club, or a club's
// account another person has already, is a Conflict.
func (db *DB) AddMembership(ctx context.Context, m *club.Membership) error {
	if m.CreatedAt.IsZero() {
		m.CreatedAt = db.now()
	}
	_, err := db.w.ExecContext(ctx, `INSERT INTO person_clubs (person_id, club, user_id, created_at) VALUES (?, ?, ?, ?)`,
		m.PersonID, m.Club, m.UserID, ms(m.CreatedAt))
	return translate(err, "membership")
}

// DropClubMemberships removes every membership in a club: the club leaves the installation, and a club made later
// under its slug has other accounts.
func (db *DB) DropClubMemberships(ctx context.Context, slug string) error {
	_, err := db.w.ExecContext(ctx, `DELETE FROM person_clubs WHERE club = ?`, slug)
	return translate(err, "membership")
}

// Memberships lists a person's memberships, the installation's own club ("") first, then by slug.
func (db *DB) Memberships(ctx context.Context, personID int64) ([]club.Membership, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT person_id, club, user_id, created_at FROM person_clubs WHERE person_id = ? ORDER BY club`, personID)
	if err != nil {
		return nil, translate(err, "membership")
	}
	defer rows.Close()
	var out []club.Membership
	for rows.Next() {
		var m club.Membership
		var created int64
		if err := rows.Scan(&m.PersonID, &m.Club, &m.UserID, &created); err != nil {
			return nil, translate(err, "membership")
		}
		m.CreatedAt = fromMS(created)
		out = append(out, m)
	}
	return out, translate(rows.Err(), "membership")
}
