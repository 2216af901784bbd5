package club_test

import (
	"context"
	"fmt"
	"testing"

	"mafiaclub/internal/club"
)

// TestSeatedChiefDoesNotApproveExtra: a chief judge who plays at a table of his own tournament may not agree to a
// winner's 0.6 or 0.7 in that game (he would agree to his own table's points); the organiser agrees in his place,
// and the table's judge still may not.
func TestSeatedChiefDoesNotApproveExtra(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin, chief, judge := f.users["admin"], f.users["chief"], f.users["judge"]
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-02", ChiefJudge: chief.ID}
	f.must(f.svc.Tournaments.Create(ctx, admin, tour))
	_, err := f.svc.Tournaments.AddParticipant(ctx, admin, tour.ID, "Nick-chief")
	f.must(err)
	for i := 1; i < 10; i++ {
		_, err := f.svc.Tournaments.AddParticipant(ctx, admin, tour.ID, fmt.Sprintf("Player %d", i))
		f.must(err)
	}
	st, _, err := f.svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 1})
	f.must(err)
	f.must(f.svc.Tournaments.SetJudge(ctx, admin, tour.ID, st.ID, 1, judge.ID))
	g, err := f.svc.Tournaments.StartGame(ctx, judge, tour.ID, st.ID, 1, 1, tenRoles)
	f.must(err)
	if !club.Seated(chief, g) {
		t.Fatal("the chief judge is not at the table")
	}
	seat := 1
	if err := f.svc.Tournaments.ApproveExtra(ctx, chief, g.ID, seat); club.ErrorCode(err) != club.Forbidden || err != club.ErrSeatedApprover {
		t.Errorf("the seated chief judge agrees to his own table's extra points: %v", err)
	}
	if err := f.svc.Tournaments.ApproveExtra(ctx, judge, g.ID, seat); club.ErrorCode(err) != club.Forbidden {
		t.Errorf("the table's judge agrees to his own extra points: %v", err)
	}
	if ok, _ := f.db.ExtraApproved(ctx, g.ID, seat); ok {
		t.Fatal("a refused agreement was recorded")
	}
	st2, err := f.svc.Games.Load(ctx, judge, g.ID)
	f.must(err)
	if info, err := f.svc.Tournaments.Info(ctx, admin, st2); err != nil || !info.ApprovesExtra {
		t.Errorf("the organiser is not offered the agreement: %+v %v", info, err)
	}
	if info, err := f.svc.Tournaments.Info(ctx, chief, st2); err != nil || info.ApprovesExtra {
		t.Errorf("the seated chief judge is offered the agreement: %+v %v", info, err)
	}
	f.must(f.svc.Tournaments.ApproveExtra(ctx, admin, g.ID, seat))
	if ok, _ := f.db.ExtraApproved(ctx, g.ID, seat); !ok {
		t.Error("the organiser's agreement was not recorded")
	}
}
