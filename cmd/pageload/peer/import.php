<?php
// Stores our generated games in a local mafiaratings (szotin/mafiaratings, run by hand as docs/peer.md says) the
// way their own judge's page does: each game JSON through their Game class's create(), in a transaction, as
// their api/ops/game.php op=create does, logged in as their sample database's admin. The users, events and the
// tournament the games refer to are put in first from our manifest, each row copied from the sample database's
// own (user 3, event 1, tournament 1) with our names, ids and times. It holds none of their code: it loads their
// include/ from the checkout named on the command line. Not run in CI.
//
//   php -d mysqli.default_port=PORT import.php MAFIARATINGS_DIR PEER_DIR -test
//
// -test is their own switch (include/server.php): their code then runs as on their developers' machines, with the
// database as root without a password on 127.0.0.1 and no e-mail sent (a game their check fixes "mails" the admin:
// in testing their code prints the mail instead, on standard output; the progress goes to standard error).
// PEER_DIR is what `pageload make` wrote (manifest.json and games/). Their sample games are deleted first, and
// the games table's counter reset, so that their game ids are ours (checked for every game).

error_reporting(E_ALL & ~E_WARNING & ~E_DEPRECATED & ~E_NOTICE);

if ($argc != 4 || $argv[3] != '-test') {
	fwrite(STDERR, "usage: php import.php MAFIARATINGS_DIR PEER_DIR -test\n");
	exit(2);
}
list(, $mr, $dir) = $argv;
$manifest = json_decode(file_get_contents("$dir/manifest.json"));
if ($manifest === null) {
	fwrite(STDERR, "$dir/manifest.json: not JSON\n");
	exit(2);
}

require_once "$mr/include/session.php";
require_once "$mr/include/game.php";
require_once "$mr/include/languages/en/labels.php";
$_default_date_translations = include("$mr/include/languages/en/date.php");
$_lang = get_lang_by_code('en');
$_profile = new Profile(1); // their sample database's admin

// Their sample games out, their users' counters back to none.
Db::begin();
foreach (array('dons', 'sheriffs', 'mafiosos', 'players', 'game_issues', 'current_games', 'event_scores_cache',
	'tournament_scores_cache', 'rebuild_ratings', 'games') as $table) {
	Db::exec($table, "DELETE FROM $table");
}
Db::exec('users', 'UPDATE users SET games = 0, games_won = 0, rating = 0, red_rating = 0, black_rating = 0, games_moderated = 0');
Db::commit();
Db::exec('games', 'ALTER TABLE games AUTO_INCREMENT = 1');

Db::begin();
foreach ($manifest->users as $u) {
	Db::exec('name', 'INSERT INTO names (name) VALUES (?)', $u->name);
	list($name_id) = Db::record('name', 'SELECT LAST_INSERT_ID()');
	Db::exec('user',
		'INSERT INTO users (id, password, auth_key, email, games_moderated, flags, languages, reg_time, def_lang, city_id, phone, club_id, ' .
			'games, games_won, rating, name_id, mwt_name, red_rating, black_rating, imafia_name, emo_name) ' .
		'SELECT ?, password, \'\', ?, 0, flags, languages, reg_time, def_lang, city_id, \'\', club_id, 0, 0, 0, ?, \'\', 0, 0, \'\', \'\' FROM users WHERE id = 3',
		$u->theirs, 'u' . $u->theirs . '@example.org', $name_id);
	Db::exec('club', 'INSERT INTO club_regs (user_id, club_id, flags) SELECT ?, club_id, flags FROM club_regs WHERE user_id = 3 AND club_id = ?',
		$u->theirs, $manifest->club);
}
foreach ($manifest->tournaments as $t) {
	Db::exec('tournament',
		'INSERT INTO tournaments (id, name, club_id, address_id, start_time, duration, langs, notes, scoring_id, rules, flags, scoring_version, ' .
			'standings_settings, scoring_options, normalizer_id, normalizer_version, type, num_players, rating_sum, rating_sum_20, traveling_distance, ' .
			'guest_coeff, num_regs, preparation_stage, team_size) ' .
		'SELECT ?, ?, club_id, address_id, ?, ?, langs, notes, scoring_id, rules, flags, scoring_version, standings_settings, scoring_options, ' .
			'normalizer_id, normalizer_version, type, 0, 0, 0, 0, guest_coeff, 0, preparation_stage, team_size FROM tournaments WHERE id = 1',
		$t->theirs, $t->name, $t->start, $t->duration);
}
$tournament_of = array();
foreach ($manifest->events as $e) {
	$tid = isset($e->tournament) ? $e->tournament : null;
	$tournament_of[$e->theirs] = $tid;
	Db::exec('event',
		'INSERT INTO events (id, name, address_id, club_id, start_time, notes, duration, flags, languages, scoring_id, standings_settings, ' .
			'tournament_id, rules, scoring_version, scoring_options, round) ' .
		'SELECT ?, ?, address_id, club_id, ?, notes, ?, flags, languages, scoring_id, standings_settings, ?, rules, scoring_version, scoring_options, 0 ' .
			'FROM events WHERE id = 1',
		$e->theirs, $e->name, $e->start, $e->duration, $tid);
}
Db::commit();

$t0 = microtime(true);
$n = 0;
$issues = 0;
foreach ($manifest->games as $file) {
	$ours = (int)basename($file, '.json');
	$json = json_decode(file_get_contents("$dir/$file"));
	unset($json->mafiaclub); // our own field: their create never reads it
	if (isset($tournament_of[$json->eventId])) {
		$json->tournamentId = $tournament_of[$json->eventId];
	}
	$game = new Game($json, GAME_FEATURE_MASK_ALL);
	Db::begin();
	$game->create();
	Db::commit();
	if (isset($game->issues)) {
		++$issues;
	}
	if ($game->data->id != $ours) {
		fwrite(STDERR, "$file: stored as their game " . $game->data->id . ", not $ours\n");
		exit(1);
	}
	if (++$n % 500 == 0) {
		fprintf(STDERR, "%d games, %.0f s\n", $n, microtime(true) - $t0);
	}
}
fprintf(STDERR, "stored %d games (%d with issues their check fixed) in %.0f s\n", $n, $issues, microtime(true) - $t0);
