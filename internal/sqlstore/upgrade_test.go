package sqlstore

import (
	"context"
	"encoding/hex"
	"encoding/json"
	flagpkg "flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// firstRelease is the schema version of the first released mafiaclub (migrations 0001-0009).
const firstRelease = 9

var writeRelease1 = flagpkg.Bool("write-release1", false, "write testdata/release1.json from a club made by this program (only while its schema is the first release's)")

// dump is a database's rows, table by table, as the first release wrote them: numbers, strings, null, and
// {"hex": "..."} for bytes.
type dump map[string]struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// TestUpgradeFromFirstRelease builds a database at the first release's schema (its migrations only), fills it with
// the rows that release wrote (testdata/release1.json: the demo club, members, a club night, games of every rule set
// saved with their points, a reopened game, a live one, a tournament), then opens it with this program, which
// migrates it to the current schema: every game must replay to the points the first release saved.
func TestUpgradeFromFirstRelease(t *testing.T) {
	if *writeRelease1 {
		writeReleaseDump(t)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "release1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d dump
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	t.Run("sqlite", func(t *testing.T) { upgrade(t, filepath.Join(t.TempDir(), "old.db"), d) })
	t.Run("postgres", func(t *testing.T) { upgrade(t, freshPostgres(t), d) })
}

func upgrade(t *testing.T, dsn string, d dump) {
	ctx := context.Background()
	old, err := openAt(ctx, dsn, firstRelease)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := old.tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := old.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		part, ok := d[table]
		if !ok {
			continue
		}
		q := `INSERT INTO ` + table + ` (` + strings.Join(part.Columns, ", ") + `) VALUES (` +
			strings.TrimSuffix(strings.Repeat("?, ", len(part.Columns)), ", ") + `)`
		for _, row := range part.Rows {
			vals := make([]any, len(row))
			for i, v := range row {
				switch x := v.(type) {
				case float64:
					vals[i] = int64(x)
				case map[string]any:
					vals[i], _ = hex.DecodeString(x["hex"].(string))
				default:
					vals[i] = x
				}
			}
			if _, err := tx.ExecContext(ctx, q, vals...); err != nil {
				t.Fatalf("%s: %v", table, err)
			}
		}
	}
	if old.dialect == "postgres" {
		if err := resetIdentities(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	old.Close()

	db, err := Open(ctx, dsn) // the current program: migrates
	if err != nil {
		t.Fatalf("the first release's database does not open: %v", err)
	}
	defer db.Close()
	v, err := db.Check(ctx)
	if err != nil || v != SchemaVersion(db.dialect) {
		t.Fatalf("schema %d after the upgrade (%v), want %d", v, err, SchemaVersion(db.dialect))
	}
	digest, err := club.Digest(ctx, db)
	if err != nil {
		t.Fatalf("a game does not replay after the upgrade: %v", err)
	}
	// the points the first release saved, seat by seat, against the replay now
	saved := map[string]int64{}
	res := d["game_results"]
	col := func(name string) int {
		for i, c := range res.Columns {
			if c == name {
				return i
			}
		}
		t.Fatalf("game_results has no %s", name)
		return -1
	}
	gi, si, pi := col("game_id"), col("seat"), col("points")
	for _, row := range res.Rows {
		saved[fmt.Sprintf("%d:%d", int64(row[gi].(float64)), int64(row[si].(float64)))] = int64(row[pi].(float64))
	}
	checked := 0
	for id, line := range digest {
		if id == 0 || !strings.HasPrefix(line, "saved") {
			continue
		}
		for _, f := range strings.Fields(line)[4:] {
			var seat, points, player int
			var role string
			parts := strings.Split(f, ":")
			fmt.Sscan(parts[0], &seat)
			role = parts[1]
			fmt.Sscan(parts[2], &points)
			fmt.Sscan(strings.TrimPrefix(parts[3], "p"), &player)
			want, ok := saved[fmt.Sprintf("%d:%d", id, seat)]
			if !ok {
				t.Errorf("game %d seat %d (%s): no saved result", id, seat, role)
				continue
			}
			if int64(points) != want {
				t.Errorf("game %d seat %d: replays to %d, the first release saved %d", id, seat, points, want)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("only %d seats checked: the fixture is too small to mean anything", checked)
	}
}

// openAt opens a database migrated up to version only: an older program's schema.
func openAt(ctx context.Context, dsn string, version int) (*DB, error) {
	if isPostgres(dsn) {
		p, err := openPostgresNoMigrate(ctx, dsn)
		if err != nil {
			return nil, err
		}
		return p, p.migrateTo(ctx, version)
	}
	db, err := openSQLiteNoMigrate(dsn)
	if err != nil {
		return nil, err
	}
	return db, db.migrateTo(ctx, version)
}

// writeReleaseDump makes a club with the program as it is (its schema must still be the first release's) and
// writes its rows to testdata/release1.json.
func writeReleaseDump(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "r1.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v := SchemaVersion("sqlite"); v != firstRelease {
		t.Fatalf("the schema is %d now, not the first release's %d: the dump can no longer be written by this program", v, firstRelease)
	}
	now := time.Date(2026, 11, 1, 18, 0, 0, 0, time.UTC)
	svc := club.NewServices(db, club.NewClock(time.UTC, func() time.Time { return now }))
	if _, err := club.SeedDemo(ctx, db); err != nil {
		t.Fatal(err)
	}
	admin, _ := db.UserByLogin(ctx, club.DemoAdminLogin)
	member := &club.User{Login: "olena", Name: "Olena", Role: club.RoleMember, PasswordHash: "x", Status: club.StatusActive}
	if err := db.CreateMember(ctx, member, &club.Player{Nick: "Olena"}); err != nil {
		t.Fatal(err)
	}
	night, err := svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: now.Add(48 * time.Hour), Place: "Café", Tables: 1, PerTable: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Nights.Register(ctx, member, night.ID); err != nil {
		t.Fatal(err)
	}
	// the golden games of every rule set, imported as saved games, their points saved by this release
	files, _ := filepath.Glob(filepath.Join("..", "..", "mafia", "testdata", "golden", "*", "*.txtar"))
	sort.Strings(files)
	per := map[string]int{}
	nicks := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Kaiser", "Lada", "Mirage"}
	for _, f := range files {
		rules := filepath.Base(filepath.Dir(f))
		if per[rules] >= 6 {
			continue
		}
		ar, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range ar.Files {
			if part.Name != "record.json" {
				continue
			}
			rec, err := record.Decode(part.Data)
			if err != nil {
				continue
			}
			for i := range rec.Seats {
				rec.Seats[i].Name = nicks[(i+per[rules])%len(nicks)]
				if i >= 9 {
					rec.Seats[i].Name = fmt.Sprintf("Guest %d", i)
				}
			}
			now = now.Add(time.Hour)
			if _, err := svc.Games.Import(ctx, admin, rec, "golden:"+rules+"/"+filepath.Base(f), now, per[rules]%3 != 2); err == nil {
				per[rules]++
			}
		}
	}
	// a live game, and a game saved then reopened
	host, _ := db.UserByLogin(ctx, club.DemoHostLogin)
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	for k := 0; k < 2; k++ {
		ng := club.NewGame{Rules: club.ClubRules, Rated: true, NightID: night.ID}
		for i, r := range roles {
			ng.Seats = append(ng.Seats, club.NewSeat{Name: nicks[i], Role: r})
		}
		g, err := svc.Games.Start(ctx, host, ng)
		if err != nil {
			t.Fatal(err)
		}
		events := []record.Event{{Event: mafia.Foul(2)}, {Event: mafia.Adjust(1, 30), Reason: "led well"}}
		if k == 1 {
			events = append(events, record.Event{Event: mafia.TeamLoss(3), Reason: "oath"})
		}
		st, err := svc.Games.Act(ctx, host, g.ID, 0, events)
		if err != nil {
			t.Fatal(err)
		}
		if k == 1 {
			if st, err = svc.Games.Save(ctx, host, g.ID, st.Game.Version, true); err != nil {
				t.Fatal(err)
			}
			if _, err = svc.Games.Reopen(ctx, admin, g.ID, st.Game.Version); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := dump{}
	tables, err := db.tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		rows, err := db.r.QueryContext(ctx, `SELECT * FROM `+table)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		part := out[table]
		part.Columns = cols
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					vals[i] = map[string]string{"hex": hex.EncodeToString(b)}
				}
			}
			part.Rows = append(part.Rows, vals)
		}
		rows.Close()
		out[table] = part
	}
	digest, err := club.Digest(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(out)
	if err := os.WriteFile(filepath.Join("testdata", "release1.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote testdata/release1.json: %d games, %v", len(digest)-1, per)
}
