package main

import (
	"context"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
)

// TestTenantPoolBounded: on PostgreSQL each other club's store a server opens holds at most tenantPool
// connections, fewer than the own store's: a hundred clubs on two servers must fit in the database's connections.
func TestTenantPoolBounded(t *testing.T) {
	dsn := freshSchema(t)
	ctx := context.Background()
	own, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	plat := &platform.Platform{Own: own, OwnDSN: dsn}
	db, err := plat.Create(ctx, club.Tenant{Slug: "edmonton", Name: "Edmonton"}, platform.WithAdmin("Edmonton", "anna", "Anna", "a long password"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	defer plat.Remove(context.Background(), "edmonton")
	db, err = openTenantStore(ctx, plat, "edmonton")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := db.PoolStats().MaxOpenConnections; got != tenantPool || got >= sqlstore.PostgresPool {
		t.Fatalf("a club's store holds up to %d connections, want %d (the own store's: %d)", got, tenantPool, sqlstore.PostgresPool)
	}
	if got := own.PoolStats().MaxOpenConnections; got != sqlstore.PostgresPool {
		t.Fatalf("the own store holds up to %d connections, want %d", got, sqlstore.PostgresPool)
	}
}
