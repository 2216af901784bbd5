// mafiaclub's own script: timers with a beep and a vibration, keyboard shortcuts, confirmations and live updates.
// Every page works without it; the rules are the server's, never this script's.
(function () {
  'use strict';

  // Confirmation before destructive actions. A page that sends a form stops listening for live updates: the
  // answer to its own action is on its way.
  var submitting = false;
  document.addEventListener('submit', function (e) {
    var msg = e.target.getAttribute('data-confirm');
    if (msg && !window.confirm(msg)) { e.preventDefault(); return; }
    submitting = true;
    if (window.mafiaclubLive) { window.mafiaclubLive.close(); }
  });

  // The menu is open on a wide screen.
  var menu = document.querySelector('details.menu');
  if (menu && window.matchMedia('(min-width: 900px)').matches) { menu.open = true; }

  // The new-game form reloads itself when the rule set or the player count changes.
  document.querySelectorAll('[data-autoapply]').forEach(function (el) {
    el.addEventListener('change', function () { var b = document.getElementById('apply'); if (b) { b.click(); } });
  });

  // A best move names at most three seats.
  document.querySelectorAll('.seatpick[data-max]').forEach(function (box) {
    var max = +box.getAttribute('data-max');
    box.addEventListener('change', function (e) {
      if (box.querySelectorAll('input:checked').length > max) { e.target.checked = false; }
    });
  });

  // Roles are shown only when the host asks (players may see the screen).
  var roles = document.getElementById('show-roles');
  if (roles) {
    roles.checked = sessionStorage.getItem('showRoles') === '1';
    document.body.classList.toggle('show-roles', roles.checked);
    roles.addEventListener('change', function () {
      sessionStorage.setItem('showRoles', roles.checked ? '1' : '0');
      document.body.classList.toggle('show-roles', roles.checked);
    });
  }

  var game = document.getElementById('game');
  if (!game) { return; }
  var gameId = game.getAttribute('data-game');
  var version = +game.getAttribute('data-version');

  // The plan: steps the host only times (speeches, last words, tie speeches) are walked through here with "pass";
  // a step that records an event waits for the host's action.
  var steps = Array.prototype.slice.call(document.querySelectorAll('#plan .step'));
  var ptrKey = 'ptr:' + gameId + ':' + version;
  var ptr = +(sessionStorage.getItem(ptrKey) || 0);
  if (ptr >= steps.length) { ptr = 0; }

  var timerBox = document.getElementById('timer');
  var clock = document.getElementById('clock');
  var audio = null;
  function beep(ms, freq) {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var o = audio.createOscillator(); var g = audio.createGain();
      o.frequency.value = freq || 880; o.connect(g); g.connect(audio.destination);
      g.gain.value = 0.2; o.start(); o.stop(audio.currentTime + ms / 1000);
    } catch (err) { /* no sound on this device */ }
    if (navigator.vibrate) { navigator.vibrate(ms); }
  }

  // A timer's state survives page loads: it is kept per step in sessionStorage.
  function load(key) { try { return JSON.parse(sessionStorage.getItem('t:' + key)) || null; } catch (e) { return null; } }
  function save(key, st) { sessionStorage.setItem('t:' + key, JSON.stringify(st)); }
  var cur = null, tick = null;

  function remaining(st) {
    var used = st.used + (st.running ? (Date.now() - st.since) / 1000 : 0);
    return st.limit - used;
  }
  function show() {
    if (!cur) { return; }
    var left = remaining(cur.st);
    var s = Math.max(0, Math.ceil(left));
    clock.textContent = Math.floor(s / 60) + ':' + ('0' + s % 60).slice(-2);
    clock.classList.toggle('warn', left <= 10 && left > 0);
    clock.classList.toggle('over', left <= 0);
    if (cur.st.running) {
      if (left <= 10 && !cur.st.warned) { cur.st.warned = true; save(cur.key, cur.st); beep(200, 660); }
      if (left <= 0 && !cur.st.ended) { cur.st.ended = true; cur.st.running = false; cur.st.used = cur.st.limit; save(cur.key, cur.st); beep(700, 440); }
    }
  }
  function activate(i) {
    steps.forEach(function (el, j) { el.classList.toggle('active', j === i); });
    var el = steps[i];
    if (!el) { return; }
    var limit = +el.getAttribute('data-limit');
    if (!limit) { timerBox.hidden = true; cur = null; return; }
    var key = el.getAttribute('data-key');
    var st = load(key) || { limit: limit, used: 0, running: false, since: 0 };
    cur = { key: key, st: st };
    timerBox.hidden = false;
    show();
  }
  function start() { if (cur && !cur.st.running && remaining(cur.st) > 0) { cur.st.running = true; cur.st.since = Date.now(); save(cur.key, cur.st); beep(30, 1200); } }
  function pause() { if (cur && cur.st.running) { cur.st.used += (Date.now() - cur.st.since) / 1000; cur.st.running = false; save(cur.key, cur.st); } show(); }
  function reset() { if (cur) { cur.st = { limit: cur.st.limit, used: 0, running: false, since: 0 }; save(cur.key, cur.st); show(); } }
  function pass() {
    if (cur) { pause(); cur.st.used = cur.st.limit; cur.st.ended = true; save(cur.key, cur.st); }
    var el = steps[ptr];
    if (el && el.getAttribute('data-event') && !el.classList.contains('current')) { return; }
    if (ptr + 1 < steps.length) { ptr++; sessionStorage.setItem(ptrKey, ptr); activate(ptr); }
  }
  if (timerBox) {
    document.getElementById('t-start').onclick = start;
    document.getElementById('t-pause').onclick = pause;
    document.getElementById('t-reset').onclick = reset;
    document.getElementById('t-pass').onclick = pass;
    activate(ptr);
    tick = setInterval(show, 250);
  }

  // Keyboard on a laptop: N the main action, Space start/pause the timer, U undo (it still asks).
  document.addEventListener('keydown', function (e) {
    if (e.target.matches('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === 'n' || e.key === 'N') {
      var b = document.querySelector('[data-key="n"]'); if (b) { e.preventDefault(); b.click(); }
    } else if (e.key === ' ' && cur) {
      e.preventDefault(); if (cur.st.running) { pause(); } else { start(); }
    } else if (e.key === 'u' || e.key === 'U') {
      var d = document.getElementById('undo'); if (d) { e.preventDefault(); d.open = true; document.getElementById('undo-yes').focus(); }
    }
  });

  // Another device changed the game: reload at once unless the host is in the middle of ticking hands.
  if (window.EventSource && game.getAttribute('data-live') === 'true') {
    var es = new EventSource('/games/' + gameId + '/live');
    window.mafiaclubLive = es;
    es.addEventListener('version', function (ev) {
      if (submitting || +ev.data <= version) { return; }
      if (document.querySelector('.seatpick input:checked')) { document.getElementById('updated').hidden = false; return; }
      window.location.reload();
    });
    window.addEventListener('pagehide', function () { es.close(); });
  }
})();
