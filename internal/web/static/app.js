// mafiaclub's own script for every page: confirmations before destructive actions, the menu, the new-game form.
// Every page works without it. The host page has its own (host.js).
(function () {
  'use strict';
  // the club's path prefix ("" or "/c/SLUG"): the clubs on one host name share the browser's storage, so what this
  // script and the host page keep is named for the club (its games, its pages, its account), and a club's own
  // account's logout here forgets this club's only (a person's forgets his in every club: below)
  var base = document.body.getAttribute('data-base') || '';
  var PAGES = 'mafiaclub-pages' + base;

  // Confirmation before destructive actions (a form's, or the chosen option's own: what removing that player will
  // do). A page that sends a form stops listening for live updates: the answer to its own action is on its way.
  document.addEventListener('submit', function (e) {
    var chosen = e.target.querySelector('option[data-confirm]:checked');
    var msg = chosen ? chosen.getAttribute('data-confirm') : e.target.getAttribute('data-confirm');
    if (msg && !window.confirm(msg)) { e.preventDefault(); return; }
    if (window.mafiaclubLive) { window.mafiaclubLive.close(); }
  });

  // Logging out makes the browser forget what it keeps of the site, the host's actions not yet saved among them, on
  // whichever page it is done: with some of this account's waiting (on the game's page, or kept in the browser's
  // storage), it asks first. The server's Clear-Site-Data does it only in a secure context (HTTPS, localhost); on a
  // club's network of plain HTTP it does nothing, so this script forgets it all itself before it posts the logout.
  // The logout is posted whatever comes of that (and, without this script, by the form itself).
  var logout = document.getElementById('logout');
  var me = logout ? logout.getAttribute('data-user') : '';
  // the installation's person logged in ("" when none: nobody, or a club's own account). His session is one for
  // every club on the installation's host names and ends in all of them at once, so his logout has the browser
  // forget his games and the pages kept in every club of this origin, not in this club's only. (A club at a host
  // name of its own is another origin, which his session never reaches: its own accounts only log in there.)
  var person = logout ? logout.getAttribute('data-person') || '' : '';
  if (logout) {
    logout.addEventListener('submit', function (e) {
      e.preventDefault();
      waiting(+me).then(function (n) {
        if (n && !window.confirm(logout.getAttribute('data-unsaved'))) { return; }
        if (window.mafiaclubLive) { window.mafiaclubLive.close(); }
        var sent = false;
        var send = function () { if (!sent) { sent = true; logout.submit(); } }; // no submit event: asked once
        setTimeout(send, 3000); // a browser's storage that does not answer does not keep the account logged in
        try { forgetAccount(me).then(send, send); } catch (err) { send(); }
      });
    });
  }

  // games opens the browser's store of the host's games (what host.js keeps) of the club at prefix b and hands it to
  // f; none: f(null). The store is not made here: a browser that can tell it has none (indexedDB.databases) gets
  // f(null) at once.
  function games(b, f) {
    if (!window.indexedDB) { f(null); return; }
    var open = function () {
      var req = indexedDB.open('mafiaclub' + b, 1);
      req.onupgradeneeded = function () { req.result.createObjectStore('games', { keyPath: 'game' }); };
      req.onerror = function () { f(null); };
      req.onsuccess = function () { f(req.result); };
    };
    if (!indexedDB.databases) { open(); return; }
    indexedDB.databases().then(function (list) {
      if (list.some(function (d) { return d.name === 'mafiaclub' + b; })) { open(); } else { f(null); }
    }, open);
  }
  // clubsKept lists the prefixes of the clubs of this origin whose games the browser may keep, this club's first:
  // from the names of its stores (indexedDB.databases), and from the accounts this script noted for each club.
  function clubsKept() {
    var found = [base];
    var add = function (b) { if (found.indexOf(b) < 0 && (b === '' || /^\/c\/[^\/]+$/.test(b))) { found.push(b); } };
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i);
        if (k.indexOf('mafiaclub:user') === 0) { add(k.slice('mafiaclub:user'.length)); }
      }
    } catch (err) { /* no storage */ }
    if (!window.indexedDB || !indexedDB.databases) { return Promise.resolve(found); }
    return indexedDB.databases().then(function (list) {
      list.forEach(function (d) { if (d.name && d.name.indexOf('mafiaclub') === 0) { add(d.name.slice('mafiaclub'.length)); } });
      return found;
    }, function () { return found; });
  }
  // theClubs is this club's prefix, and with a person logged in every club's of this origin.
  function theClubs() { return person ? clubsKept() : Promise.resolve([base]); }
  function unsaved(rec) { return !!(rec.ops && rec.ops.length); }
  // mine picks the kept games of the account logging out in club b: this club's account's, and in every club the
  // person's
  function mine(b, user) {
    return function (rec) { return (b === base && String(rec.user) === String(user)) || (person !== '' && String(rec.person) === person); };
  }
  function waiting(user) {
    var here = window.mafiaclubHost ? window.mafiaclubHost.pending() : 0;
    if (here || !window.indexedDB) { return Promise.resolve(here); }
    var count = function (b) {
      var his = mine(b, user);
      return new Promise(function (resolve) {
        games(b, function (d) {
          if (!d) { resolve(0); return; }
          var all;
          try { all = d.transaction('games').objectStore('games').getAll(); } catch (err) { d.close(); resolve(0); return; }
          all.onsuccess = function () { d.close(); resolve(all.result.filter(function (r) { return his(r) && unsaved(r); }).length); };
          all.onerror = function () { d.close(); resolve(0); };
        });
      });
    };
    return theClubs().then(function (bs) { return Promise.all(bs.map(count)); }).then(function (ns) {
      return ns.reduce(function (a, n) { return a + n; }, 0);
    });
  }
  // dropGames deletes the kept games of the club at prefix b that drop picks; it resolves once they are gone, and
  // fails if they may not be.
  function dropGames(b, drop) {
    return new Promise(function (resolve, reject) {
      games(b, function (d) {
        if (!d) { resolve(); return; }
        var tx;
        try { tx = d.transaction('games', 'readwrite'); } catch (err) { d.close(); resolve(); return; } // no store: none kept
        tx.objectStore('games').openCursor().onsuccess = function (e) {
          var c = e.target.result;
          if (!c) { return; }
          if (drop(c.value)) { c.delete(); }
          c.continue();
        };
        tx.oncomplete = function () { d.close(); resolve(); };
        tx.onerror = tx.onabort = function () { d.close(); reject(tx.error); };
      });
    });
  }
  // forgetAccount has the browser forget what the site keeps for the account user, which logs out: its kept games
  // (their actions not yet saved too: logging out asked), those of other accounts that are all saved, every page
  // and file the service worker keeps, and this tab's own keys. This account's host page here keeps nothing more,
  // and its pages in the browser's other tabs hear of the logout (the "storage" event) and do the same. Other
  // accounts' games with actions not yet saved stay for their accounts. A person's logout does all of it in every
  // club of this origin: his games there, the others' that are all saved, every club's kept pages, and his host
  // pages open in other tabs of any of them.
  function forgetAccount(user) {
    try { localStorage.setItem('mafiaclub:out' + base, user); localStorage.removeItem('mafiaclub:out' + base); } catch (err) { /* no storage */ }
    if (person) {
      try { localStorage.setItem('mafiaclub:out-person', person); localStorage.removeItem('mafiaclub:out-person'); } catch (err) { /* no storage */ }
    }
    var here = window.mafiaclubHost && window.mafiaclubHost.forget ? window.mafiaclubHost.forget() : null;
    try { sessionStorage.clear(); } catch (err) { /* no storage */ }
    // the club at the root forgets every cache but the other clubs' pages; a club under a prefix, its own pages; a
    // person's logout, every club's pages too
    var ours = function (k) { return (person && k.indexOf('mafiaclub-pages') === 0) || (base ? k === PAGES : k.indexOf('mafiaclub-pages/') !== 0); };
    var pages = window.caches ? caches.keys().then(function (keys) { return Promise.all(keys.filter(ours).map(function (k) { return caches.delete(k); })); }) : null;
    var kept = theClubs().then(function (bs) {
      return Promise.all(bs.map(function (b) {
        var his = mine(b, user);
        return dropGames(b, function (rec) { return his(rec) || !unsaved(rec); });
      }));
    });
    return Promise.all([here, kept, pages]).then(function () {
      try { localStorage.setItem('mafiaclub:user' + base, ''); } catch (err) { /* no storage */ } // nobody's: the next page forgets nothing more
    });
  }

  // A game's page kept for a reload offline (by the service worker) and a game kept by the host's page (its record)
  // hold the roles: they are the account's that saw them. Another account on this device, or none, makes the
  // browser forget the kept pages, whose session may have ended without a logout (or in another tab), and the
  // other accounts' kept games but those with actions not yet saved (only their own account may send them; logging
  // out asks first). This holds in any context: on plain HTTP the browser keeps games though it has no service worker.
  // A browser with no account noted yet (its first page of the site, or of this script) keeps its pages: they may be
  // the viewer's own, kept for a reload offline.
  try {
    var was = localStorage.getItem('mafiaclub:user' + base);
    if (was !== me) {
      if (was !== null && window.caches) { caches.delete(PAGES); }
      dropGames(base, function (rec) { return String(rec.user) !== me && !unsaved(rec); }).catch(function () { /* kept until the next page */ });
      localStorage.setItem('mafiaclub:user' + base, me);
    }
  } catch (err) { /* no storage: nothing kept either */ }

  // The menu is open on a wide screen.
  var menu = document.querySelector('details.menu');
  if (menu && window.matchMedia('(min-width: 900px)').matches) { menu.open = true; }

  // The new-game form reloads itself when the rule set or the player count changes.
  document.querySelectorAll('[data-autoapply]').forEach(function (el) {
    el.addEventListener('change', function () { var b = document.getElementById('apply'); if (b) { b.click(); } });
  });

})();
