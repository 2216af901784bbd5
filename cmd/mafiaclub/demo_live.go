package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/demo"
	"mafiaclub/internal/live"
)

// defaultDemoPace is how long a full speech of the demo's live game takes.
const defaultDemoPace = 4 * time.Second

// demoFlags adds the demo's flags: -demo-pace (MAFIACLUB_DEMO_PACE), the live game's pace.
func demoFlags(fs *flag.FlagSet, c *config) {
	c.demoPace = defaultDemoPace
	if v := os.Getenv("MAFIACLUB_DEMO_PACE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			c.demoPaceBad, d = v, -1
		}
		c.demoPace = d
	}
	fs.DurationVar(&c.demoPace, "demo-pace", c.demoPace, "the demo club's live game: how long a full speech takes, every other step in proportion; 0 turns the live game off (MAFIACLUB_DEMO_PACE)")
}

// checkDemoPace refuses a pace that is no duration (the flag's own parsing refuses a bad -demo-pace).
func checkDemoPace(fs *flag.FlagSet, c *config, stderr io.Writer) bool {
	if c.demoPace >= 0 {
		return true
	}
	v := c.demoPace.String()
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "demo-pace" })
	if !set && c.demoPaceBad != "" {
		v = c.demoPaceBad
	}
	fmt.Fprintf(stderr, "mafiaclub: -demo-pace (MAFIACLUB_DEMO_PACE) is a duration like 4s, or 0 for no live game, not %q\n", v)
	return false
}

// demoSeason gives the demo club its season (the three months of club nights, the tournament, the nights to
// come) unless it has one, and says how long that took. A season that cannot be made is logged; the site serves
// what there is.
func demoSeason(ctx context.Context, db club.Store, clock *club.Clock, log *slog.Logger) {
	rep, err := demo.Season(ctx, db, demo.Options{Seed: demo.DefaultSeed, Now: clock.Now(), Zone: clock.Zone})
	if err != nil {
		log.Error("the demo club's season could not be made", "err", err)
		return
	}
	if rep == nil {
		return // made on an earlier run
	}
	log.Info(fmt.Sprintf("the demo club is ready: %d games, %d nights, a tournament of %d players, %d members in %.1f s",
		rep.Games, rep.Nights(), rep.TournamentPlayers, rep.Members, rep.Took.Seconds()),
		"games", rep.Games, "club_games", rep.ClubGames, "tournament_games", rep.TournamentGames, "nights", rep.Nights(),
		"members", rep.Members, "took", rep.Took.Round(time.Millisecond))
}

// startDemoLive starts the demo host's live game; the returned function stops it and waits until it has (at
// most an action being committed), before the database closes. Without the demo host it logs why and plays none.
func startDemoLive(ctx context.Context, db club.Store, svc *club.Services, hub *live.Hub, pace time.Duration, log *slog.Logger) (stop func()) {
	l, err := demo.NewLive(ctx, db, svc, pace)
	if err != nil {
		log.Error("the demo club's live game", "err", err)
		return func() {}
	}
	l.Log, l.Publish = log, hub.Publish
	lctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { l.Run(lctx) })
	log.Info("the demo host plays a live game", "pace", pace)
	return func() { cancel(); wg.Wait() }
}
