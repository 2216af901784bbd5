// The host page's engine runs here, in a worker, so that starting it (compiling the WebAssembly module and
// starting Go's runtime) never blocks the page. The page sends {id, fn, args}; the answer is {id, result} or
// {id, error}; ms is the time the engine took. The first message starts the engine: {start: {exec, wasm, lang, catalog,
// offset}}. An action's time comes as milliseconds since 1970 and is told here in the club's zone.
'use strict';
var ready = null, offset = 0;

// timeOf tells an action's time as the chronology shows it, in the club's time zone: with the zone's offset from
// UTC that the server gave with the page, so that the time reads as the server will write it once it has the
// action (the browser's own time zone data may disagree with the server's, and loading it costs 100 ms).
function timeOf(at) {
  if (typeof at !== 'number') { return at; } // an action an older page kept, its time already told
  var d = new Date(at + offset * 1000);
  function two(n) { return (n < 10 ? '0' : '') + n; }
  return two(d.getUTCHours()) + ':' + two(d.getUTCMinutes()) + ':' + two(d.getUTCSeconds());
}

function start(o) {
  offset = o.offset || 0;
  importScripts(o.exec);
  var go = new self.Go();
  var up = new Promise(function (resolve) { self.mafiaEngineReady = resolve; });
  var load = WebAssembly.instantiateStreaming
    ? WebAssembly.instantiateStreaming(fetch(o.wasm), go.importObject)
    : fetch(o.wasm).then(function (r) { return r.arrayBuffer(); }).then(function (b) { return WebAssembly.instantiate(b, go.importObject); });
  return load.then(function (res) { go.run(res.instance); return up; })
    .then(function () { return fetch(o.catalog); })
    .then(function (r) { if (!r.ok) { throw new Error('catalogue ' + r.status); } return r.text(); })
    .then(function (text) {
      var err = self.mafiaEngine.catalog(o.lang, text);
      if (err) { throw new Error(err); }
    });
}

self.onmessage = function (e) {
  var m = e.data;
  if (m.start) {
    ready = start(m.start);
    ready.then(function () { self.postMessage({ id: m.id, result: '' }); }, function (err) { self.postMessage({ id: m.id, error: String(err) }); });
    return;
  }
  ready.then(function () {
    var f = self.mafiaEngine[m.fn], args = m.args || [];
    if (m.fn === 'act') {
      args = [args[0], timeOf(args[1])];
    } else if (m.fn === 'replay') {
      args = [JSON.stringify(JSON.parse(args[0]).map(function (o) { if ('at' in o) { o.at = timeOf(o.at); } return o; }))];
    }
    var t0 = performance.now();
    var result = f.apply(null, args);
    self.postMessage({ id: m.id, result: result, ms: performance.now() - t0 });
  }).catch(function (err) { self.postMessage({ id: m.id, error: String(err) }); });
};
