// mafiaclub's host page: timers, keyboard, and the table app. With the engine (the Go rules engine compiled to
// WebAssembly, cmd/engine) each action is applied and drawn here at once, kept in the browser's storage
// (IndexedDB) until the server has it, and sent in order with its idempotency key and the version it builds on.
// The server checks every action again with the same engine. No rule is decided in this script: the engine reads
// the forms and draws the page. Without the engine (an old browser, the engine not built yet) the forms are posted
// as plain forms and the page reloads.
(function () {
  'use strict';

  var host = document.getElementById('host');
  var inputEl = document.getElementById('host-input');
  if (!host || !inputEl) { return; }
  var input = JSON.parse(inputEl.textContent);
  var gameId = input.game;
  var clubBase = document.body.getAttribute('data-base') || ''; // the club's path prefix ("" or "/c/SLUG"), before its every address and storage name
  var app = null; // the table app, once its engine runs

  // ---- timers and the plan (steps the host only times are walked through with "pass") ----

  var audio = null;
  // beep sounds after the next frame: making the page's sound (its first AudioContext) took a quarter of a second
  // here, and "next speaker", which starts the timer with a beep, must show the next speaker first
  function beep(ms, freq) {
    requestAnimationFrame(function () {
      setTimeout(function () {
        try {
          audio = audio || new (window.AudioContext || window.webkitAudioContext)();
          var o = audio.createOscillator(); var g = audio.createGain();
          o.frequency.value = freq || 880; o.connect(g); g.connect(audio.destination);
          g.gain.value = 0.2; o.start(); o.stop(audio.currentTime + ms / 1000);
        } catch (err) { /* no sound on this device */ }
        if (navigator.vibrate) { navigator.vibrate(ms); }
      }, 0);
    });
  }
  function loadTimer(key) { try { return JSON.parse(sessionStorage.getItem('t:' + key)) || null; } catch (e) { return null; } }
  function saveTimer(key, st) { sessionStorage.setItem('t:' + key, JSON.stringify(st)); }
  var steps = [], ptr = 0, ptrKey = '', cur = null, clock = null, timerBox = null;

  function remaining(st) { return st.limit - (st.used + (st.running ? (Date.now() - st.since) / 1000 : 0)); }
  function show() {
    if (!cur || !clock) { return; }
    var left = remaining(cur.st);
    var s = Math.max(0, Math.ceil(left));
    // written only when it differs (once a second, not at every tick)
    var text = Math.floor(s / 60) + ':' + ('0' + s % 60).slice(-2);
    if (clock.textContent !== text) { clock.textContent = text; }
    var started = cur.st.running || cur.st.used > 0;
    clock.classList.toggle('warn', started && left <= 10 && left > 0);
    clock.classList.toggle('over', started && left <= 0);
    if (cur.st.running) {
      if (left <= 10 && !cur.st.warned) { cur.st.warned = true; saveTimer(cur.key, cur.st); beep(200, 660); }
      if (left <= 0 && !cur.st.ended) { cur.st.ended = true; cur.st.running = false; cur.st.used = cur.st.limit; saveTimer(cur.key, cur.st); beep(700, 440); }
    }
  }
  function activate(i) {
    // the steps passed fold away: the plan's box keeps its height, and shows the step under way first
    steps.forEach(function (el, j) { el.classList.toggle('active', j === i); el.classList.toggle('passed', j < i); });
    var el = steps[i];
    if (!el || !timerBox) { return; }
    var limit = +el.getAttribute('data-limit');
    if (!limit) { timerBox.hidden = true; cur = null; return; }
    var key = el.getAttribute('data-key');
    cur = { key: key, st: loadTimer(key) || { limit: limit, used: 0, running: false, since: 0 } };
    timerBox.hidden = false;
    show();
  }
  function start() { if (cur && !cur.st.running && remaining(cur.st) > 0) { cur.st.running = true; cur.st.since = Date.now(); saveTimer(cur.key, cur.st); beep(30, 1200); } show(); }
  function pause() { if (cur && cur.st.running) { cur.st.used += (Date.now() - cur.st.since) / 1000; cur.st.running = false; saveTimer(cur.key, cur.st); } show(); }
  function reset() { if (cur) { cur.st = { limit: cur.st.limit, used: 0, running: false, since: 0 }; saveTimer(cur.key, cur.st); show(); } }
  // shift moves the timer by seconds (a host who started it late or early): more time left for positive ones.
  function shift(sec) {
    if (!cur) { return; }
    if (cur.st.running) { var now = Date.now(); cur.st.used += (now - cur.st.since) / 1000; cur.st.since = now; } // a running timer's time so far counts
    cur.st.used = Math.max(0, Math.min(cur.st.limit, cur.st.used - sec));
    cur.st.warned = cur.st.warned && remaining(cur.st) <= 10;
    cur.st.ended = cur.st.ended && remaining(cur.st) <= 0;
    saveTimer(cur.key, cur.st); show();
  }
  function pass() {
    if (cur) { pause(); cur.st.used = cur.st.limit; cur.st.ended = true; saveTimer(cur.key, cur.st); }
    var el = steps[ptr];
    if (el && el.getAttribute('data-event') && !el.classList.contains('current')) { return; }
    if (ptr + 1 < steps.length) { ptr++; sessionStorage.setItem(ptrKey, ptr); activate(ptr); }
  }
  // bindPlan reads the plan of the page as drawn (at load, and after each action the engine drew).
  function bindPlan() {
    var game = document.getElementById('game');
    steps = Array.prototype.slice.call(document.querySelectorAll('#plan .step'));
    ptrKey = 'ptr:' + gameId + ':' + (game ? game.getAttribute('data-version') : '');
    ptr = +(sessionStorage.getItem(ptrKey) || 0);
    if (ptr >= steps.length) { ptr = 0; }
    timerBox = document.getElementById('timer');
    clock = document.getElementById('clock');
    cur = null;
    activate(ptr);
    // "next speaker" starts the speech's timer: one tap per speech
    if (sessionStorage.getItem('autostart:' + gameId) === '1') {
      sessionStorage.removeItem('autostart:' + gameId);
      if (cur && steps[ptr] && steps[ptr].getAttribute('data-key').indexOf('-speech-') > 0) { start(); }
    }
  }
  setInterval(show, 250);

  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button');
    if (!b || !b.id) { return; }
    switch (b.id) {
      case 't-start': start(); break;
      case 't-pause': pause(); break;
      case 't-reset': reset(); break;
      case 't-pass': pass(); break;
      case 't-minus': shift(-10); break;
      case 't-plus': shift(10); break;
      default: return;
    }
    e.preventDefault();
  });

  // Roles are shown only when the host asks (players may see the screen); a best move names at most three seats.
  function bindRoles() {
    var roles = document.getElementById('show-roles');
    var on = sessionStorage.getItem('showRoles') === '1';
    if (roles) { roles.checked = on; }
    document.body.classList.toggle('show-roles', on);
  }
  document.addEventListener('change', function (e) {
    var t = e.target;
    if (t.id === 'show-roles') {
      sessionStorage.setItem('showRoles', t.checked ? '1' : '0');
      document.body.classList.toggle('show-roles', t.checked);
      return;
    }
    var box = t.closest && t.closest('.seatpick[data-max]');
    if (box && box.querySelectorAll('input:checked').length > +box.getAttribute('data-max')) { t.checked = false; }
  });

  // Keyboard on a laptop: N the main action, Space start/pause the timer, U undo (it still asks), Z "nobody" in a
  // vote once it is started (no hands raised; in a lift vote, nobody leaves: some twenty Tab presses away
  // otherwise), digits pick a seat (1-9, 0 for 10) for the action at hand: a hand in a vote, or the seat's own
  // button (nominate, shoot, check, heal).
  document.addEventListener('keydown', function (e) {
    if (e.target.matches('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === 'n' || e.key === 'N') {
      var b = Array.prototype.find.call(document.querySelectorAll('[data-key="n"]'), shown); if (b) { e.preventDefault(); b.click(); }
    } else if (e.key === ' ' && cur) {
      e.preventDefault(); if (cur.st.running) { pause(); } else { start(); }
    } else if (e.key === 'z' || e.key === 'Z') {
      var none = Array.prototype.find.call(document.querySelectorAll('#act-nobody, #act-lift-nobody'), function (x) { return !x.disabled && shown(x); });
      if (none) { e.preventDefault(); none.click(); }
    } else if (e.key === 'u' || e.key === 'U') {
      var d = document.getElementById('undo'); if (d) { e.preventDefault(); d.open = true; document.getElementById('undo-yes').focus(); }
    } else if (/^[0-9]$/.test(e.key)) {
      var seat = e.key === '0' ? 10 : +e.key;
      var pick = document.querySelector('.panel .seatpick input[value="' + seat + '"]:not(:disabled)');
      if (pick && shown(pick)) { e.preventDefault(); pick.click(); return; }
      var own = document.querySelector('#seat-' + seat + ' .seat-main:not(:disabled)');
      if (own) { e.preventDefault(); own.click(); }
    }
  });

  // shown: the element is laid out (not in a folded box, not hidden): the voting's folded form keeps its main
  // action and its hands out of the keys' reach until the host starts the vote
  function shown(el) { return el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0; }

  // ---- plain mode: forms are posted, the page reloads ----

  var submitting = false;
  document.addEventListener('submit', function (e) {
    if (e.defaultPrevented) { return; }
    var type = e.target.elements && e.target.elements.type;
    if (type && type.value === 'speech') { sessionStorage.setItem('autostart:' + gameId, '1'); }
    if (!app) { submitting = true; if (live) { live.close(); } }
  });

  var live = null, onVersion = [];
  function plainLive() {
    if (!window.EventSource || !input.live) { return; }
    live = new EventSource(clubBase + '/games/' + gameId + '/live');
    onVersion.forEach(function (f) { live.addEventListener('version', f); });
    // the stream open again (the host logged in again, the server is back): what waits is sent
    live.onopen = function () { if (app) { pump(); } };
    live.onerror = function () {
      // a refused stream (the server at its bound of streams, a session ended) is not resumed by the browser:
      // open it again a little later, at a time of its own so that many pages do not come back together
      if (live.readyState === 2 && !submitting) { setTimeout(plainLive, 5000 + Math.random() * 10000); }
    };
  }
  function whenVersion(f) { onVersion.push(f); if (live) { live.addEventListener('version', f); } }
  whenVersion(function (ev) {
    if (app || submitting || +ev.data <= input.version) { return; }
    if (document.querySelector('.seatpick input:checked')) { document.getElementById('updated').hidden = false; return; }
    // a GET of the game, never a reload: the page may be the answer to a form, which a reload would send again
    window.location.replace(clubBase + '/games/' + gameId);
  });
  window.addEventListener('pagehide', function () { if (live) { live.close(); } });
  // a page the browser kept in its back-forward cache shows the game as it was, its stream closed, and (drawn by
  // the engine) forms with no version for a plain post: the game is loaded again
  window.addEventListener('pageshow', function (e) { if (e.persisted) { window.location.replace(clubBase + '/games/' + gameId); } });

  // ---- a game taken over: the device of the host it was taken from says so, once ----

  // hostSeen notes the game's host in a page or state the device draws (this tab's storage keeps the last one):
  // when that was this account and another host has the game now, the server's words (who, when) are shown, once,
  // outside the part the table app redraws
  function hostSeen(inp) {
    var key = 'host:' + clubBase + ':' + gameId, me = host.getAttribute('data-user');
    var before = sessionStorage.getItem(key), now = String(inp.host || '');
    sessionStorage.setItem(key, now);
    var box = document.getElementById('taken-over');
    if (box && before === me && now !== me && inp.taken_over) {
      box.textContent = inp.taken_over;
      box.hidden = false;
    }
  }

  bindPlan();
  bindRoles();
  plainLive();
  hostSeen(input);
  if ('serviceWorker' in navigator && input.live) {
    // the service worker keeps the game pages it serves; the first visit, before it serves any, keeps this one here
    navigator.serviceWorker.register(clubBase + '/sw.js').then(function () {
      if (!navigator.serviceWorker.controller && window.caches) { return caches.open('mafiaclub-pages' + clubBase).then(function (c) { return c.add(location.pathname); }); }
    }).catch(function () { /* no page for a reload offline */ });
  }

  // ---- the table app ----

  var engineURL = host.getAttribute('data-engine'), execURL = host.getAttribute('data-exec');
  var userId = +host.getAttribute('data-user');
  // the installation's person whose account here this is ("" for a club's own account): his session ends in every
  // club at once, so his logout in any club of this origin makes the browser forget his games in all of them
  var personId = host.getAttribute('data-person') || '';
  if (!input.live && window.indexedDB) {
    // a saved game needs nothing kept on this device (its record holds the roles): forget it
    var del = indexedDB.open('mafiaclub' + clubBase, 1);
    del.onupgradeneeded = function () { del.result.createObjectStore('games', { keyPath: 'game' }); };
    del.onsuccess = function () { try { del.result.transaction('games', 'readwrite').objectStore('games').delete(gameId); } catch (err) { /* nothing kept */ } };
  }
  if (!input.live || !engineURL || !window.WebAssembly || !window.indexedDB || !window.fetch || !window.Worker) { return; }

  // each tap's times in ms, read by the measurements: the engine's answer, the page drawn, the next frame begun
  var parts = window.mafiaclubTapParts = [];
  var lang = document.documentElement.lang || 'uk';
  var base = input; // the game as the server confirmed it
  var ops = []; // the host's actions not yet saved, in order: {key, form, at} or {key, undo: true}
  // the host's actions tapped that the engine has not taken yet (they join ops when it has); kept with ops in the
  // browser's storage from the tap on, so that a reload in between replays them
  var tapped = [];
  var seen = input.version; // the newest version the server told of
  var busy = false, conflict = false, offline = !navigator.onLine, retry = 0, retryTimer = null;
  var pendingText = '', offlineText = '';
  var fullText = ''; // what the page says while the server's disk is full (507), taken back once an action is saved

  // -- the engine, in a worker: starting it never blocks the page; each call is answered in order --
  var worker = null, calls = {}, callID = 0, lastCallMs = 0;
  function call(fn) {
    var args = Array.prototype.slice.call(arguments, 1);
    return new Promise(function (resolve, reject) {
      var id = ++callID;
      calls[id] = { resolve: resolve, reject: reject };
      worker.postMessage(fn === 'start' ? { id: id, start: args[0] } : { id: id, fn: fn, args: args });
    });
  }
  function answer(fn) { return call.apply(null, arguments).then(function (r) { pendingText = r.status || ''; return r; }); }
  // exclusive runs one engine exchange at a time (a tap, a save's confirmation, a new game from the server), so
  // that this page's list of actions always mirrors the engine's
  var chain = Promise.resolve();
  function exclusive(f) { var p = chain.then(f); chain = p.catch(function () {}); return p; }

  // timeOf tells an action's time as the chronology shows it, in the club's time zone: with the zone's offset from
  // UTC that the server gave with the page, so that it reads as the server will write it once it has the action
  // (the browser's own time zone data may disagree with the server's, and loading it costs 100 ms)
  var offset = +host.getAttribute('data-offset') || 0;
  function timeOf(at) {
    if (typeof at !== 'number') { return at; } // told already
    var d = new Date(at + offset * 1000);
    function two(n) { return (n < 10 ? '0' : '') + n; }
    return two(d.getUTCHours()) + ':' + two(d.getUTCMinutes()) + ':' + two(d.getUTCSeconds());
  }
  function newKey() {
    var a = new Uint8Array(16); crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (x) { return ('0' + x.toString(16)).slice(-2); }).join('');
  }
  // -- storage: one record per game, {game, base, ops}, written after every change --
  var dbp = null;
  function db() {
    if (!dbp) {
      dbp = new Promise(function (resolve, reject) {
        var req = indexedDB.open('mafiaclub' + clubBase, 1);
        req.onupgradeneeded = function () { req.result.createObjectStore('games', { keyPath: 'game' }); };
        req.onsuccess = function () { resolve(req.result); };
        req.onerror = function () { reject(req.error); };
      });
    }
    return dbp;
  }
  function stored() {
    return db().then(function (d) {
      return new Promise(function (resolve, reject) {
        var req = d.transaction('games').objectStore('games').get(gameId);
        req.onsuccess = function () { resolve(req.result || null); };
        req.onerror = function () { reject(req.error); };
      });
    });
  }
  var writing = Promise.resolve();
  var keep = true; // false once this account logs out: the page keeps nothing more
  function persist() {
    if (!keep) { return writing; }
    var rec = { game: gameId, user: userId, base: base, ops: ops.concat(tapped) };
    if (personId) { rec.person = +personId; }
    writing = writing.then(function () { return db(); }).then(function (d) {
      return new Promise(function (resolve) {
        if (!keep) { resolve(); return; } // logged out meanwhile
        var tx = d.transaction('games', 'readwrite');
        tx.objectStore('games').put(rec);
        tx.oncomplete = resolve; tx.onerror = resolve; tx.onabort = resolve;
      });
    });
    return writing;
  }
  // forget: this account logs out, in this tab (the site's script calls it before it posts the logout) or in another
  // of the browser's tabs (which tells of it in localStorage), or its person logs out in any club of this origin. The page keeps nothing more and sends nothing more
  // (logging out asked about the actions not yet saved, and drops them), and the game it kept is deleted, after any
  // write under way. The page still shows what it showed; the browser keeps none of it.
  function forget() {
    if (keep) {
      keep = false; app = null; ops = []; tapped = []; conflict = false; submitting = true;
      clearTimeout(retryTimer);
      if (live) { live.close(); }
      writing = writing.catch(function () {}).then(function () { return db(); }).then(function (d) {
        return new Promise(function (resolve) {
          var tx = d.transaction('games', 'readwrite');
          tx.objectStore('games').delete(gameId);
          tx.oncomplete = resolve; tx.onerror = resolve; tx.onabort = resolve;
        });
      });
    }
    return writing;
  }
  window.addEventListener('storage', function (e) {
    if (e.key === 'mafiaclub:out' + clubBase && e.newValue === String(userId)) { forget(); }
    if (e.key === 'mafiaclub:out-person' && personId && e.newValue === personId) { forget(); }
  });

  // -- drawing: the page the engine drew is morphed into the old one; the seat or panel the host touched stays
  // where it was on the screen --
  function anchorOf(el) {
    var a = el && el.closest && el.closest('.seat[id], .panel[id], details[id], section[id]:not(#game)');
    var main = !!(el && el.closest && el.closest('[data-key="n"]'));
    if (!a) { return main ? { id: '', main: true } : null; }
    return { id: a.id, top: a.getBoundingClientRect().top, main: main };
  }
  // bringStep scrolls the step's own panel of hands or seats to pick (the best move, the vote, the lift vote) into
  // view when the main action brought it, or the host unfolded it: the main action stays where it is, at the bottom
  // of the screen, and the step's controls come where he sees them
  function bringStep() {
    var f = stepForm();
    if (f) { f.scrollIntoView({ block: 'nearest' }); }
  }
  // stepForm is the form of the step's panel shown (null when none). A step brought is a form that was not shown
  // before the tap: the next candidate's vote is the same form, whose layout does not change (app.css), and the
  // page is not scrolled under the host's finger, which would move the tiles he is about to touch.
  // It reads no layout (a folded vote is a closed details): it runs in the tap, before the morph.
  function stepForm() {
    var pick = document.querySelector('#stage .seatpick');
    return pick && !pick.closest('details:not([open])') ? pick.closest('form') : null;
  }
  // The stage (the step's panels between the plan and the table) never gets shorter under a tap on anything but
  // the main action, which has its own place at the bottom of the screen: a shorter stage moved the table up under
  // the host's finger where the page could not scroll to make up for it (near its top). The main action, and a page
  // drawn for no tap of this host's (another device's action), let it take its own height again. Its height is
  // read in the frame, with the anchor's.
  var stageMin = 0;
  function holdStage(hold) {
    if (!hold && stageMin) { stageMin = 0; host.style.removeProperty('--stage'); }
  }
  function measureStage() {
    var stage = document.getElementById('stage');
    var h = stage ? stage.offsetHeight : 0;
    if (h > stageMin) { stageMin = h; host.style.setProperty('--stage', h + 'px'); }
  }
  // a box unfolded in the stage (the host started the vote) makes it taller: the next tap keeps that too; the vote's
  // hands come into view
  document.addEventListener('toggle', function (e) {
    if (!app) { return; }
    var voting = e.target.classList.contains('voting') && e.target.open;
    if (document.getElementById('game').contains(e.target)) { armGuard(); }
    requestAnimationFrame(function () { if (voting) { bringStep(); } measureStage(); });
  }, true);
  // morph makes the old element like the fresh one, touching only what differs, so that a tap costs the browser
  // little layout work: equal subtrees are kept, lists that grew get their new items appended. Form fields are
  // always taken fresh (a form's hidden fields change with the game, and a ticked box must not survive).
  function morph(old, fresh) { apply(plan(old, fresh, [])); }
  // plan lists what morph(old, fresh) does, reading both and changing neither, so that the comparison can run
  // before the tap (when the finger touches the button) and the tap only makes the changes. Each step names its
  // nodes; what it sets is read from the fresh node when the step is applied (a drawing's time is filled in
  // between the two).
  function plan(old, fresh, steps) {
    if (old.isEqualNode(fresh)) {
      if (old.nodeName === 'INPUT') { steps.push(['checked', old, fresh]); }
      return steps;
    }
    if (old.nodeName === 'INPUT' && fresh.nodeName === 'INPUT' && old.type === 'hidden' && fresh.type === 'hidden' && old.name === fresh.name) {
      steps.push(['value', old, fresh]); // a hidden field's new value (a speaker, a version): no layout to redo
      return steps;
    }
    if (old.nodeType !== 1 || old.nodeName !== fresh.nodeName || old.id !== fresh.id || /^(INPUT|SELECT|TEXTAREA)$/.test(old.nodeName)) {
      steps.push([old.nodeType === 3 && fresh.nodeType === 3 ? 'data' : 'replace', old, fresh]);
      return steps;
    }
    var i, a;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      a = old.attributes[i].name;
      if (!fresh.hasAttribute(a) && !(a === 'open' && old.nodeName === 'DETAILS')) { steps.push(['unset', old, a]); }
    }
    for (i = 0; i < fresh.attributes.length; i++) {
      a = fresh.attributes[i];
      if (old.getAttribute(a.name) !== a.value) { steps.push(['set', old, a.name, fresh]); }
    }
    // the children are matched by their kind (tag, id, a field's name), not by position: a panel that comes or goes
    // does not make every later sibling (the table of ten seats) differ from the one before it
    var oc = old.childNodes, fc = fresh.childNodes;
    var left = {}, k, j = 0;
    for (i = 0; i < fc.length; i++) { k = kindOf(fc[i]); left[k] = (left[k] || 0) + 1; }
    for (i = 0; i < fc.length; i++) {
      k = kindOf(fc[i]);
      while (j < oc.length && !left[kindOf(oc[j])]) { steps.push(['remove', oc[j++]]); } // none of its kind comes any more
      if (j < oc.length && kindOf(oc[j]) === k) { plan(oc[j++], fc[i], steps); } else { steps.push(['insert', old, fc[i], oc[j] || null]); }
      left[k]--;
    }
    while (j < oc.length) { steps.push(['remove', oc[j++]]); }
    return steps;
  }
  function apply(steps) {
    for (var i = 0; i < steps.length; i++) {
      var s = steps[i], n = s[1];
      switch (s[0]) {
        case 'checked': if (n.checked !== s[2].checked) { n.checked = s[2].checked; } break;
        case 'value': n.value = s[2].value; break;
        case 'data': n.data = s[2].data; break;
        case 'replace': n.replaceWith(s[2]); break;
        case 'unset': n.removeAttribute(s[2]); break;
        case 'set': n.setAttribute(s[2], s[3].getAttribute(s[2])); break;
        case 'remove': n.remove(); break;
        case 'insert': n.insertBefore(s[2], s[3]); break;
      }
    }
  }
  function kindOf(n) {
    return n.nodeType !== 1 ? '#' + n.nodeType : n.nodeName + '#' + n.id + (n.nodeName === 'INPUT' ? '@' + n.name + ':' + n.type : '');
  }
  function parsed(html) {
    var t = document.createElement('template');
    t.innerHTML = html;
    return t.content;
  }
  // draw shows the page the engine drew (r.html, or r.page parsed already)
  // the last drawing: whether it applied a plan made before the tap, and its changes' time (read by the measurements)
  var drewPlanned = false, drewMs = 0;
  // the host's last input: a key or a pointer (a finger, a mouse)
  var lastInput = '';
  document.addEventListener('keydown', function () { lastInput = 'key'; }, true);
  document.addEventListener('pointerdown', function () { lastInput = 'pointer'; }, true);
  function draw(r, anchor) {
    var old = document.getElementById('game');
    var fresh = (r.page || parsed(r.html)).querySelector('#game');
    if (!old || !fresh) { return; }
    // a focused element taken out of the page makes the browser lay the page out there and then, in the middle of
    // the morph: the focus is let go first, and given back after if its element stays and a keyboard put it there
    // (giving it back costs a style pass in the tap: 1-5 ms here). Whether a keyboard put it there is asked of the
    // browser (:focus-visible, a style pass of its own: 1-5 ms under a tap's :active) only after a key.
    var focused = document.activeElement, keyboard = false;
    if (focused && focused !== document.body && old.contains(focused)) {
      keyboard = lastInput === 'key' && focused.matches(':focus-visible');
      focused.blur();
    }
    var stepBefore = anchor && anchor.main ? stepForm() : null;
    drewPlanned = !!(r.steps && r.planned === old && r.gen === pageNow());
    var m0 = performance.now();
    if (drewPlanned) { apply(r.steps); } else { morph(old, fresh); }
    drewMs = performance.now() - m0;
    // the main action that keeps its step (the next candidate's vote, the same form) holds the stage too: the page
    // scrolled to its bottom would otherwise be pulled up under the tiles by whatever the stage let go below them
    var step = anchor && anchor.main ? stepForm() : null;
    holdStage(!!anchor && (!anchor.main || !!step && step === stepBefore));
    if (!app) { actionFields(true); } // drawn before the table app runs (kept actions replayed at its start)
    bindPlan();
    bindRoles();
    status();
    if (keyboard && focused.isConnected) { focused.focus({ preventScroll: true }); }
    // the one read of the new layout comes in the frame, before it is painted: the tap's task ends sooner, and the
    // page is laid out once
    requestAnimationFrame(function () {
      var el = anchor && anchor.id && document.getElementById(anchor.id);
      if (el) { window.scrollBy(0, el.getBoundingClientRect().top - anchor.top); }
      if (anchor && anchor.main && step !== stepBefore) { bringStep(); }
      measureStage();
    });
    armGuard(); // its hint's hit test comes in the frame after the scroll above
    resetAhead();
  }
  function say(text, kind) {
    var box = document.getElementById('game-error');
    if (!box) {
      box = document.createElement('p');
      box.id = 'game-error';
      box.setAttribute('role', 'alert');
      var game = document.getElementById('game');
      game.insertBefore(box, game.querySelector('.gamehead').nextSibling);
    }
    box.className = kind || 'error';
    box.textContent = text;
    box.hidden = !text;
  }
  function status() {
    var box = document.getElementById('sync');
    var parts = [];
    if (ops.length && pendingText) { parts.push(pendingText); }
    if (offline) { parts.push(offlineText); }
    // only what differs is written: a change to the page makes the plan made at a finger's touch stale
    var text = parts.join(' · ');
    if (box.textContent !== text) { box.textContent = text; }
    if (box.hidden !== (parts.length === 0)) { box.hidden = parts.length === 0; }
    if (box.classList.contains('offline') !== offline) { box.classList.toggle('offline', offline); }
  }

  // -- drawing ahead: while the host looks at the page, the engine draws the page as it would be after each action
  // the page offers, taking nothing (ahead); a tap on one of them shows that drawing at once, its time filled in,
  // and the engine takes the action after. The likeliest are drawn first: the main action, each seat's own button,
  // the others, the undo. A form the host changes (a hand ticked in a vote) is drawn again as it now reads. --
  var ahead = {}, aheadQueue = null, aheadGen = 0, aheadBusy = false, aheadCalls = 0;
  function actionKey(kind, form) { return kind === 'undo' ? 'undo' : 'act:' + form; }
  function submitters(f) { return f.querySelectorAll('button:not([type=button]):not(:disabled), input[type=submit]:not(:disabled)'); }
  // actionsOf lists a form's actions, likeliest first; what each sends is read from the form only when it is
  // drawn (reading 30 forms at once was a 15-25 ms task here)
  function actionsOf(f) {
    var m = (f.getAttribute('action') || '').match(/\/(act|undo)$/);
    if (!m) { return []; }
    if (m[1] === 'undo') { return [{ kind: 'undo', rank: 3 }]; }
    return Array.prototype.map.call(submitters(f), function (b) {
      return { kind: 'act', f: f, b: b, rank: b.getAttribute('data-key') === 'n' ? 0 : b.classList.contains('seat-main') ? 1 : 2 };
    });
  }
  function candidates() {
    var all = [];
    Array.prototype.forEach.call(document.querySelectorAll('#game form'), function (f) {
      actionsOf(f).forEach(function (c) { c.i = all.length; all.push(c); });
    });
    return all.sort(function (a, b) { return a.rank - b.rank || a.i - b.i; });
  }
  // read fills in what an action sends, as its form reads now
  function read(c) {
    c.form = c.kind === 'undo' ? '' : formOf(c.f, c.b);
    c.key = actionKey(c.kind, c.form);
    return c;
  }
  // dropAhead forgets what was drawn ahead, for a page that is no longer the one shown
  function dropAhead() { aheadGen++; ahead = {}; aheadQueue = null; host.removeAttribute('data-ahead'); }
  function resetAhead() {
    dropAhead();
    // after the next frame (the page just drawn comes first), and after the exchange that drew it, queued first
    if (app) { requestAnimationFrame(function () { setTimeout(function () { releaseAhead(); nextAhead(); }, 0); }); }
  }
  // A tap has the device to itself: from the finger's touch on an action to the frame that shows it, the engine
  // draws nothing more ahead, so that its thread leaves the cores to the page's (on a busy phone, or this machine
  // with other work, the worker's drawings took the core the tap and its frame waited for). The drawing under way
  // ends first; the rest go on after the tap's frame, or half a second after a touch that was no tap.
  var aheadHeld = 0;
  function holdAhead() {
    clearTimeout(aheadHeld);
    aheadHeld = setTimeout(function () { aheadHeld = 0; nextAhead(); }, 500);
  }
  function releaseAhead() { clearTimeout(aheadHeld); aheadHeld = 0; }
  // Drawing ahead is for the device the host taps: not while the page is hidden, nor on a device that follows
  // another's actions, until it is touched again.
  var aheadWanted = true;
  document.addEventListener('visibilitychange', function () { nextAhead(); });
  ['pointerdown', 'keydown'].forEach(function (type) {
    document.addEventListener(type, function () { if (!aheadWanted) { aheadWanted = true; nextAhead(); } }, true);
  });
  function nextAhead() {
    if (!app || aheadBusy || aheadHeld || conflict || document.hidden || !aheadWanted) { return; }
    if (!aheadQueue) { aheadQueue = candidates(); }
    var c;
    do { c = aheadQueue.shift(); } while (c && read(c).key in ahead);
    // every action of the page drawn ahead: the measurements wait for it (a host's first tap comes seconds after
    // the page, not at once)
    if (!c) { host.setAttribute('data-ahead', 'done'); return; }
    var gen = aheadGen;
    aheadBusy = true;
    aheadCalls++;
    exclusive(function () { return call('ahead', c.form, c.kind === 'undo'); }).then(function (r) {
      aheadBusy = false;
      if (gen === aheadGen) {
        ahead[c.key] = r.error ? null : r;
      }
      nextAhead();
    }, function () { aheadBusy = false; });
  }
  // A drawing is parsed when the host's finger touches its button (pointerdown comes 50-150 ms before the click),
  // so that a tap only fills in the time and morphs; a key (no pointerdown) parses it in the tap. Parsing the main
  // action's drawing in idle time instead was a task of 10-35 ms, the longest of the page's after its load. The
  // time's mark must stand in text only, where it is filled in.
  // The page's comparison with the drawing is made then too (plan), and the tap applies it, unless the page
  // changed in between (a timer's tick, a message, another device's action): then the tap compares again.
  function parse(r) {
    if (!r.page) {
      var page = document.importNode(parsed(r.html), true), found = 0, w = document.createTreeWalker(page, NodeFilter.SHOW_TEXT), n, marked = [];
      while ((n = w.nextNode())) { if (n.data.indexOf(r.mark) >= 0) { found += n.data.split(r.mark).length - 1; marked.push(n); } }
      if (found !== r.html.split(r.mark).length - 1) { return; }
      r.page = page; r.marked = marked;
    }
    var old = document.getElementById('game'), fresh = r.page.querySelector('#game');
    if (changes && old && fresh && !(r.steps && r.planned === old && r.gen === pageNow())) {
      r.gen = pageNow(); r.planned = old; r.steps = plan(old, fresh, []);
    }
  }
  // pageNow counts the changes made to the game's part of the page: a plan is applied only to the page it was
  // made from. The timer's clock does not count: its ticks change nothing a plan reads or makes (a plan's step on
  // the clock's text or class is put right by the tap's own bindPlan, which writes the clock as it then reads), and
  // a speech's clock ticking between the touch and the click made a third of its taps compare again in the tap.
  function clocked(m) {
    if (m.attributeName === 'data-inert') { return true; } // the guard's dimming: nothing a plan reads or makes either
    var n = m.target.nodeType === 1 ? m.target : m.target.parentNode;
    return !!n && n.id === 'clock';
  }
  function counted(records) {
    for (var i = 0; i < records.length; i++) { if (!clocked(records[i])) { return true; } }
    return false;
  }
  var pageGen = 0, changes = window.MutationObserver && new MutationObserver(function (records) { if (counted(records)) { pageGen++; } });
  if (changes && document.getElementById('game')) {
    changes.observe(document.getElementById('game'), { subtree: true, childList: true, attributes: true, characterData: true });
  }
  function pageNow() {
    if (!changes) { return -1; } // no way to tell: never planned ahead (-1 stands for "changed")
    if (counted(changes.takeRecords())) { pageGen++; }
    return pageGen;
  }
  // What the tap itself would read of the page is read at the touch too (touch): the form as it sends (FormData)
  // and where the touched seat or panel is on the screen (a layout, under the press's new style). The tap uses them
  // if it is the click of that touch on the page as it was: no change to the game's part of the page (pageNow), no
  // field edited, no scroll in between; otherwise it reads them itself.
  var touch = null, edits = 0;
  ['input', 'change'].forEach(function (type) { document.addEventListener(type, function () { edits++; }, true); });
  window.addEventListener('scroll', function () { touch = null; }, { capture: true, passive: true });
  document.addEventListener('pointerdown', function (e) {
    touch = null;
    var b = e.target.closest && e.target.closest('button');
    var f = b && b.form;
    if (!app || !f || !document.getElementById('game').contains(f)) { return; }
    var m = (f.getAttribute('action') || '').match(/\/(act|undo)$/);
    if (!m) { return; }
    holdAhead();
    var form = m[1] === 'undo' ? '' : formOf(f, b);
    var r = ahead[actionKey(m[1], form)];
    if (r) { parse(r); }
    touch = { b: b, f: f, form: form, anchor: anchorOf(b), gen: pageNow(), edits: edits };
  }, true);
  // touched answers what the touch read, if the tap on submitter of f is its click on the same page
  function touched(f, submitter) {
    var t = touch;
    touch = null;
    return t && lastInput === 'pointer' && t.b === submitter && t.f === f && t.edits === edits && t.gen === pageNow() ? t : null;
  }
  // timed fills an action's time in for the mark in a drawing made ahead
  function timed(r, at) {
    if (!r.page) { return { html: r.html.split(r.mark).join(at) }; }
    r.marked.forEach(function (n) { n.data = n.data.split(r.mark).join(at); });
    return r;
  }
  document.addEventListener('change', function (e) {
    var f = e.target.form;
    if (!app || !f || !document.getElementById('game').contains(f)) { return; }
    if (!aheadQueue) { aheadQueue = candidates(); }
    aheadQueue = actionsOf(f).concat(aheadQueue); // drawn next, as the form now reads
    host.removeAttribute('data-ahead');
    nextAhead();
  });

  // -- the guard: a control that has just appeared, or changed its meaning, under the host's finger does not take a
  // tap meant for the one before it. A finger's second touch on the same spot 0.1-0.3 s after the first (a tap that
  // bounced, a hurried double tap) landed on what the first tap had drawn there: "the town falls asleep" twice ended
  // the night, the last candidate's "record the votes" twice started it. For GUARD_MS after the page changed under
  // a tap (drawn, or a vote unfolded), a control whose box overlaps the box of the control that tap took, and whose
  // action differs, ignores taps (and is dimmed meanwhile). An action is what the control records on the game as the
  // page shows it: a control of the page drawn after the tap acts on the next version of the game, so a second foul
  // on the same seat is another action too; a tile ticked, or the timer's buttons, change no page and arm nothing.
  // 400 ms: longer than the 300 ms within which a phone takes two taps for one double tap (Android's double-tap
  // timeout), since an accidental second touch comes sooner than that; shorter than a host's deliberate next tap,
  // which reads the new page first (a visual reaction alone takes a quarter of a second, then the finger comes down
  // again). Touches and pens are guarded; a mouse only when the browser counts its click as a double click (its
  // detail), since a mouse clicks once where it is pointed; the keyboard never. A tap compares one or two boxes.
  var GUARD_MS = 400;
  var pressed = null, lastTap = null, guard = null, ignored = 0, pointerType = '';
  // controlOf is the control a tap's target belongs to, in the game's part of the page: a tile is its label (a
  // finger's tap on it may be given to its hidden box)
  function controlOf(t) {
    var c = t && t.closest && (t.closest('label') || t.closest('button, summary, input, select, a'));
    var game = document.getElementById('game');
    return c && game && game.contains(c) ? c : null;
  }
  function actionOf(c) {
    var game = document.getElementById('game'), v = game.getAttribute('data-version') + ' ';
    if (c.nodeName === 'SUMMARY') { return v + 'open ' + (c.parentNode.id || ''); }
    var f = c.form || (c.nodeName === 'LABEL' && c.querySelector('input') ? c.querySelector('input').form : null);
    if (c.nodeName === 'LABEL') { var i = c.querySelector('input'); return v + 'pick ' + (f ? f.id : '') + ' ' + (i ? i.name + '=' + i.value : ''); }
    if (f && (c.nodeName === 'BUTTON' || c.type === 'submit')) { return v + (f.getAttribute('action') || '') + ' ' + formOf(f, c); }
    return v + c.nodeName + ' ' + c.id + ' ' + (c.name || '');
  }
  function overlap(a, b) { return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }
  // the box of the control pressed is read at the finger's touch, with the layout the touch reads anyway
  window.addEventListener('pointerdown', function (e) {
    pointerType = e.pointerType || '';
    var c = app && controlOf(e.target);
    pressed = c ? { c: c, box: c.getBoundingClientRect() } : null;
  }, true);
  window.addEventListener('click', function (e) {
    if (!app || !e.detail) { return; } // a key, or a script's click
    var c = controlOf(e.target);
    if (!c) { return; }
    // the tap's time is the input's own (a busy page handles a touch later than it came)
    var seen = performance.now(), now = e.timeStamp && e.timeStamp <= seen ? e.timeStamp : seen;
    var box = pressed && pressed.c === c ? pressed.box : c.getBoundingClientRect(), act = actionOf(c);
    var type = e.pointerType || pointerType;
    if (guard && now < guard.until && (type !== 'mouse' || e.detail > 1) && overlap(box, guard.box) && act !== guard.action) {
      e.preventDefault(); e.stopImmediatePropagation();
      ignored++;
      return;
    }
    // a tap taken elsewhere ends the guard: the finger has moved on, and its next touch here is meant
    if (guard && !overlap(box, guard.box)) { guard = null; }
    lastTap = { box: box, action: act, at: now, seen: seen };
    // until the page has changed (armGuard), nothing at this box takes a tap: a second touch before the engine drew
    // the first one's page would send the same action again
    if (c.nodeName === 'SUMMARY' || (c.nodeName === 'BUTTON' || c.type === 'submit') && c.form && /\/(act|undo)$/.test(c.form.getAttribute('action') || '')) {
      guard = { box: box, action: '', until: now + GUARD_MS };
    }
  }, true);
  // armGuard: the page changed under the host's last tap (if it was a moment ago). The guard counts from the tap
  // when the page changed in the tap's own task (drawn ahead: the host sees it in the next frame), else from the
  // change (the engine drew it later).
  function armGuard() {
    var now = performance.now();
    if (!lastTap || now - lastTap.at > 1000) { return; }
    guard = { box: lastTap.box, action: lastTap.action, until: (now - lastTap.seen < 20 ? lastTap.at : now) + GUARD_MS };
    var g = guard;
    // the control now under the finger is dimmed while it ignores taps: one hit test, in the frame
    requestAnimationFrame(function () {
      var b = g.box, c = controlOf(document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2));
      if (!c || guard !== g || actionOf(c) === g.action) { return; }
      c.setAttribute('data-inert', '');
      setTimeout(function () { c.removeAttribute('data-inert'); }, Math.max(0, g.until - performance.now()));
    });
  }

  // -- the host's action: shown at once (drawn ahead) or applied and drawn by the engine, then kept and sent --
  // actionFields sets the key and version fields of the forms of actions and the undo, which the page fills in
  // itself when it sends them: blank while the table app runs, as the engine draws them; for a plain post (plain),
  // a fresh key and the confirmed version (a post over actions not yet sent is refused as a conflict)
  function actionFields(plain) {
    var fields = document.querySelectorAll(['act', 'undo'].map(function (a) { return '#game form[action$="/' + a + '"] input[name=key], #game form[action$="/' + a + '"] input[name=version]'; }).join(', '));
    Array.prototype.forEach.call(fields, function (i) { i.value = !plain ? '' : i.name === 'key' ? newKey() : base.version; });
  }
  function formOf(f, submitter) {
    var data = new URLSearchParams(new FormData(f, submitter));
    data.delete('key'); data.delete('version'); data.delete('act');
    return data.toString();
  }
  // the moment of the host's tap (the click's own time), from which a tap is measured
  var tapAt = 0;
  document.addEventListener('click', function (e) { tapAt = e.timeStamp; }, true);
  function local(kind, f, submitter) {
    var t0 = performance.now();
    if (tapAt && tapAt <= t0 && t0 - tapAt < 1000) { t0 = tapAt; }
    tapAt = 0;
    var handled = performance.now() - t0; // the wait for the page's thread, and the click's way to this handler
    var read = touched(f, submitter);
    var anchor = read ? read.anchor : anchorOf(submitter || f);
    var op = kind === 'undo' ? { key: newKey(), undo: true } : { key: newKey(), form: read ? read.form : formOf(f, submitter), at: timeOf(Date.now()) };
    var speech = f.elements.type && f.elements.type.value === 'speech';
    var drawn = ahead[actionKey(kind, op.form)] || null;
    dropAhead(); // drawn for the page as it was
    // measured takes a tap's times: the page drawn (now), the next frame begun (its requestAnimationFrame)
    function measured(engineMs, workerMs) {
      var drawnMs = performance.now() - t0, planned = drewPlanned, morphMs = drewMs;
      requestAnimationFrame(function () {
        var frame = performance.now() - t0;
        parts.push({ type: op.undo ? 'undo' : (f.elements.type && f.elements.type.value) || '', engine: engineMs, worker: workerMs, drawn: drawnMs, frame: frame, ahead: !!drawn, planned: planned, handled: handled, morph: morphMs });
        performance.measure('tap-to-frame', { start: t0, end: t0 + frame });
      });
    }
    if (drawn) {
      if (speech) { sessionStorage.setItem('autostart:' + gameId, '1'); }
      draw(timed(drawn, op.at), anchor);
      measured(0, 0);
    }
    tapped.push(op);
    persist(); // a tap the page shows is kept at once, before the engine has taken it
    // untap takes op out of the tapped ones (into ops if the engine took it): true if it was still there
    function untap() { var i = tapped.indexOf(op); if (i >= 0) { tapped.splice(i, 1); } return i >= 0; }
    return exclusive(function () {
      // a tap shown at once has its frame first: the engine (another thread) takes the action after it, so that
      // the tap's frame has the cores (a busy phone's, this machine's under load) to itself
      return (drawn ? afterFrame() : Promise.resolve()).then(function () {
        return op.undo ? answer('undo', !!drawn) : answer('act', op.form, op.at, !!drawn);
      }).then(function (r) {
        var engineMs = performance.now() - t0, workerMs = lastCallMs;
        if (r.error) {
          untap();
          persist();
          say(r.error);
          if (!drawn) { resetAhead(); return null; } // the page stays as it was; its actions are drawn ahead again
          // drawn ahead, but the game moved on under the page meanwhile (another device's actions): the page as it is
          return answer('draw').then(function (d) { draw(d, null); say(r.error); });
        }
        if (speech && !drawn) { sessionStorage.setItem('autostart:' + gameId, '1'); }
        untap();
        ops.push(op);
        if (r.html) {
          draw(r, drawn ? null : anchor); // drawn ahead from a game that has moved on since: drawn again
          if (!drawn) { measured(engineMs, workerMs); }
        } else {
          status();
        }
        persist().then(pump);
      });
    }).catch(function (err) {
      engineFailed(err); // the engine itself failed (it may be gone)
      resetAhead();
    }).finally(function () {
      if (untap()) { persist(); } // the engine failed: the action is not kept
      if (!tapped.length) { pump(); } // what waited for the engine to take the host's taps
    });
  }

  document.addEventListener('submit', function (e) {
    if (!app) { return; }
    var f = e.target;
    var m = ((f.getAttribute('action') || '').indexOf(clubBase + '/') === 0 ? f.getAttribute('action').slice(clubBase.length) : '').match(/^\/games\/\d+\/(act|undo|save|reopen|approve-extra)$/);
    if (!m) { return; }
    var confirmText = confirmOf(f);
    if (m[1] === 'act' || m[1] === 'undo') {
      e.preventDefault(); e.stopImmediatePropagation();
      if (confirmText && !window.confirm(confirmText)) { return; }
      local(m[1], f, e.submitter);
      return;
    }
    // saving, reopening and the chief judge's approval need the server, with every action sent first
    if (ops.length || tapped.length || offline) {
      e.preventDefault(); e.stopImmediatePropagation();
      call('t', 'host.needs_network').then(function (text) { say(text); });
      return;
    }
    // asked here, before the page leaves the table app: a "no" keeps it (its forms are the engine's, with no
    // version for a plain post), and the site's script does not ask again
    e.stopImmediatePropagation();
    if (confirmText && !window.confirm(confirmText)) { e.preventDefault(); return; }
    app = null; // the page is left for the server's answer
    if (live) { live.close(); }
  }, true);

  // confirmOf is what a form asks before it is sent: the chosen seat's own question where the form has one for each
  // (what a disqualification or a team's loss of that player will do, as the engine says), else the form's
  function confirmOf(f) {
    var chosen = f.querySelector('option[data-confirm]:checked');
    return chosen ? chosen.getAttribute('data-confirm') : f.getAttribute('data-confirm');
  }

  // -- sending, in order, one at a time --
  function post(op, version) {
    var body = (op.undo ? 'confirm=yes' : op.form) + '&key=' + op.key + '&version=' + version;
    return fetch(clubBase + '/games/' + gameId + (op.undo ? '/undo' : '/act'), {
      method: 'POST', credentials: 'same-origin', redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept': 'application/json' }, body: body
    });
  }
  function fetchState() {
    return fetch(clubBase + '/games/' + gameId + '/state.json', { credentials: 'same-origin', headers: { 'Accept': 'application/json' }, cache: 'no-store', redirect: 'manual' })
      .then(function (res) {
        if (!res.ok) {
          var err = new Error('state ' + res.status);
          err.refused = res.status === 401 || res.status === 403 || res.type === 'opaqueredirect'; // the server answered
          throw err;
        }
        return res.json();
      });
  }
  // rebase takes the server's game as the confirmed one and applies the actions not yet saved on top (keep), or
  // drops them; those the engine now refuses are dropped, and the host is told.
  function rebase(fresh, keep) {
    dropAhead(); // drawn for a game that is not the server's
    return exclusive(function () {
      return call('load', JSON.stringify(fresh)).then(function (err) {
        if (err) { var e = new Error(err); e.said = err; throw e; } // the game cannot be read: the engine's words
        base = fresh;
        hostSeen(fresh);
        seen = Math.max(seen, fresh.version);
        if (!keep) { ops = []; }
        var sent = ops.slice();
        return answer('replay', JSON.stringify(sent)).then(function (r) {
          ops = sent.filter(function (_, i) { return !r.refused || r.refused.indexOf(i) < 0; });
          draw(r, null);
          var told = r.refused && r.refused.length ? call('t', 'host.refused.n', r.refused.length).then(function (text) { say(text + ' ' + r.error); }) : null;
          return Promise.all([persist(), told]);
        });
      });
    }).catch(function (err) { err.engine = true; throw err; }); // not the network's: pump must not say "offline"
  }
  // engineFailed says that the engine failed, in the page's words (the engine's own, when it gave them), the cause
  // to the console
  function engineFailed(err) {
    say((err && err.said) || host.getAttribute('data-failed'));
    if (window.console) { console.warn('mafiaclub: the engine failed', err); }
  }
  function later() {
    clearTimeout(retryTimer);
    retry = Math.min(retry + 1, 5);
    retryTimer = setTimeout(pump, 1000 * Math.pow(2, retry - 1)); // 1, 2, 4, 8, 16 s
  }
  function setOffline(v) { if (offline !== v) { offline = v; status(); } }

  function pump() {
    if (busy || conflict || !app) { return; }
    busy = true;
    step().then(function (again) { busy = false; if (again) { pump(); } }, function (err) {
      busy = false;
      if (err && err.refused) { // not the network: the session ended, or the game is no longer this host's
        call('t', 'host.login_again').then(function (text) { say(text); });
        return;
      }
      if (err && err.engine) { engineFailed(err); return; }
      setOffline(true);
      later();
    });
  }
  // commit tells the engine that the server saved the first action waiting, at version.
  function commit(version) {
    return exclusive(function () {
      return answer('commit', version).then(function (r) {
        if (r.error) { return false; }
        ops.shift();
        base = JSON.parse(r.base);
        seen = Math.max(seen, version);
        status();
        return persist().then(function () { return true; });
      });
    });
  }
  // step does one exchange with the server; it answers whether there may be more to do.
  function step() {
    if (ops.length) {
      var op = ops[0], version = base.version;
      return post(op, version).then(function (res) {
        setOffline(false); retry = 0;
        if (res.ok && fullText) {
          var box = document.getElementById('game-error');
          if (box && box.textContent === fullText) { box.hidden = true; }
          fullText = '';
        }
        if (res.ok) {
          return res.json().then(function (a) {
            return (a.version === version + 1 ? commit(a.version) : Promise.resolve(false)).then(function (done) {
              if (done) { return true; }
              // recorded before (a retry whose first answer was lost) or drawn otherwise by the server: its game
              // is the truth, and the action is done
              if (ops[0] === op) { ops.shift(); }
              return fetchState().then(function (fresh) { return rebase(fresh, true); }).then(function () { return true; });
            });
          });
        }
        if (res.status === 409) {
          return fetchState().then(function (fresh) {
            // an undo carries no key on the server: if the game is exactly this one with its last event taken back,
            // a version later, it was this undo, whose first answer was lost
            var had = ((base.record || {}).events || []).length, now = ((fresh.record || {}).events || []).length;
            if (op.undo && fresh.version === version + 1 && now === had - 1) {
              if (ops[0] === op) { ops.shift(); }
              return rebase(fresh, true).then(function () { return true; });
            }
            return openConflict(fresh).then(function () { return false; });
          });
        }
        if (res.status === 400 || res.status === 422) {
          // the server refused this action; the others wait on the game as the server has it
          return res.json().catch(function () { return {}; }).then(function (a) {
            if (ops[0] === op) { ops.shift(); }
            return fetchState().then(function (fresh) { return rebase(fresh, true); })
              .then(function () { return call('t', 'host.server_refused'); })
              .then(function (text) { say(text + ' ' + (a.error || '')); return true; });
          });
        }
        if (res.status === 401 || res.status === 403 || res.type === 'opaqueredirect') {
          call('t', 'host.login_again').then(function (text) { say(text); });
          return false;
        }
        if (res.status === 507) {
          // the server's disk is full: nothing was recorded, and nothing changes until its admin frees space. The
          // actions stay kept here and are sent again in a minute, or at the host's next tap; not at once.
          return res.json().catch(function () { return {}; }).then(function (a) {
            return Promise.all([a.error ? a.error : call('t', 'error.no_space'), call('t', 'host.no_space_kept')]);
          }).then(function (texts) {
            fullText = texts[0] + ' ' + texts[1];
            say(fullText);
            clearTimeout(retryTimer);
            retryTimer = setTimeout(pump, 60000);
            return false;
          });
        }
        later(); // the server is busy or failed: try again
        return false;
      });
    }
    if (seen > base.version) { // another device moved the game on: follow it, sending nothing
      return fetchState().then(function (fresh) {
        setOffline(false);
        // an action was taken meanwhile: it is sent, and refused if the game has moved on (the conflict's choice);
        // one still with the engine is sent when the engine has taken it (local pumps then)
        if (ops.length || tapped.length) { seen = Math.max(seen, fresh.version); return ops.length > 0; }
        aheadWanted = false; // following: drawing ahead waits for this device's host to touch it
        return rebase(fresh, false).then(function () { return true; });
      });
    }
    return Promise.resolve(false);
  }

  // -- another device changed the game while this one had actions waiting --
  var pendingFresh = null;
  function openConflict(fresh) {
    return call('t', 'host.conflict.n', ops.length).then(function (text) {
      conflict = true;
      pendingFresh = fresh;
      var box = document.getElementById('conflict');
      document.getElementById('conflict-text').textContent = text;
      box.hidden = false;
      box.scrollIntoView({ block: 'nearest' });
    });
  }
  function closeConflict(keep) {
    if (!conflict) { return; }
    var fresh = pendingFresh, n = ops.length;
    pendingFresh = null;
    document.getElementById('conflict').hidden = true;
    rebase(fresh, keep).then(function () {
      conflict = false;
      nextAhead();
      if (!keep) { return call('t', 'host.dropped.n', n).then(function (text) { say(text, 'notice'); }); }
    }).then(pump, function (err) { conflict = false; engineFailed(err); });
  }
  document.getElementById('conflict-reapply').addEventListener('click', function () { closeConflict(true); });
  document.getElementById('conflict-drop').addEventListener('click', function () { closeConflict(false); });

  window.addEventListener('online', function () { retry = 0; pump(); });
  window.addEventListener('offline', function () { setOffline(true); });

  // -- start: the engine, the page's language, the game (the stored one if it is newer or has actions waiting) --
  function startEngine() {
    worker = new Worker('/static/engine-worker.js');
    worker.onmessage = function (e) {
      var c = calls[e.data.id];
      delete calls[e.data.id];
      if (!c) { return; }
      lastCallMs = e.data.ms;
      if (e.data.error) { c.reject(new Error(e.data.error)); } else { c.resolve(e.data.result); }
    };
    return call('start', { exec: execURL, wasm: engineURL, lang: lang, catalog: '/static/i18n/' + lang + '.json' }).then(function () {
      return Promise.all([call('t', 'host.offline'), stored().catch(function () { return null; })]);
    }).then(function (got) {
      offlineText = got[0];
      var rec = got[1];
      // what another account kept on this device is not this host's to see or to send
      if (rec && rec.user === userId && rec.base && (rec.ops.length || rec.base.version > input.version)) {
        base = rec.base; ops = rec.ops.map(function (o) { if (o.at) { o.at = timeOf(o.at); } return o; }); // kept as milliseconds by an older page
      }
      return call('load', JSON.stringify(base));
    }).then(function (err) {
      if (err) { throw new Error(err); }
      if (!ops.length) { return; }
      var sent = ops.slice();
      return answer('replay', JSON.stringify(sent)).then(function (r) {
        ops = sent.filter(function (_, i) { return !r.refused || r.refused.indexOf(i) < 0; });
        draw(r, anchorOf(document.querySelector('.seat.speaking')));
        if (r.refused && r.refused.length) { return call('t', 'host.refused.n', r.refused.length).then(function (text) { say(text + ' ' + r.error); }); }
      });
    }).then(function () {
      app = true;
      // from now on the page sends its actions' keys and versions itself: the forms of the server's page lose
      // theirs, as the engine draws them, so that the first tap's morph passes by the forms it does not change
      actionFields(false);
      status();
      host.setAttribute('data-app', 'ready');
      requestAnimationFrame(measureStage);
      performance.mark('engine-ready');
      pump();
      // drawing the page's actions ahead while the page is idle also has the browser compile the engine's code,
      // which it does as it first runs it: the host's first tap does not pay for that (a quarter of a second here)
      idle(function () {
        resetAhead();
        warm(0);
      });
    });
  }
  // warm runs the morph over copies of the seat cards, each into the next, one pair per idle moment: a page's
  // first morph runs cold (the script's code and the DOM's bindings not yet compiled). The host's first tap morphed
  // in 19-35 ms here; warmed, in 6-11 ms (later taps: 1-4 ms). The copies are not in the page: nothing is laid out.
  function idle(f) { return (window.requestIdleCallback || setTimeout)(f); }
  // afterFrame resolves after the next frame (or a tenth of a second: a hidden page has no frames)
  function afterFrame() {
    return new Promise(function (resolve) {
      var t = setTimeout(resolve, 100);
      requestAnimationFrame(function () { setTimeout(function () { clearTimeout(t); resolve(); }, 0); });
    });
  }
  function warm(i) {
    var seats = document.querySelectorAll('#seats > .seat');
    if (i + 1 >= seats.length) { return; }
    var a = seats[i].cloneNode(true), b = seats[i + 1].cloneNode(true);
    a.removeAttribute('id'); b.removeAttribute('id');
    morph(a, b);
    idle(function () { warm(i + 1); });
  }
  startEngine().catch(function (err) {
    app = null;
    if (worker) { worker.terminate(); }
    host.setAttribute('data-app', 'failed');
    if (window.console) { console.warn('mafiaclub: the engine did not start; the page works by plain forms', err); }
  });

  // the host's other devices' actions arrive as versions on the live stream
  if (live) {
    whenVersion(function (ev) {
      if (!app) { return; }
      var v = +ev.data;
      if (v > seen) { seen = v; pump(); }
    });
  }

  // for tests and the curious: what waits
  window.mafiaclubHost = {
    pending: function () { return ops.length + tapped.length; },
    forget: forget, // this account logs out: the page keeps and sends nothing more, and its kept game is deleted
    ready: function () { return !!app; },
    version: function () { return base.version; },
    record: function () { return base.record; },
    conflict: function () { return conflict; },
    engine: function (fn) { return call.apply(null, arguments); },
    drawnAhead: function () { return aheadCalls; }, // the pages drawn ahead so far
    ignored: function () { return ignored; }, // the taps the guard ignored
    guardMs: GUARD_MS
  };
})();
