package sqlstore

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// dialect is the SQL the database speaks. The store's queries are written once; the few real differences are
// handled here and in the migrations, nowhere else.
type dialect int

const (
	sqlite dialect = iota
	postgres
)

// rebind turns the ? placeholders of query into PostgreSQL's $1..$n; quoted text and comments are left alone.
func (d dialect) rebind(query string) string {
	if d != postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'' || c == '"': // a literal or a quoted name, up to its closing quote ('' and "" stay inside)
			j := strings.IndexByte(query[i+1:], c)
			if j < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+j+2])
			i += j + 1
		case c == '-' && i+1 < len(query) && query[i+1] == '-': // a comment, to the end of the line
			j := strings.IndexByte(query[i:], '\n')
			if j < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+j])
			i += j - 1
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// args passes Go bools as 0/1: flags are INTEGER columns in both schemas (SQLite has no boolean type, and the
// rating sums them), and pgx does not encode a bool into an integer parameter.
func args(in []any) []any {
	var out []any
	for i, a := range in {
		if v, ok := a.(bool); ok {
			if out == nil {
				out = append([]any(nil), in...)
			}
			out[i] = flag(v)
		}
	}
	if out == nil {
		return in
	}
	return out
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// handle runs the store's SQL on a database or a transaction of dialect d.
type handle struct {
	q querier
	d dialect
}

func (h handle) ExecContext(ctx context.Context, query string, a ...any) (sql.Result, error) {
	return h.q.ExecContext(ctx, h.d.rebind(query), args(a)...)
}

func (h handle) QueryContext(ctx context.Context, query string, a ...any) (*sql.Rows, error) {
	return h.q.QueryContext(ctx, h.d.rebind(query), args(a)...)
}

func (h handle) QueryRowContext(ctx context.Context, query string, a ...any) *sql.Row {
	return h.q.QueryRowContext(ctx, h.d.rebind(query), args(a)...)
}

// insert runs an INSERT and returns the id of the new row (INSERT ... RETURNING id, in both dialects: pgx has no
// LastInsertId).
func (h handle) insert(ctx context.Context, query string, a ...any) (int64, error) {
	var id int64
	err := h.QueryRowContext(ctx, query+` RETURNING id`, a...).Scan(&id)
	return id, err
}

// dbh is a database handle.
type dbh struct {
	db *sql.DB
	d  dialect
	// stmts keeps the handle's queries prepared (SQLite's read connections: preparing a statement was a tenth of
	// a page's time there; pgx keeps its own); nil: each query is prepared when it runs.
	stmts *stmtCache
}

func (h dbh) handle() handle { return handle{h.db, h.d} }

func (h dbh) ExecContext(ctx context.Context, query string, a ...any) (sql.Result, error) {
	return h.handle().ExecContext(ctx, query, a...)
}

func (h dbh) QueryContext(ctx context.Context, query string, a ...any) (*sql.Rows, error) {
	if st := h.stmts.get(ctx, h.db, h.d.rebind(query)); st != nil {
		return st.QueryContext(ctx, args(a)...)
	}
	return h.handle().QueryContext(ctx, query, a...)
}

func (h dbh) QueryRowContext(ctx context.Context, query string, a ...any) *sql.Row {
	if st := h.stmts.get(ctx, h.db, h.d.rebind(query)); st != nil {
		return st.QueryRowContext(ctx, args(a)...)
	}
	return h.handle().QueryRowContext(ctx, query, a...)
}

// stmtCache keeps prepared statements by their text, at most maxStmts of them (the store's queries are a few
// hundred texts; one built with a list of a varying length beyond that runs unprepared). database/sql prepares
// each statement again on every connection that runs it, and when a connection is replaced.
type stmtCache struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

const maxStmts = 512

// get returns query prepared, or nil when it is not kept and cannot be (the cache is full, or preparing it
// failed: the caller then runs it unprepared and gets its error).
func (c *stmtCache) get(ctx context.Context, db *sql.DB, query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	st, ok := c.m[query]
	full := len(c.m) >= maxStmts
	c.mu.Unlock()
	if ok || full {
		return st
	}
	st, err := db.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[query]; ok { // prepared meanwhile by another reader
		st.Close()
		return old
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[query] = st
	return st
}

// close closes every kept statement.
func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}

func (h dbh) insert(ctx context.Context, query string, a ...any) (int64, error) {
	return h.handle().insert(ctx, query, a...)
}

// BeginTx starts a transaction. On SQLite it is BEGIN IMMEDIATE on the one writer connection, so write
// transactions never overlap; on PostgreSQL it is READ COMMITTED, and a transaction that reads before it writes
// takes its row lock first (txn.lock).
func (h dbh) BeginTx(ctx context.Context, opts *sql.TxOptions) (*txn, error) {
	t, err := h.db.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &txn{handle{t, h.d}, t}, nil
}

// txn is a transaction handle.
type txn struct {
	handle
	tx *sql.Tx
}

func (t *txn) Commit() error   { return t.tx.Commit() }
func (t *txn) Rollback() error { return t.tx.Rollback() }

// lock takes the row lock on the row of table with id until the end of the transaction, so that transactions
// that read, decide and then write about the same thing take turns (two members never take the last place of a
// night together). SQLite needs none: its write transactions already take turns (BEGIN IMMEDIATE, one writer).
// A missing row is not an error here; the query that reads it says so.
func (t *txn) lock(ctx context.Context, table string, id int64) error {
	if t.d != postgres {
		return nil
	}
	_, err := t.ExecContext(ctx, `SELECT 1 FROM `+table+` WHERE id = ? FOR UPDATE`, id)
	return err
}
