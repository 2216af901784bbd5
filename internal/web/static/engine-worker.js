// The host page's engine runs here, in a worker, so that starting it (compiling the WebAssembly module and
// starting Go's runtime) never blocks the page. The page sends {id, fn, args}; the answer is {id, result} or
// {id, error}; ms is the time the engine took. The first message starts the engine: {start: {exec, wasm, lang,
// catalog}}.
'use strict';
var ready = null;

function start(o) {
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
    var t0 = performance.now();
    var result = f.apply(null, args);
    self.postMessage({ id: m.id, result: result, ms: performance.now() - t0 });
  }).catch(function (err) { self.postMessage({ id: m.id, error: String(err) }); });
};
