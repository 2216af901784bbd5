// mafiaclub's live pages: the view follows the game through one server-sent event stream (the browser resumes it
// with Last-Event-ID after a cut), and the running step's timer counts down. Without script the page still shows
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
  var es = new EventSource(url);
  window.mafiaclubLive = es;
  es.addEventListener('view', function (ev) {
    view.innerHTML = ev.data;
    view.setAttribute('data-updated', String(Date.now()));
    tick();
  });
  window.addEventListener('pagehide', function () { es.close(); });
})();
