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
	}{"a tournament's stamp changes with whatever its overview shows", tournamentStamp})
}

// tournamentStamp: every change a tournament's page shows changes its stamp, and nothing else does.
func tournamentStamp(t *testing.T, s club.Store) {
	ctx := context.Background()
	chief := NewHost(t, s, "chief")
	tour := &club.Tournament{Name: "Cup", StartsOn: "2027-03-13", EndsOn: "2027-03-14", Place: "Hall", Rules: "fiim-xcraft",
		ChiefJudge: chief.ID, CreatedBy: chief.ID, LotSeed: 42}
	must(t, s.CreateTournament(ctx, tour))
	other := &club.Tournament{Name: "Other", StartsOn: "2027-03-13", EndsOn: "2027-03-14", Place: "Hall", Rules: "fiim-xcraft",
		ChiefJudge: chief.ID, CreatedBy: chief.ID, LotSeed: 1}
	must(t, s.CreateTournament(ctx, other))
	_, err := s.TournamentStamp(ctx, other.ID+100)
	wantCode(t, err, club.NotFound)
	last, err := s.TournamentStamp(ctx, tour.ID)
	must(t, err)
	changed := func(what string, want bool) {
		t.Helper()
		st, err := s.TournamentStamp(ctx, tour.ID)
		must(t, err)
		if (st != last) != want {
			t.Errorf("%s: the stamp changed %v, want %v", what, st != last, want)
		}
		last = st
	}
	var ids []int64
	for i := 0; i < 10; i++ {
		p := &club.Participant{TournamentID: tour.ID, Name: fmt.Sprintf("P%d", i), Approved: i != 9}
		must(t, s.AddParticipant(ctx, p))
		ids = append(ids, p.ID)
	}
	changed("participants added", true)
	must(t, s.AddParticipant(ctx, &club.Participant{TournamentID: other.ID, Name: "X"}))
	changed("another tournament's participant", false)
	must(t, s.ApproveParticipant(ctx, ids[9]))
	changed("a participant approved", true)
	stage := &club.Stage{TournamentID: tour.ID, Name: "Q", Rounds: 1, PerTable: 10, Seed: 7, Schedule: [][][]int64{{ids}}}
	must(t, s.CreateStage(ctx, stage))
	changed("a stage", true)
	must(t, s.SetSchedule(ctx, stage.ID, 7, [][][]int64{{append([]int64{ids[1], ids[0]}, ids[2:]...)}}, [][]int64{{}}))
	changed("a swap", true)
	must(t, s.SetTableJudge(ctx, stage.ID, 1, chief.ID))
	changed("a judge", true)
	g := &club.Game{Rules: "fiim-xcraft", Seats: tenSeats(), HostID: chief.ID, StageID: stage.ID, Round: 1, TableNo: 1, Status: club.GameLive}
	must(t, s.CreateGame(ctx, g))
	changed("a game started", true)
	must(t, s.Append(ctx, g.ID, g.Version, club.ActionKey{}, []club.StoredEvent{{JSON: []byte(`{"type":"speech","seat":1}`), By: chief.ID}}))
	changed("an event recorded", true)
	sub := &club.Participant{TournamentID: tour.ID, Name: "Sub", Approved: true}
	stages, _ := s.Stages(ctx, tour.ID)
	must(t, s.ReplaceParticipant(ctx, ids[0], sub, stages))
	changed("a participant replaced", true)
	changed("nothing", false)
}
