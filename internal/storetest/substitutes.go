package storetest

import (
	"context"
	"fmt"
	"testing"

	"mafiaclub/internal/club"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"sit-outs and substitutes", substitutes})
}

// substitutes: a stage keeps who sits out each round; a participant is removed; a substitute takes a leaver's
// marked places in one transaction, and a second replacement of the same player is a Conflict.
func substitutes(t *testing.T, s club.Store) {
	ctx := context.Background()
	chief := NewHost(t, s, "chief2")
	tour := &club.Tournament{Name: "Open", StartsOn: "2027-03-13", EndsOn: "2027-03-13", Rules: "fiim-xcraft", ChiefJudge: chief.ID, CreatedBy: chief.ID}
	must(t, s.CreateTournament(ctx, tour))
	var ids []int64
	for i := 0; i < 12; i++ {
		p := &club.Participant{TournamentID: tour.ID, Name: fmt.Sprintf("S%d", i), Approved: true}
		must(t, s.AddParticipant(ctx, p))
		ids = append(ids, p.ID)
	}
	stage := &club.Stage{TournamentID: tour.ID, Name: "Q", Rounds: 2, PerTable: 10, Seed: 1, Players: ids[:11],
		Schedule: [][][]int64{{ids[:10]}, {ids[1:11]}}, SitOut: [][]int64{{ids[10]}, {ids[0]}}}
	must(t, s.CreateStage(ctx, stage))
	back, err := s.Stage(ctx, stage.ID)
	must(t, err)
	if fmt.Sprint(back.SitOut) != fmt.Sprint(stage.SitOut) || fmt.Sprint(back.Players) != fmt.Sprint(stage.Players) {
		t.Errorf("sit-outs %v, players %v", back.SitOut, back.Players)
	}
	must(t, s.RemoveParticipant(ctx, ids[11]))
	wantCode(t, s.RemoveParticipant(ctx, ids[11]), club.NotFound)
	// S0 leaves after round 1: his sit-out of round 2 goes to the substitute
	back.SitOut[1][0] = 0
	sub := &club.Participant{TournamentID: tour.ID, Name: "Sub", Approved: true}
	must(t, s.ReplaceParticipant(ctx, ids[0], sub, []club.Stage{*back}))
	if sub.ID == 0 || sub.Replaces != ids[0] {
		t.Fatalf("substitute %+v", sub)
	}
	after, _ := s.Stage(ctx, stage.ID)
	if after.SitOut[1][0] != sub.ID || after.Schedule[0][0][0] != ids[0] {
		t.Errorf("after the replacement: sit-outs %v, round 1 %v", after.SitOut, after.Schedule[0][0])
	}
	parts, _ := s.Participants(ctx, tour.ID)
	byID := map[int64]club.Participant{}
	for _, p := range parts {
		byID[p.ID] = p
	}
	if !byID[ids[0]].Left || byID[sub.ID].Replaces != ids[0] || byID[ids[1]].Left || len(parts) != 12 {
		t.Errorf("participants %+v", parts)
	}
	wantCode(t, s.ReplaceParticipant(ctx, ids[0], &club.Participant{TournamentID: tour.ID, Name: "Sub2", Approved: true}, nil), club.Conflict)
	wantCode(t, s.ReplaceParticipant(ctx, ids[1], &club.Participant{TournamentID: tour.ID, Name: "Sub", Approved: true}, nil), club.Conflict)
	if p, _ := s.Participants(ctx, tour.ID); len(p) != 12 {
		t.Errorf("a refused replacement left %d participants", len(p))
	}
	for _, p := range parts {
		if p.ID == ids[1] && p.Left {
			t.Error("a refused replacement marked the player as gone")
		}
	}
}
