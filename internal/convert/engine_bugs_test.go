package convert

import (
	"testing"

	"mafiaclub/mafia"
)

// Engine bugs found while converting. Each test states the expected behaviour and fails until the engine is
// fixed; the importer does not work around them.

// R20, R68 (spec §2 "nominate: allowed only during by's own regular speech"): once the voting has begun the last
// speaker's speech is over. When a disqualification then cancels the voting (fiim-xcraft §7.1; fiim-2025-club
// C-11 goes through the same code), the engine puts the day's status back to "cancelled", which it also uses for
// a day whose vote was cancelled during the speeches: Next() shows the last speaker's speech as current again
// with "nominate" allowed, and Apply accepts a nomination, which lands in the day's result.
func TestEngineBugNominationAfterVotingCancelled(t *testing.T) {
	rec := goldenRecord(t, "../../mafia/testdata/golden/fiim-xcraft/dq-during-voting-cancels.txtar")
	rec.Events = rec.Events[:len(rec.Events)-1] // up to the disqualification between the tie and the re-vote
	g, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if g.Voting() != mafia.VotingCancelled {
		t.Fatalf("voting %v, want cancelled", g.Voting())
	}
	if n := g.Next(); n.Allowed.Has(mafia.EvNominate) {
		t.Errorf("Next allows a nomination after the voting began (speaker %d shown as current)", n.Speaker)
	}
	if err := g.Apply(mafia.Nominate(10, 1)); err == nil {
		t.Errorf("a nomination after the voting began is accepted; the day's nominations are now %v", g.Nominated())
	}
}
