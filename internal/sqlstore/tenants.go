package sqlstore

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"mafiaclub/internal/club"
)

var _ club.Registry = (*DB)(nil)

// Tenants lists the installation's other clubs, by slug.
func (db *DB) Tenants(ctx context.Context) ([]club.Tenant, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT slug, name, host, created_at FROM platform_clubs ORDER BY slug`)
	if err != nil {
		return nil, translate(err, "club")
	}
	defer rows.Close()
	var out []club.Tenant
	for rows.Next() {
		var t club.Tenant
		var created int64
		if err := rows.Scan(&t.Slug, &t.Name, &t.Host, &created); err != nil {
			return nil, translate(err, "club")
		}
		t.Created = fromMS(created)
		out = append(out, t)
	}
	return out, translate(rows.Err(), "club")
}

// AddTenant registers a club (club.Registry).
func (db *DB) AddTenant(ctx context.Context, t *club.Tenant) error {
	if err := club.CheckSlug(t.Slug); err != nil {
		return err
	}
	if err := club.CheckHost(t.Host); err != nil {
		return err
	}
	if t.Created.IsZero() {
		t.Created = db.now()
	}
	_, err := db.w.ExecContext(ctx, `INSERT INTO platform_clubs (slug, name, host, created_at) VALUES (?, ?, ?, ?)`,
		t.Slug, t.Name, t.Host, ms(t.Created))
	if err != nil {
		if e := translate(err, "club"); club.ErrorCode(e) == club.Conflict {
			return club.Errorf(club.Conflict, "a club with the slug %q or the host name %q is on this installation already", t.Slug, t.Host)
		}
		return translate(err, "club")
	}
	return nil
}

// SetTenantHost gives a club its own host name (club.Registry).
func (db *DB) SetTenantHost(ctx context.Context, slug, host string) error {
	if err := club.CheckHost(host); err != nil {
		return err
	}
	res, err := db.w.ExecContext(ctx, `UPDATE platform_clubs SET host = ? WHERE slug = ?`, host, slug)
	if err != nil {
		if e := translate(err, "club"); club.ErrorCode(e) == club.Conflict {
			return club.Errorf(club.Conflict, "another club of this installation has the host name %q", host)
		}
		return translate(err, "club")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.NotFound, "no club %q on this installation", slug)
	}
	return nil
}

// RemoveTenant takes a club off the registry (club.Registry).
func (db *DB) RemoveTenant(ctx context.Context, slug string) error {
	res, err := db.w.ExecContext(ctx, `DELETE FROM platform_clubs WHERE slug = ?`, slug)
	if err != nil {
		return translate(err, "club")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.NotFound, "no club %q on this installation", slug)
	}
	return nil
}

// TenantDSN is where the store of club slug lives for an installation whose own store is at dsn: on SQLite the
// file clubs/SLUG.db beside the installation's file; on PostgreSQL the schema named after the installation's own
// (its search_path, "public" when none) and the slug ("public_club_edmonton"), in the same database. The slug must
// pass club.CheckSlug.
func TenantDSN(dsn, slug string) (string, error) {
	if err := club.CheckSlug(slug); err != nil {
		return "", err
	}
	if !isPostgres(dsn) {
		path := strings.TrimPrefix(dsn, "sqlite:")
		if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
			return "", fmt.Errorf("an installation of many clubs needs its own store in a file, not %q", dsn)
		}
		return filepath.Join(filepath.Dir(path), "clubs", slug+".db"), nil
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("search_path", tenantSchema(q.Get("search_path"), slug))
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// tenantSchema is the PostgreSQL schema of club slug beside the installation's own schema base.
func tenantSchema(base, slug string) string {
	base, _, _ = strings.Cut(base, ",")
	base = strings.TrimSpace(base)
	if base == "" {
		base = "public"
	}
	return base + "_club_" + strings.ReplaceAll(slug, "-", "_")
}

// TenantSchema names the PostgreSQL schema of a club's store at dsn (a TenantDSN), "" for SQLite.
func TenantSchema(dsn string) string {
	if !isPostgres(dsn) {
		return ""
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return ""
	}
	return u.Query().Get("search_path")
}

// PrepareTenant makes room for a new club's store at dsn (a TenantDSN): its PostgreSQL schema, made here from the
// installation's own store (refused when it exists: a club's store is never shared), or its SQLite file's folder
// (refused when the file exists). Open then migrates it.
func (db *DB) PrepareTenant(ctx context.Context, dsn string) error {
	if schema := TenantSchema(dsn); schema != "" {
		var n int
		if err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_namespace WHERE nspname = ?`, schema).Scan(&n); err != nil {
			return translate(err, "schema")
		}
		if n > 0 {
			return club.Errorf(club.Conflict, "the database has a schema %s already: a club's store is never shared; remove it first", schema)
		}
		_, err := db.w.ExecContext(ctx, `CREATE SCHEMA `+quoteIdent(schema))
		return translate(err, "schema")
	}
	return prepareTenantFile(dsn)
}

// DropTenant removes a club's store at dsn (a TenantDSN): its PostgreSQL schema with everything in it, or its
// SQLite file. The caller has closed it.
func (db *DB) DropTenant(ctx context.Context, dsn string) error {
	if schema := TenantSchema(dsn); schema != "" {
		_, err := db.w.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+quoteIdent(schema)+` CASCADE`)
		return translate(err, "schema")
	}
	return removeTenantFile(dsn)
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
