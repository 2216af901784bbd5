package convert

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"mafiaclub/mafia/record"
)

// oracleMeta are the fields mafiaratings' create needs, the same for every generated game: the oracle's fake
// database (tools/mwt-oracle/oracle.php) maps these ids to MWT ids by adding 100000.
func oracleMeta() MRMeta {
	m := MRMeta{EventID: 1, ClubID: 1, Moderator: 77, Language: "ru", Start: 1784160000, End: 1784163600, Players: map[int]int{}}
	for s := 1; s <= 10; s++ {
		m.Players[s] = 1000 + s
	}
	return m
}

// TestWriteOracleInputs writes generated games, exported to mafiaratings, for the by-hand oracle runs (see
// testdata/mafiaratings-check/README.md): MAFIACLUB_ORACLE_OUT=DIR MAFIACLUB_ORACLE_GAMES=N MAFIACLUB_ORACLE_SEED=S.
func TestWriteOracleInputs(t *testing.T) {
	dir := os.Getenv("MAFIACLUB_ORACLE_OUT")
	if dir == "" {
		t.Skip("MAFIACLUB_ORACLE_OUT not set: the by-hand oracle's inputs are written only on request")
	}
	games, _ := strconv.Atoi(os.Getenv("MAFIACLUB_ORACLE_GAMES"))
	if games == 0 {
		games = 1000
	}
	seed, _ := strconv.ParseInt(os.Getenv("MAFIACLUB_ORACLE_SEED"), 10, 64)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(seed))
	written, refused := 0, 0
	for i := 0; written < games && i < games*3; i++ {
		rec := genRecord(rng)
		if rec == nil {
			continue
		}
		out, err := ExportRecord(rec, oracleMeta())
		if err != nil {
			refused++
			continue
		}
		name := filepath.Join(dir, fmt.Sprintf("g%05d.json", written))
		if err := os.WriteFile(name, out, 0o644); err != nil {
			t.Fatal(err)
		}
		if recDir := os.Getenv("MAFIACLUB_ORACLE_RECORDS"); recDir != "" {
			os.MkdirAll(recDir, 0o755)
			if err := os.WriteFile(filepath.Join(recDir, fmt.Sprintf("g%05d.json", written)), record.Encode(rec), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		written++
	}
	t.Logf("%d games written, %d refused by the export", written, refused)
}
