// The host page's engine runs here, in a worker, so that starting it (compiling the WebAssembly module and
// starting Go's runtime) never blocks the page. The page sends {id, fn, args}; the answer is {id, result} or
// {id, error}; ms is the time the engine took. The first message starts the engine: {start: {exec, wasm, lang, catalog,
// zone}}. An action's time comes as milliseconds since 1970 and is told here in the club's zone.
'use strict';
var ready = null, zone = '', clock = null;

// timeOf tells an action's time as the chronology shows it, in the club's time zone. The format is made here, not
// in the page: the first one with a time zone loads the zone's data (100 ms on this project's machine), which
// must not hold the page up.
function timeOf(at) {
  if (typeof at !== 'number') { return at; } // an action an older page kept, its time already told
  try {
    clock = clock || new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false, timeZone: zone || undefined });
    return clock.format(new Date(at));
  } catch (err) { return new Date(at).toTimeString().slice(0, 8); }
}

function start(o) {
  zone = o.zone || '';
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
      timeOf(Date.now()); // the format made now, before the first tap
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
