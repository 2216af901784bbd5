package sqlstore

import (
	"context"
	"path/filepath"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

func TestSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) club.Store {
		db, err := Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestMigrateTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "club.db")
	for i := 0; i < 2; i++ {
		db, err := Open(context.Background(), path)
		if err != nil {
			t.Fatalf("open %d: %v", i+1, err)
		}
		db.Close()
	}
}
