package club

import (
	"context"
	"fmt"
)

// The demo club's logins. They are public: the demo is for trying the site, never for a real club.
const (
	DemoAdminLogin    = "admin"
	DemoAdminPassword = "demo-admin"
	DemoHostLogin     = "host"
	DemoHostPassword  = "demo-host"
)

var demoNicks = []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Kaiser",
	"Lada", "Mirage", "Nord", "Olha", "Pixel", "Quest", "Ronin", "Sirius", "Tesla", "Vesna"}

// SeedDemo creates the demo club (an admin, a host and twenty players) unless its admin exists already. It reports
// whether it created anything.
func SeedDemo(ctx context.Context, s Store) (bool, error) {
	if _, err := s.UserByLogin(ctx, DemoAdminLogin); err == nil {
		return false, nil
	} else if ErrorCode(err) != NotFound {
		return false, err
	}
	for _, u := range []struct {
		login, name, pass string
		role              Role
	}{
		{DemoAdminLogin, "Demo admin", DemoAdminPassword, RoleAdmin},
		{DemoHostLogin, "Demo host", DemoHostPassword, RoleHost},
	} {
		h, err := HashPassword(u.pass)
		if err != nil {
			return false, err
		}
		if err := s.CreateUser(ctx, &User{Login: u.login, Name: u.name, Role: u.role, PasswordHash: h}); err != nil {
			return false, fmt.Errorf("demo user %s: %w", u.login, err)
		}
	}
	for _, n := range demoNicks {
		if err := s.CreatePlayer(ctx, &Player{Nick: n}); err != nil {
			return false, fmt.Errorf("demo player %s: %w", n, err)
		}
	}
	return true, nil
}

// IsEmpty reports whether the store has no accounts at all: a first run.
func IsEmpty(ctx context.Context, s Store) (bool, error) {
	users, err := s.Users(ctx)
	return len(users) == 0, err
}
