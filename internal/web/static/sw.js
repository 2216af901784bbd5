// mafiaclub's service worker: it keeps the host page, its script and its engine, so that a host who reloads the
// page where the venue's network is dead can go on. The server prepends ASSETS, the files to keep (the engine's
// address names its build, so a new build installs this worker again), BUILD, which names them all, and BASE, the
// club's path prefix ("" or "/c/SLUG": the worker is served and registered under it, and keeps its club's pages).
'use strict';
const CACHE = 'mafiaclub-' + BUILD;
// the game pages visited, kept across builds (the page's own script fills it too); one cache per club
const PAGES = 'mafiaclub-pages' + BASE;
const PAGE = new RegExp('^' + BASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '/games/\\d+$');

self.addEventListener('install', function (e) {
  e.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(ASSETS); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE && k.indexOf('mafiaclub-pages') !== 0 && k.indexOf('mafiaclub-') === 0; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

// The network first, with a bound on the wait: a venue's wifi that is up but reaches nothing would hang a request
// for a long time. What the network answers is kept; when it cannot answer, the kept copy is served.
function networkFirst(req, wait, name) {
  return caches.open(name || CACHE).then(function (cache) {
    var timer;
    var late = new Promise(function (_, reject) { timer = setTimeout(function () { reject(new Error('timeout')); }, wait); });
    return Promise.race([fetch(req), late]).then(function (res) {
      clearTimeout(timer);
      if (res.ok) { cache.put(req, res.clone()); return res; }
      // the server failing (a restart behind the club's proxy: 502, 503) is no answer: the kept copy serves
      if (res.status >= 500) { return cache.match(req, { ignoreVary: true }).then(function (hit) { return hit || res; }); }
      // a page the server no longer gives (another account, a login, a game gone) is no longer kept either
      if (name === PAGES) { cache.delete(req); }
      return res;
    }).catch(function (err) {
      clearTimeout(timer);
      return cache.match(req, { ignoreVary: true }).then(function (hit) { if (hit) { return hit; } throw err; });
    });
  });
}

self.addEventListener('fetch', function (e) {
  var req = e.request;
  if (req.method !== 'GET') { return; }
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.indexOf('/static/engine/') === 0) {
    // named by its build: never changes
    e.respondWith(caches.match(req).then(function (hit) { return hit || networkFirst(req, 60000); }));
    return;
  }
  if (PAGE.test(url.pathname) && req.mode === 'navigate') {
    e.respondWith(networkFirst(req, 5000, PAGES));
    return;
  }
  if (url.pathname.indexOf('/static/') === 0) {
    e.respondWith(networkFirst(req, 5000));
  }
});
