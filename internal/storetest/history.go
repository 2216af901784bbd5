package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"ratings over a generated history", ratingsHistory})
}

// randomPlay plays a random but valid game through the engine's own plan (speeches with nominations, votes with
// random hands, shots, checks, heals, best moves, some fouls and adjustments), ending it by a team loss if it runs
// long. It returns the events the engine accepted.
func randomPlay(rng *rand.Rand, rs *mafia.Rules, opt mafia.Options, roles []mafia.Role) []record.Event {
	g, err := mafia.NewGame(rs, opt, roles)
	if err != nil {
		return nil
	}
	var out []record.Event
	try := func(e mafia.Event) bool {
		if g.Apply(e) != nil {
			return false
		}
		out = append(out, record.Event{Event: e})
		return true
	}
	pick := func(s mafia.Seats) int {
		l := s.List()
		if len(l) == 0 {
			return 1
		}
		return l[rng.IntN(len(l))]
	}
	for steps := 0; !g.Finished() && steps < 300; steps++ {
		next := g.Next()
		switch rng.IntN(40) {
		case 0:
			try(mafia.Foul(pick(g.Alive())))
			continue
		case 1:
			if rs.HasPoints() {
				try(mafia.Adjust(pick(g.Alive()), []int{10, -10, 30, -30}[rng.IntN(4)]))
			}
			continue
		}
		var want mafia.PlanStep
		for _, p := range next.Plan() {
			if p.Event != mafia.NoEvent {
				want = p
				break
			}
		}
		switch want.Event {
		case mafia.EvSpeech:
			if try(mafia.Speech(want.Seat)) && rng.IntN(2) == 0 {
				try(mafia.Nominate(want.Seat, pick(g.Alive())))
			}
		case mafia.EvVote:
			var v mafia.Seats
			for _, s := range (next.Actors &^ next.Voted).List() {
				if s != want.Seat && rng.IntN(3) == 0 {
					v = v.Add(s)
				}
			}
			if !try(mafia.Event{Type: mafia.EvVote, Target: uint8(want.Seat), VotersGiven: true, Voters: v}) {
				try(mafia.Event{Type: mafia.EvVote, Target: uint8(want.Seat), VotersGiven: true})
			}
		case mafia.EvLift:
			var yes []int
			for _, s := range g.Alive().List() {
				if rng.IntN(2) == 0 {
					yes = append(yes, s)
				}
			}
			try(mafia.Lift(yes...))
		case mafia.EvShot:
			t := pick(g.Alive())
			for _, a := range next.Actors.List() {
				try(mafia.Shot(a, t))
			}
		case mafia.EvCheck, mafia.EvHeal:
			for k := 0; k < 5; k++ {
				if try(mafia.Event{Type: want.Event, Seat: uint8(want.Seat), Target: uint8(pick(g.Alive()))}) {
					break
				}
			}
		case mafia.EvBestMove:
			var named []int
			for _, s := range rng.Perm(len(roles)) {
				if s+1 != want.Seat && len(named) < 1+rng.IntN(3) {
					named = append(named, s+1)
				}
			}
			try(mafia.BestMove(want.Seat, named...))
		case mafia.NoEvent:
		default:
			try(mafia.Event{Type: want.Event})
		}
	}
	for _, s := range g.Alive().List() {
		if g.Finished() || try(mafia.TeamLoss(s)) {
			break
		}
	}
	return out
}

// figures is the straightforward recomputation of one seat's figures: the record replayed event by event, the
// hands of a vote taken from the engine's "what happens next" (Rest: the default vote) rather than from the code
// the store uses.
func figures(rec *record.Record) []club.SeatStats {
	g, _ := mafia.NewGame(rec.Rules, rec.Options, rec.Roles())
	out := make([]club.SeatStats, len(rec.Seats))
	black := func(s uint8) bool { return rec.Seats[s-1].Role.Team() == mafia.Black }
	for _, re := range rec.Events {
		e := re.Event
		next, alive := g.Next(), g.Alive()
		if g.Apply(e) != nil {
			return nil
		}
		by := int(e.Seat)
		switch e.Type {
		case mafia.EvVote:
			hands := e.Voters
			switch {
			case next.RestToLast:
				hands |= next.Rest
			case next.NCand == 1 && g.Options().DefaultVoteToLast:
				// the vote that opens the voting on a single candidate: Next reports no Rest before the
				// voting has begun, but the default vote (R26) gives him every hand not raised
				hands |= alive
			}
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
			if rec.Seats[by-1].Role == mafia.Don {
				out[by-1].DonChecks++
				if rec.Seats[e.Target-1].Role == mafia.Sheriff {
					out[by-1].DonFound++
				}
			} else {
				out[by-1].Checks++
				if black(e.Target) {
					out[by-1].ChecksBlack++
				}
			}
		case mafia.EvBestMove:
			out[by-1].BestNamed, out[by-1].BestBlacks = int(e.NTargets), 0
			for _, t := range e.Targets[:e.NTargets] {
				if black(t) {
					out[by-1].BestBlacks++
				}
			}
		}
	}
	res := g.Result()
	for i, sr := range res.Seats {
		out[i].Fouls = sr.Fouls
		out[i].Disq = sr.Out.How == mafia.OutDisqualified
		out[i].FirstKilled = sr.Out.How == mafia.OutKilled && sr.Out.Phase == mafia.PhaseNight && sr.Out.Number == 2
	}
	return out
}

// ratingsHistory generates a club history (every rule set, guests, rated and normal games, reopened games,
// corrected games, guests linked later) and checks every rule set's standings, Elo, each player's Elo history and
// his figures against a straightforward recomputation from the saved records.
func ratingsHistory(t *testing.T, s club.Store) {
	ctx := context.Background()
	host := NewHost(t, s, "historian")
	admin := &club.User{ID: host.ID, Role: club.RoleAdmin}
	var players []club.Player
	for i := 0; i < 30; i++ {
		p := club.Player{Nick: fmt.Sprintf("hist%02d", i)}
		must(t, s.CreatePlayer(ctx, &p))
		players = append(players, p)
	}
	clock := club.NewClock(time.UTC, nil)
	svc := club.NewServices(s, clock)
	rng := rand.New(rand.NewPCG(11, 5))
	n := 500 // some 4,500 seat results; -short plays fewer
	if testing.Short() {
		n = 120
	}
	homeDoctor := map[string][]byte{"night_order": []byte(`["mafia","doctor","commissar"]`), "default_vote_to_last": []byte(`true`),
		"tie_model": []byte(`"lift"`), "reveal_on_elimination": []byte(`true`), "last_word": []byte(`true`),
		"doctor_self_heal": []byte(`false`), "doctor_repeat_target": []byte(`false`)}
	base := time.Date(2025, 1, 1, 18, 0, 0, 0, time.UTC)
	var saved []int64
	for i := 0; i < n; i++ {
		sets := mafia.RuleSets()
		rs := sets[0]
		if rng.IntN(3) == 0 {
			rs = sets[rng.IntN(len(sets))]
		}
		size := rs.MinPlayers + rng.IntN(rs.MaxPlayers-rs.MinPlayers+1)
		size = min(max(size, 7), 10)
		if size < rs.MinPlayers {
			size = rs.MinPlayers
		}
		perm := rng.Perm(len(players))
		seats := make([]club.NewSeat, size)
		for k := range seats {
			if rng.IntN(12) == 0 {
				seats[k] = club.NewSeat{Name: fmt.Sprintf("Visitor %d", rng.IntN(4)*10+k), Guest: true}
			} else {
				seats[k] = club.NewSeat{Name: players[perm[k]].Nick}
			}
		}
		var opts map[string][]byte
		if rs.ID == "home-doctor" {
			opts = homeDoctor
		}
		rated := rng.IntN(5) != 0
		// several tables a night: games start close together, and are saved in another order
		at := base.Add(time.Duration(i/3)*26*time.Hour + time.Duration(rng.IntN(3))*time.Minute)
		clock.Set(func() time.Time { return at })
		g, err := svc.Games.Start(ctx, host, club.NewGame{Rules: rs.ID, Options: opts, Seats: seats, Rated: rated, Deal: true, Mafia: 2, Doctor: true})
		must(t, err)
		st, err := svc.Games.Load(ctx, host, g.ID)
		must(t, err)
		evs := randomPlay(rng, st.Play.Rules(), st.Play.Options(), st.Record.Roles())
		if len(evs) == 0 {
			continue
		}
		st, err = svc.Games.Act(ctx, host, g.ID, 0, evs)
		must(t, err)
		if !st.Play.Finished() {
			continue
		}
		_, err = svc.Games.Save(ctx, host, g.ID, st.Game.Version, rated)
		must(t, err)
		saved = append(saved, g.ID)
	}
	// corrections: reopened, changed and saved again (with the other flag now and then); some left open
	for k := 0; k < len(saved)/15; k++ {
		id := saved[rng.IntN(len(saved))]
		st, err := svc.Games.Load(ctx, host, id)
		must(t, err)
		if st.Game.Status != club.GameSaved {
			continue
		}
		st, err = svc.Games.Reopen(ctx, admin, id, st.Game.Version)
		must(t, err)
		if k%4 == 0 {
			continue // left open: out of every rating until it is saved again
		}
		if st.Play.Rules().HasPoints() {
			if next, err := svc.Games.Act(ctx, host, id, st.Game.Version, []record.Event{{Event: mafia.Adjust(1+rng.IntN(len(st.Game.Seats)), 50)}}); err == nil {
				st = next
			}
		}
		_, err = svc.Games.Save(ctx, host, id, st.Game.Version, st.Game.Rated != (k%3 == 0))
		must(t, err)
	}
	// a guest becomes a member: his seats are linked (never in a game he sat in himself)
	guest := club.Player{Nick: "Visitor 3"}
	must(t, s.CreatePlayer(ctx, &guest))
	linkUser := &club.User{Login: "visitor3", Name: "V", Role: club.RoleMember, PasswordHash: "x", PlayerID: guest.ID}
	must(t, s.CreateUser(ctx, linkUser))
	if _, err := s.LinkGuest(ctx, "Visitor 3", 0, guest.ID, club.MemberChange{At: time.Now(), UserID: linkUser.ID, By: host.ID, Reason: "the same person"}); err != nil && club.ErrorCode(err) != club.NotFound {
		t.Fatal(err)
	}

	CheckRatings(t, s, svc, host, saved)
}

// CheckRatings checks a store's ratings against a straightforward recomputation from the records of the saved
// games among saved (every rule set's standings and Elo, the first page of each rating, each player's Elo history
// and his figures); host may load them. The demo club's season is checked with it too.
func CheckRatings(t *testing.T, s club.Store, svc *club.Services, host *club.User, saved []int64) {
	t.Helper()
	ctx := context.Background()
	type want struct {
		st      club.Standing
		stats   club.SeatStats
		elo     []int
		bestMov int
		co      map[club.CoPlayer]club.CoPlayer // by the other player and partner (no counts): his meetings
	}
	type played struct {
		st  *club.State
		key [2]int64
	}
	var all []played
	for _, id := range saved {
		st, err := svc.Games.Load(ctx, host, id)
		must(t, err)
		if st.Game.Status == club.GameSaved && st.Game.Rated && st.Game.StageID == 0 {
			all = append(all, played{st, [2]int64{st.Game.CreatedAt.UnixMilli(), id}})
		}
	}
	sort.Slice(all, func(i, j int) bool {
		return all[i].key[0] < all[j].key[0] || (all[i].key[0] == all[j].key[0] && all[i].key[1] < all[j].key[1])
	})
	for _, rs := range mafia.RuleSets() {
		wants := map[int64]*want{}
		elo := map[int64]int{}
		games, red := 0, 0
		for _, p := range all {
			if p.st.Game.Rules != rs.ID {
				continue
			}
			res := p.st.Play.Result()
			fig := figures(p.st.Record)
			var sum [2]float64
			var cnt [2]int
			for _, sr := range res.Seats {
				pid := p.st.Game.Seats[sr.Seat-1].PlayerID
				v := club.EloStart
				if pid != 0 {
					if _, ok := elo[pid]; !ok {
						elo[pid] = club.EloStart
					}
					v = elo[pid]
				}
				side := 0
				if sr.Team == mafia.Black {
					side = 1
				}
				sum[side] += float64(v)
				cnt[side]++
			}
			mean := func(i int) float64 {
				if cnt[i] == 0 {
					return club.EloStart
				}
				return sum[i] / float64(cnt[i])
			}
			pr := (float64(red) + 5) / (float64(games) + 10)
			adv := 400 * math.Log10(pr/(1-pr))
			e := 1 / (1 + math.Pow(10, ((mean(1)-mean(0))/100-adv)/400))
			score := map[mafia.Winner]float64{mafia.RedWins: 1, mafia.BlackWins: 0, mafia.Draw: 0.5}[p.st.Play.Winner()]
			d := int(math.Round(20 * (score - e) * 100))
			games++
			if p.st.Play.Winner() == mafia.RedWins {
				red++
			}
			for _, sr := range res.Seats {
				pid := p.st.Game.Seats[sr.Seat-1].PlayerID
				if pid == 0 {
					continue // R96: guests never count
				}
				w := wants[pid]
				if w == nil {
					w = &want{st: club.Standing{PlayerID: pid}}
					wants[pid] = w
				}
				if sr.Team == mafia.Black {
					elo[pid] -= d
				} else {
					elo[pid] += d
				}
				w.elo = append(w.elo, elo[pid])
				for _, other := range res.Seats {
					opid := p.st.Game.Seats[other.Seat-1].PlayerID
					if opid == 0 || opid == pid {
						continue
					}
					if w.co == nil {
						w.co = map[club.CoPlayer]club.CoPlayer{}
					}
					k := club.CoPlayer{PlayerID: opid, Partner: other.Team == sr.Team}
					c := w.co[k]
					c.PlayerID, c.Partner = opid, k.Partner
					c.Games++
					if sr.Won {
						c.Wins++
					}
					w.co[k] = c
				}
				w.st.Games++
				w.st.Points += sr.Points
				if i := club.RoleIndex(sr.Role.String()); i >= 0 {
					w.st.ByRole[i].Games++
					w.st.ByRole[i].Points += sr.Points
					if sr.Won {
						w.st.ByRole[i].Wins++
					}
				}
				if sr.Won {
					w.st.Wins++
				}
				f := fig[sr.Seat-1]
				a := &w.stats
				if f.FirstKilled {
					a.FirstKilled = true
					w.stats.Fouls += 0
				}
				if f.BestNamed > 0 {
					w.bestMov++
				}
				a.BestNamed += f.BestNamed
				a.BestBlacks += f.BestBlacks
				a.Checks += f.Checks
				a.ChecksBlack += f.ChecksBlack
				a.DonChecks += f.DonChecks
				a.DonFound += f.DonFound
				a.Votes += f.Votes
				a.VotesBlack += f.VotesBlack
				a.Noms += f.Noms
				a.NomsBlack += f.NomsBlack
				a.Fouls += f.Fouls
				if f.Disq {
					w.st.Rank++ // counts disqualifications here
				}
				if f.FirstKilled {
					w.st.Elo++ // counts first kills here
				}
			}
		}
		got, err := s.Standings(ctx, club.RatingFilter{Rules: rs.ID})
		must(t, err)
		if len(got) != len(wants) {
			t.Fatalf("%s: %d players in the standings, want %d", rs.ID, len(got), len(wants))
		}
		for _, g := range got {
			w := wants[g.PlayerID]
			if w == nil || g.Games != w.st.Games || g.Wins != w.st.Wins || g.Points != w.st.Points || g.ByRole != w.st.ByRole || g.Elo != elo[g.PlayerID] {
				t.Fatalf("%s, player %d: got %+v (Elo %d), want %+v (Elo %d)", rs.ID, g.PlayerID, g, g.Elo, w, elo[g.PlayerID])
			}
		}
		// the first page in the stated order
		page, err := svc.Records.Rating(ctx, club.RatingQuery{RatingFilter: club.RatingFilter{Rules: rs.ID}})
		must(t, err)
		club.SortStandings(got)
		if len(got) > 0 && (page.Total != len(got) || len(page.Lines) != min(len(got), club.RatingPageSize) || page.Lines[0].PlayerID != got[0].PlayerID ||
			page.Lines[len(page.Lines)-1].Rank != len(page.Lines)) {
			t.Errorf("%s: the first page %d lines of %d, first %d; want %d of %d, first %d", rs.ID, len(page.Lines), page.Total,
				page.Lines[0].PlayerID, min(len(got), club.RatingPageSize), len(got), got[0].PlayerID)
		}
		for pid, w := range wants {
			ps, err := svc.Records.PlayerStats(ctx, pid, rs.ID)
			must(t, err)
			var hist []int
			for _, h := range ps.History {
				hist = append(hist, h.Elo)
			}
			gotFig := club.SeatStats{BestNamed: ps.BestNamed, BestBlacks: ps.BestBlacks, Checks: ps.Checks, ChecksBlack: ps.ChecksBlack,
				DonChecks: ps.DonChecks, DonFound: ps.DonFound, Votes: ps.Votes, VotesBlack: ps.VotesBlack, Noms: ps.Noms, NomsBlack: ps.NomsBlack,
				Fouls: ps.Fouls, FirstKilled: ps.FirstKilled > 0}
			if ps.Games != w.st.Games || ps.Points != w.st.Points || ps.Wins != w.st.Wins || gotFig != w.stats ||
				ps.Disqualified != w.st.Rank || ps.FirstKilled != w.st.Elo || ps.BestMoves != w.bestMov || !slices.Equal(hist, w.elo) {
				gj, _ := json.Marshal(ps)
				t.Fatalf("%s, player %d: figures %s\nwant %+v %+v, best moves %d, disqualified %d, first killed %d, Elo %v",
					rs.ID, pid, gj, w.st, w.stats, w.bestMov, w.st.Rank, w.st.Elo, w.elo)
			}
			// his partners and opponents, every one of them (the page shows the five most frequent of each)
			co, err := s.CoPlayers(ctx, pid, rs.ID)
			must(t, err)
			gotCo := map[club.CoPlayer]club.CoPlayer{}
			for _, c := range co {
				if c.Nick == "" {
					t.Errorf("%s, player %d: co-player %d has no nickname", rs.ID, pid, c.PlayerID)
				}
				c.Nick = ""
				gotCo[club.CoPlayer{PlayerID: c.PlayerID, Partner: c.Partner}] = c
			}
			if len(gotCo) != len(co) || !maps.Equal(gotCo, w.co) && (len(gotCo) > 0 || len(w.co) > 0) {
				t.Fatalf("%s, player %d: partners and opponents %+v\nwant %+v", rs.ID, pid, co, w.co)
			}
			top := func(partner bool) []club.CoPlayer {
				var l []club.CoPlayer
				for _, c := range w.co {
					if c.Partner == partner {
						l = append(l, c)
					}
				}
				return l
			}
			for _, list := range [][2][]club.CoPlayer{{ps.Partners, top(true)}, {ps.Opponents, top(false)}} {
				if len(list[0]) != min(5, len(list[1])) {
					t.Fatalf("%s, player %d: %d of %d shown, want %d", rs.ID, pid, len(list[0]), len(list[1]), min(5, len(list[1])))
				}
				for i, c := range list[0] {
					if c.Nick == "" || w.co[club.CoPlayer{PlayerID: c.PlayerID, Partner: c.Partner}].Games != c.Games ||
						(i > 0 && list[0][i-1].Games < c.Games) {
						t.Fatalf("%s, player %d: shown %+v, want the most frequent of %+v", rs.ID, pid, list[0], list[1])
					}
				}
			}
		}
	}
}
