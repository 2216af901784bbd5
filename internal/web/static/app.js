// mafiaclub's own script for every page: confirmations before destructive actions, the menu, the new-game form.
// Every page works without it. The host page has its own (host.js).
(function () {
  'use strict';

  // Confirmation before destructive actions. A page that sends a form stops listening for live updates: the
  // answer to its own action is on its way.
  document.addEventListener('submit', function (e) {
    var msg = e.target.getAttribute('data-confirm');
    if (msg && !window.confirm(msg)) { e.preventDefault(); return; }
    if (window.mafiaclubLive) { window.mafiaclubLive.close(); }
  });

  // Logging out makes the browser forget what it keeps of the site (the server's Clear-Site-Data), the host's
  // actions not yet saved among them, on whichever page it is done: with some of this account's waiting (on the
  // game's page, or kept in the browser's storage), it asks first.
  var logout = document.getElementById('logout');
  if (logout) {
    logout.addEventListener('submit', function (e) {
      e.preventDefault();
      waiting(+logout.getAttribute('data-user')).then(function (n) {
        if (n && !window.confirm(logout.getAttribute('data-unsaved'))) { return; }
        if (window.mafiaclubLive) { window.mafiaclubLive.close(); }
        logout.submit(); // no submit event: asked once
      });
    });
  }
  // games opens the browser's store of the host's games (what host.js keeps) and hands it to f; none: f(null)
  function games(f) {
    if (!window.indexedDB) { f(null); return; }
    var req = indexedDB.open('mafiaclub', 1);
    req.onupgradeneeded = function () { req.result.createObjectStore('games', { keyPath: 'game' }); };
    req.onerror = function () { f(null); };
    req.onsuccess = function () { f(req.result); };
  }
  function waiting(user) {
    var here = window.mafiaclubHost ? window.mafiaclubHost.pending() : 0;
    if (here || !window.indexedDB) { return Promise.resolve(here); }
    return new Promise(function (resolve) {
      games(function (d) {
        if (!d) { resolve(0); return; }
        var all;
        try { all = d.transaction('games').objectStore('games').getAll(); } catch (err) { d.close(); resolve(0); return; }
        all.onsuccess = function () { d.close(); resolve(all.result.filter(function (r) { return r.user === user && r.ops && r.ops.length; }).length); };
        all.onerror = function () { d.close(); resolve(0); };
      });
    });
  }

  // A game's page kept for a reload offline (by the service worker) and a game kept by the host's page (its record)
  // hold the roles: they are the account's that saw them. Another account on this device, or none, makes the
  // browser forget the kept pages, whose session may have ended without a logout, and the other accounts' kept
  // games but those with actions not yet saved (only their own account may send them; logging out asks first).
  try {
    var me = logout ? logout.getAttribute('data-user') : '';
    if (window.caches && localStorage.getItem('mafiaclub:user') !== me) {
      if (localStorage.getItem('mafiaclub:user') !== null) {
        caches.delete('mafiaclub-pages');
        games(function (d) {
          if (!d) { return; }
          var tx;
          try { tx = d.transaction('games', 'readwrite'); } catch (err) { d.close(); return; }
          tx.objectStore('games').openCursor().onsuccess = function (e) {
            var c = e.target.result;
            if (!c) { return; }
            if (String(c.value.user) !== me && !(c.value.ops && c.value.ops.length)) { c.delete(); }
            c.continue();
          };
          tx.oncomplete = tx.onerror = tx.onabort = function () { d.close(); };
        });
      }
      localStorage.setItem('mafiaclub:user', me);
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
