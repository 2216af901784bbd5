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

  // The menu is open on a wide screen.
  var menu = document.querySelector('details.menu');
  if (menu && window.matchMedia('(min-width: 900px)').matches) { menu.open = true; }

  // The new-game form reloads itself when the rule set or the player count changes.
  document.querySelectorAll('[data-autoapply]').forEach(function (el) {
    el.addEventListener('change', function () { var b = document.getElementById('apply'); if (b) { b.click(); } });
  });

})();
