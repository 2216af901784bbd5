package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/convert"
	"mafiaclub/internal/demo"
	"mafiaclub/internal/sqlstore"
)

// Their ids: our ids plus these, so that nothing collides with what their sample database holds (users up to a
// few hundred, one club, one event, one tournament).
const (
	theirUserBase       = 10000 // + our player's id; a guest gets the next free one from theirGuestBase
	theirGuestBase      = 90000
	theirHostBase       = 80000 // + 0, 1, ...: the hosts (their moderators)
	theirEventBase      = 1000  // + our night's id
	theirTournamentBase = 1000  // + our tournament's id; its event is theirTournamentEvent + our id
	theirTournamentEvt  = 50000
	theirClub           = 1 // their sample database's club
)

// Manifest is what the peer's import script reads beside the games: the users, events and tournament their
// games refer to, with our ids and theirs.
type Manifest struct {
	Club        int        `json:"club"`
	Users       []MUser    `json:"users"`
	Events      []MEvent   `json:"events"`
	Tournaments []MTourney `json:"tournaments"`
	// Games are the files in the folder, named by our game's id, in that order: their import stores them in this
	// order into an emptied games table, so that their game ids are ours (it checks).
	Games   []string     `json:"games"`
	Pages   []PagePair   `json:"pages"`
	Skipped []SkippedOne `json:"skipped,omitempty"`
}

type MUser struct {
	Ours   int64  `json:"ours,omitempty"` // our player's id (0 for the hosts and guests)
	Theirs int    `json:"theirs"`
	Name   string `json:"name"`
}

type MEvent struct {
	Ours       int64  `json:"ours"`
	Theirs     int    `json:"theirs"`
	Name       string `json:"name"`
	Start      int64  `json:"start"` // Unix seconds
	Duration   int64  `json:"duration"`
	Tournament int    `json:"tournament,omitempty"` // theirs
}

type MTourney struct {
	Ours     int64  `json:"ours"`
	Theirs   int    `json:"theirs"`
	Name     string `json:"name"`
	Start    int64  `json:"start"`
	Duration int64  `json:"duration"`
}

type SkippedOne struct {
	Game   int64  `json:"game"`
	Reason string `json:"reason"`
}

// makeCmd builds our data folder from generated games and writes the same games as mafiaratings' game JSON.
func makeCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("make", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "our data folder to create (must not hold a database yet)")
	peer := fs.String("peer", "", "the folder for the peer's games (mafiaratings JSON) and manifest.json")
	games := fs.Int("games", 5000, "games in all")
	players := fs.Int("players", 329, "players in all")
	seed := fs.Uint64("seed", 1, "the generator's seed")
	tz := fs.String("tz", "America/Edmonton", "the club's time zone")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || *peer == "" {
		fmt.Fprintln(stderr, "pageload make: -data and -peer are required")
		return 2
	}
	zone, err := time.LoadLocation(*tz)
	if err != nil {
		fmt.Fprintf(stderr, "pageload make: %v\n", err)
		return 2
	}
	dbPath := filepath.Join(*data, "mafiaclub.db")
	if _, err := os.Stat(dbPath); err == nil {
		fmt.Fprintf(stderr, "pageload make: %s exists; start from an empty folder\n", dbPath)
		return 2
	}
	for _, d := range []string{*data, filepath.Join(*peer, "games")} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			fmt.Fprintf(stderr, "pageload make: %v\n", err)
			return 1
		}
	}
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, dbPath)
	if err != nil {
		fmt.Fprintf(stderr, "pageload make: %v\n", err)
		return 1
	}
	defer db.Close()
	rep, err := demo.History(ctx, db, demo.HistoryOptions{Seed: *seed, Zone: zone, Games: *games, Players: *players})
	if err != nil {
		fmt.Fprintf(stderr, "pageload make: %v\n", err)
		return 1
	}
	if rep == nil {
		fmt.Fprintln(stderr, "pageload make: the folder has a demo club already")
		return 1
	}
	fmt.Fprintf(stdout, "our side: %d games (%d at %d club nights, %d in the tournament) in %s\n",
		rep.Games, rep.ClubGames, rep.PastNights, rep.TournamentGames, rep.Took.Round(time.Second))
	return writePeer(ctx, db, zone, *peer, stdout, stderr)
}

// exportCmd writes the peer's folder again from a data folder that make built.
func exportCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "our data folder (made by pageload make)")
	peer := fs.String("peer", "", "the folder for the peer's games and manifest.json")
	tz := fs.String("tz", "America/Edmonton", "the club's time zone")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *data == "" || *peer == "" {
		fmt.Fprintln(stderr, "pageload export: -data and -peer are required")
		return 2
	}
	zone, err := time.LoadLocation(*tz)
	if err != nil {
		fmt.Fprintf(stderr, "pageload export: %v\n", err)
		return 2
	}
	if err := os.MkdirAll(filepath.Join(*peer, "games"), 0o750); err != nil {
		fmt.Fprintf(stderr, "pageload export: %v\n", err)
		return 1
	}
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, filepath.Join(*data, "mafiaclub.db"))
	if err != nil {
		fmt.Fprintf(stderr, "pageload export: %v\n", err)
		return 1
	}
	defer db.Close()
	return writePeer(ctx, db, zone, *peer, stdout, stderr)
}

func writePeer(ctx context.Context, db *sqlstore.DB, zone *time.Location, peer string, stdout, stderr io.Writer) int {
	m, err := exportPeer(ctx, db, zone, peer)
	if err != nil {
		fmt.Fprintf(stderr, "pageload make: %v\n", err)
		return 1
	}
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(peer, "manifest.json"), out, 0o640); err != nil {
		fmt.Fprintf(stderr, "pageload make: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "their side: %d games, %d users, %d events in %s (skipped %d)\n",
		len(m.Games), len(m.Users), len(m.Events), peer, len(m.Skipped))
	for _, p := range m.Pages {
		fmt.Fprintf(stdout, "page %s\t%s\t%s\n", p.Name, p.Paths[0], p.Paths[1])
	}
	return 0
}

// exportPeer writes every saved game as mafiaratings' create takes it, with the users, events and tournament it
// refers to in the manifest, and picks the pages that show the same on both sides.
func exportPeer(ctx context.Context, db *sqlstore.DB, zone *time.Location, dir string) (*Manifest, error) {
	svc := club.NewServices(db, club.NewClock(zone, time.Now))
	m := &Manifest{Club: theirClub}
	users := map[int64]int{}      // our player -> theirs
	guests := map[string]int{}    // a guest's name -> theirs
	hosts := map[int64]int{}      // our user (a host) -> theirs
	events := map[int64]*MEvent{} // our night -> theirs
	tevents := map[int64]*MEvent{}
	tours := map[int64]*MTourney{}
	stageTour := map[int64]int64{}
	ts, err := svc.Tournaments.List(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		ov, err := svc.Tournaments.Overview(ctx, t.ID)
		if err != nil {
			return nil, err
		}
		for _, st := range ov.Stages {
			stageTour[st.ID] = t.ID
		}
		tours[t.ID] = &MTourney{Ours: t.ID, Theirs: theirTournamentBase + int(t.ID), Name: t.Name}
	}
	ids, err := db.GameIDs(ctx)
	if err != nil {
		return nil, err
	}
	gamesOf := map[int64]int{} // our player -> games, for the page pair of the player with the most
	var lastGame, lastNight int64
	for _, id := range ids {
		st, err := svc.Records.Public(ctx, id)
		if err != nil {
			return nil, err
		}
		g := st.Game
		if g.Status != club.GameSaved {
			continue
		}
		start, end := g.CreatedAt.Unix(), g.SavedAt.Unix()
		meta := convert.MRMeta{ClubID: theirClub, Language: "en", Start: start, End: end, Players: map[int]int{}}
		mod, ok := hosts[g.HostID]
		if !ok {
			mod = theirHostBase + len(hosts)
			hosts[g.HostID] = mod
			m.Users = append(m.Users, MUser{Theirs: mod, Name: g.HostName})
		}
		meta.Moderator = mod
		for _, s := range g.Seats {
			var theirs int
			if s.PlayerID != 0 {
				if theirs, ok = users[s.PlayerID]; !ok {
					theirs = theirUserBase + int(s.PlayerID)
					users[s.PlayerID] = theirs
					m.Users = append(m.Users, MUser{Ours: s.PlayerID, Theirs: theirs, Name: s.Name})
				}
				gamesOf[s.PlayerID]++
			} else {
				if theirs, ok = guests[s.Name]; !ok {
					theirs = theirGuestBase + len(guests)
					guests[s.Name] = theirs
					m.Users = append(m.Users, MUser{Theirs: theirs, Name: s.Name})
				}
			}
			meta.Players[s.Seat] = theirs
		}
		var ev *MEvent
		switch {
		case g.NightID != 0:
			if ev = events[g.NightID]; ev == nil {
				n, err := db.Night(ctx, g.NightID)
				if err != nil {
					return nil, err
				}
				ev = &MEvent{Ours: n.ID, Theirs: theirEventBase + int(n.ID), Name: "Club night " + n.StartsAt.In(zone).Format("2 Jan 2006"),
					Start: n.StartsAt.Unix(), Duration: 5 * 3600}
				events[n.ID] = ev
			}
			lastNight = g.NightID
		case g.StageID != 0:
			tid := stageTour[g.StageID]
			t := tours[tid]
			if ev = tevents[tid]; ev == nil {
				ev = &MEvent{Ours: tid, Theirs: theirTournamentEvt + int(tid), Name: t.Name, Start: start, Tournament: t.Theirs}
				tevents[tid] = ev
				t.Start = start
			}
		default:
			m.Skipped = append(m.Skipped, SkippedOne{Game: id, Reason: "neither at a club night nor in a tournament"})
			continue
		}
		if start < ev.Start {
			ev.Duration += ev.Start - start
			ev.Start = start
		}
		if end > ev.Start+ev.Duration {
			ev.Duration = end - ev.Start
		}
		if ev.Tournament != 0 {
			t := tours[stageTour[g.StageID]]
			t.Start, t.Duration = ev.Start, ev.Duration
		}
		meta.EventID = ev.Theirs
		out, err := convert.ExportRecord(st.Record, meta)
		if err != nil {
			m.Skipped = append(m.Skipped, SkippedOne{Game: id, Reason: err.Error()})
			continue
		}
		name := fmt.Sprintf("games/%06d.json", id)
		if err := os.WriteFile(filepath.Join(dir, name), out, 0o640); err != nil {
			return nil, err
		}
		m.Games = append(m.Games, name)
		lastGame = id
	}
	for _, ev := range events {
		m.Events = append(m.Events, *ev)
	}
	for _, ev := range tevents {
		m.Events = append(m.Events, *ev)
	}
	sort.Slice(m.Events, func(i, j int) bool { return m.Events[i].Theirs < m.Events[j].Theirs })
	for _, t := range tours {
		if tevents[t.Ours] != nil {
			m.Tournaments = append(m.Tournaments, *t)
		}
	}
	var top int64
	for p, n := range gamesOf {
		if n > gamesOf[top] || n == gamesOf[top] && p < top {
			top = p
		}
	}
	m.Pages = []PagePair{
		{Name: "front door", Paths: [2]string{"/", fmt.Sprintf("/club_main.php?id=%d", theirClub)}},
		{Name: "rating", Paths: [2]string{"/rating", fmt.Sprintf("/club_ratings.php?id=%d", theirClub)}},
		{Name: fmt.Sprintf("player (%d games)", gamesOf[top]), Paths: [2]string{fmt.Sprintf("/players/%d", top), fmt.Sprintf("/user_info.php?id=%d", users[top])}},
		{Name: "game", Paths: [2]string{fmt.Sprintf("/history/%d", lastGame), fmt.Sprintf("/view_game.php?id=%d", lastGame)}},
		{Name: "club night", Paths: [2]string{fmt.Sprintf("/nights/%d", lastNight), fmt.Sprintf("/event_standings.php?id=%d", events[lastNight].Theirs)}},
	}
	for _, t := range m.Tournaments {
		m.Pages = append(m.Pages, PagePair{Name: "tournament standings", Paths: [2]string{fmt.Sprintf("/tournaments/%d", t.Ours), fmt.Sprintf("/tournament_standings.php?id=%d", t.Theirs)}})
	}
	return m, nil
}
