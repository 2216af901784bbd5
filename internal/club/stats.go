package club

import (
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// SeatStats are what a game's record shows of one seat beyond its points: computed once from the record when the
// game is saved (or, for games saved before, when the store is first opened), stored with the seat's result.
type SeatStats struct {
	FirstKilled bool // killed on the first night with shots (night 2: nobody shoots on night 1)
	BestNamed   int  // seats named in his best move
	BestBlacks  int  // blacks among them
	Checks      int  // the sheriff's (commissar's) checks
	ChecksBlack int  // of them, checks that found a black player
	DonChecks   int  // the don's checks
	DonFound    int  // of them, checks that found the sheriff
	Votes       int  // his hands in voting rounds (lift votes aside)
	VotesBlack  int  // of them, hands against a black player
	Noms        int  // his nominations
	NomsBlack   int  // of them, nominations of a black player
	Fouls       int
	Disq        bool // disqualified
}

// SeatStatsOf replays a record event by event and returns each seat's figures (index 0 is seat 1).
func SeatStatsOf(rec *record.Record) ([]SeatStats, error) {
	roles := rec.Roles()
	g, err := mafia.NewGame(rec.Rules, rec.Options, roles)
	if err != nil {
		return nil, err
	}
	out := make([]SeatStats, len(roles))
	black := func(s uint8) bool { return s >= 1 && int(s) <= len(roles) && roles[s-1].Team() == mafia.Black }
	for _, re := range rec.Events {
		e := re.Event
		var hands mafia.Seats
		if e.Type == mafia.EvVote {
			hands = g.Hands(e)
		}
		if err := g.Apply(e); err != nil {
			return nil, err
		}
		by := int(e.Seat)
		switch e.Type {
		case mafia.EvVote:
			for _, s := range hands.List() {
				out[s-1].Votes++
				if black(e.Target) {
					out[s-1].VotesBlack++
				}
			}
		case mafia.EvNominate:
			out[by-1].Noms++
			if black(e.Target) {
				out[by-1].NomsBlack++
			}
		case mafia.EvCheck:
			switch roles[by-1] {
			case mafia.Don:
				out[by-1].DonChecks++
				if roles[e.Target-1] == mafia.Sheriff {
					out[by-1].DonFound++
				}
			default:
				out[by-1].Checks++
				if black(e.Target) {
					out[by-1].ChecksBlack++
				}
			}
		case mafia.EvBestMove:
			out[by-1].BestNamed = int(e.NTargets)
			out[by-1].BestBlacks = 0
			for _, t := range e.Targets[:e.NTargets] {
				if black(t) {
					out[by-1].BestBlacks++
				}
			}
		}
	}
	for s := range out {
		o := g.Out(s + 1)
		out[s].FirstKilled = o.How == mafia.OutKilled && o.Phase == mafia.PhaseNight && o.Number == 2
		out[s].Disq = o.How == mafia.OutDisqualified
		out[s].Fouls = g.Fouls(s + 1)
	}
	return out, nil
}
