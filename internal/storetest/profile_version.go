package storetest

import (
	"context"
	"testing"

	"mafiaclub/internal/club"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"a profile's change raises the ratings' version", profileVersion})
}

// profileVersion: a changed nickname and a photo put in or taken out each raise the ratings' version, since the
// player's page, kept and tagged by that version, shows them.
func profileVersion(t *testing.T, s club.Store) {
	ctx := context.Background()
	p := &club.Player{Nick: "Orest"}
	must(t, s.CreatePlayer(ctx, p))
	last, err := s.RatingVersion(ctx)
	must(t, err)
	raised := func(what string) {
		t.Helper()
		v, err := s.RatingVersion(ctx)
		must(t, err)
		if v <= last {
			t.Errorf("%s: the ratings' version stays %d", what, v)
		}
		last = v
	}
	p.Nick = "Orest K"
	must(t, s.UpdatePlayer(ctx, p))
	raised("a new nickname")
	must(t, s.SetPlayerPhoto(ctx, p.ID, []byte("\x89PNG\r\n\x1a\n"), "image/png"))
	raised("a photo")
	must(t, s.SetPlayerPhoto(ctx, p.ID, nil, ""))
	raised("the photo taken out")
	wantCode(t, s.SetPlayerPhoto(ctx, p.ID+1000, nil, ""), club.NotFound)
}
