<?php
// The by-hand oracle: runs mafiaratings' own PHP (szotin/mafiaratings, include/) over files made by our
// exporter, with a fake MySQL driver in place of their database. It holds none of their code: it loads their
// include/ from a checkout given on the command line. Not run in CI; see internal/convert/testdata/mwt/README.md
// and internal/convert/testdata/mafiaratings-check/README.md for the commands and what they made.
//
//   php oracle.php MR_INCLUDE to-mwt   IN_DIR OUT_DIR   their convert_game_to_mwt on each mafiaratings game JSON
//   php oracle.php MR_INCLUDE from-mwt IN_DIR OUT_DIR   their convert_mwt_game on each MWT game JSON
//   php oracle.php MR_INCLUDE check    IN_DIR [OUT_DIR] their Game::check(fix) on each game JSON: prints every
//                                                      game it changes or finds an issue in (their check
//                                                      without fixing names every issue, not only the first)
//                                                      and writes the fixed JSON to OUT_DIR
//
// MR_INCLUDE is the include/ folder of a mafiaratings checkout (git archive COMMIT include | tar -x). It is
// copied to a temporary folder with an empty api_keys.php (their secrets file, not in their repository).
//
// The fake database answers the queries those functions make, with these fixed values (our Go tests use the
// same, internal/convert/mwt_oracle_test.go): the game is table 1, game 1 of MWT tournament 4242 (no seating
// and no MWT schema in the event's misc, round 0), the club's time zone America/Edmonton, and every user's MWT
// id is his mafiaratings id + 100000 (the moderator's too). On import the MWT tournament exists as tournament 1,
// club 1, round event 1, rules 0000000000000, and MWT user N is mafiaratings user N - 100000, named "MWT N".

error_reporting(E_ALL & ~E_WARNING & ~E_DEPRECATED & ~E_NOTICE);

const ORACLE_TZ = 'America/Edmonton';
const ORACLE_MWT_TOURNAMENT = 4242;
const ORACLE_ID_OFFSET = 100000;

if ($argc < 4) {
	fwrite(STDERR, "usage: php oracle.php MR_INCLUDE to-mwt|from-mwt|check IN_DIR [OUT_DIR]\n");
	exit(2);
}
list(, $mr, $mode, $in) = $argv;
$out = $argc > 4 ? $argv[4] : null;
if ($out !== null && !is_dir($out)) {
	mkdir($out, 0777, true);
}

// Their include/ in a temporary copy, with the secrets file it requires.
$tmp = sys_get_temp_dir() . '/mwt-oracle-' . getmypid();
@mkdir($tmp . '/include', 0777, true);
foreach (scandir($mr) as $f) {
	if (is_file("$mr/$f")) {
		copy("$mr/$f", "$tmp/include/$f");
	}
}
file_put_contents("$tmp/include/api_keys.php", "<?php\ndefine('DB_NAME', 'oracle'); define('DB_USER_NAME', 'oracle'); define('DB_PASSWORD', '');\n");
register_shutdown_function(function () use ($tmp) {
	foreach (scandir("$tmp/include") as $f) {
		if ($f != '.' && $f != '..') {
			unlink("$tmp/include/$f");
		}
	}
	rmdir("$tmp/include");
	rmdir($tmp);
});

// ---- a fake mysqli: their Db class uses these functions when they exist ----
// With PHP's own mysqli loaded (php-mysql installed), their Db would reach for a real server: run PHP without it,
// e.g. with PHP_INI_SCAN_DIR pointing at a copy of conf.d without the mysql ini files.
if (extension_loaded('mysqli')) {
	fwrite(STDERR, "oracle: PHP has the mysqli extension loaded; run it without (PHP_INI_SCAN_DIR=DIR, DIR holding conf.d's ini files but the mysql ones)\n");
	exit(2);
} else {
// (declared inside this block, so only once PHP's own mysqli is known to be absent)
define('MYSQLI_REPORT_OFF', 0);
class mysqli_result
{
	public $rows;
	function __construct($rows) { $this->rows = $rows; }
}
$GLOBALS['oracle_game'] = null; // the game JSON the games query returns
function mysqli_report($f) { return true; }
function mysqli_connect($h, $u, $p) { return new stdClass(); }
function mysqli_select_db($l, $n) { return true; }
function mysqli_set_charset($l, $c) { return true; }
function mysqli_connect_error() { return ''; }
function mysqli_error($l) { return ''; }
function mysqli_real_escape_string($l, $s) { return addslashes($s); }
function mysqli_num_rows($q) { return count($q->rows); }
function mysqli_fetch_row($q) { return array_shift($q->rows); }
function mysqli_query($l, $sql)
{
	if (preg_match('/^(INSERT|UPDATE|DELETE|START|BEGIN|COMMIT|ROLLBACK)/', $sql)) {
		return true;
	}
	if (strpos($sql, 'SELECT g.json, g.feature_flags') === 0) {
		$g = json_decode($GLOBALS['oracle_game']);
		$mod = isset($g->moderator->id) ? $g->moderator->id + ORACLE_ID_OFFSET : null;
		// json, feature_flags, table_num, game_num, misc, event name, event round, tournament id, MWT tournament
		// id, moderator's MWT id, moderator's name, the club's time zone
		return new mysqli_result([[$GLOBALS['oracle_game'], 0x3bff, 1, 1, '{}', 'Main round', 0, 1, ORACLE_MWT_TOURNAMENT, $mod, 'Moderator', ORACLE_TZ]]);
	}
	if (preg_match('/^SELECT id, mwt_id FROM users WHERE id IN\(([^)]*)\)/', $sql, $m)) {
		$rows = [];
		foreach (explode(',', $m[1]) as $id) {
			$id = trim($id);
			if ($id !== '') {
				$rows[] = [$id, (string)($id + ORACLE_ID_OFFSET)];
			}
		}
		return new mysqli_result($rows);
	}
	if (strpos($sql, 'SELECT id, start_time, duration, club_id, rules FROM tournaments WHERE mwt_id') === 0) {
		return new mysqli_result([['1', '0', '0', '1', '0000000000000']]);
	}
	if (strpos($sql, 'SELECT id FROM events WHERE tournament_id') === 0) {
		return new mysqli_result([['1']]);
	}
	if (preg_match("/^SELECT u.id, nu.name FROM users u .* WHERE u.mwt_id = '?(\\d+)'?/s", $sql, $m)) {
		return new mysqli_result([[(string)($m[1] - ORACLE_ID_OFFSET), 'MWT ' . $m[1]]]);
	}
	fwrite(STDERR, "oracle: the fake database has no answer for: $sql\n");
	exit(3);
}
}

require_once "$tmp/include/mwt_game.php";
$_profile = new stdClass();
$_profile->timezone = ORACLE_TZ;
$_profile->user_id = 1;
$_profile->user_name = 'oracle';

$files = glob(rtrim($in, '/') . ($mode == 'from-mwt' ? '/*.mwt.json' : '/*.json'));
sort($files);
$changed = 0;
foreach ($files as $file) {
	$name = basename($file);
	$json = file_get_contents($file);
	switch ($mode) {
	case 'to-mwt':
		$GLOBALS['oracle_game'] = $json;
		try {
			convert_game_to_mwt(1);
			fwrite(STDERR, "$name: convert_game_to_mwt returned without its result\n");
			exit(1);
		} catch (Exc $e) {
			// Their function ends by throwing the MWT game as formatted JSON inside <pre>: that is its output.
			$msg = $e->getMessage();
			if (strpos($msg, '<pre>') !== 0) {
				fwrite(STDERR, "$name: refused: $msg\n");
				continue 2;
			}
			$text = substr($msg, 5, strlen($msg) - 11);
			if (json_decode($text) === null) {
				fwrite(STDERR, "$name: their output is not JSON\n");
				exit(1);
			}
			file_put_contents("$out/" . preg_replace('/\.json$/', '.mwt.json', $name), $text . "\n");
		}
		break;
	case 'from-mwt':
		$game = convert_mwt_game(json_decode($json));
		file_put_contents("$out/" . preg_replace('/\.mwt\.json$/', '.mr.json', $name), formatted_json($game) . "\n");
		break;
	case 'check':
		$data = json_decode($json);
		unset($data->mafiaclub); // our own field: their create keeps it, their check never reads it
		$before = json_encode($data);
		// without fixing, their check goes on past the first issue and names them all
		$seen = new Game(json_decode($before));
		$seen->check(false);
		$g = new Game($data);
		$g->check(true);
		$after = json_encode($g->data);
		if ($before !== $after || isset($seen->issues)) {
			++$changed;
			$issues = isset($g->issues) ? implode(' | ', $g->issues) : '';
			$all = isset($seen->issues) ? implode(' | ', $seen->issues) : '';
			echo "$name: changed: $issues\n";
			if ($all !== '' && $all !== $issues) {
				echo "$name: issues: $all\n";
			}
			if ($out !== null) {
				file_put_contents("$out/$name", json_encode($g->data, JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE) . "\n");
			}
		}
		break;
	default:
		fwrite(STDERR, "unknown mode $mode\n");
		exit(2);
	}
}
if ($mode == 'check') {
	echo count($files) . " games checked, $changed changed\n";
}
