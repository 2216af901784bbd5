// mafiaclub's live pages: the view follows the game through one server-sent event stream (the browser resumes it
// with Last-Event-ID after a cut; a frame is the whole view or only its changed lines), and the running step's
// timer counts down. Without script the page still shows
// the game as it was when loaded.
(function () {
  'use strict';
  var view = document.getElementById('live-view');
  if (!view) { return; }

  function tick() {
    var now = Date.now();
    var list = view.querySelectorAll('[data-ends]');
    for (var i = 0; i < list.length; i++) {
      var left = Math.max(0, Math.ceil((+list[i].getAttribute('data-ends') - now) / 1000));
      var text = Math.floor(left / 60) + ':' + ('0' + (left % 60)).slice(-2);
      if (list[i].textContent !== text) { list[i].textContent = text; }
      list[i].classList.toggle('low', left <= 10);
    }
  }
  tick();
  setInterval(tick, 250);

  var url = view.getAttribute('data-events');
  if (!url || !window.EventSource) { return; }
  // The stream sends the whole view ("view") when a client joins or comes back out of step, and then only the
  // lines that changed ("delta", applied to the view held: its base). The page drawn by the server is not held as
  // lines, so its stream's address names no view: its first frame is the whole view.
  var lines = null, held = '', es = null;
  function show(text) {
    view.innerHTML = text;
    view.setAttribute('data-updated', String(Date.now()));
    tick();
  }
  function open() {
    es = new EventSource(url);
    window.mafiaclubLive = es;
    es.addEventListener('view', function (ev) {
      lines = ev.data.split('\n'); held = ev.lastEventId;
      show(ev.data);
    });
    es.addEventListener('delta', function (ev) {
      var d = JSON.parse(ev.data), out = [], at = 0, fits = !!lines && d.base === held;
      for (var i = 0; fits && i < d.ops.length; i++) {
        var op = d.ops[i];
        if ((op[0] === 'k' || op[0] === 'd') && at + op[1] <= lines.length) {
          if (op[0] === 'k') { out = out.concat(lines.slice(at, at + op[1])); }
          at += op[1];
        } else if (op[0] === 'i') { out = out.concat(op[1]); }
        else { fits = false; }
      }
      // out of step: another view held, or lines the delta does not fit exactly (as live.ApplyDelta checks), which
      // another drawing of the same view would be. A new stream, opened without the last id, sends the view whole.
      if (!fits || at !== lines.length) { es.close(); lines = null; open(); return; }
      lines = out; held = ev.lastEventId;
      show(lines.join('\n'));
      view.setAttribute('data-deltas', String(+(view.getAttribute('data-deltas') || 0) + 1));
    });
    es.onerror = function () {
      // a refused stream (the server at its bound of streams: 503) is not resumed by the browser: open it again a
      // little later, at a time of its own so that many pages do not come back together
      if (es.readyState === 2) { setTimeout(open, 5000 + Math.random() * 10000); }
    };
  }
  open();
  window.addEventListener('pagehide', function () { es.close(); });
})();
