/* Every page: register the service worker (static/js/sw.js, served at /sw.js), mark the
   page "offline" while the phone has no connection, keep a copy of the main places for
   reading offline, and forget those copies on logout (another person may use the phone). */
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  function mark() { root.classList.toggle("is-offline", !navigator.onLine); }
  window.addEventListener("online", mark);
  window.addEventListener("offline", mark);
  mark();
  /* A table box that scrolls sideways can be scrolled with the keyboard too (axe:
     scrollable-region-focusable): it takes the focus, named by its table's caption or the
     heading before it. */
  document.querySelectorAll(".scroll").forEach(function (box) {
    if (box.scrollWidth > box.clientWidth && !box.hasAttribute("tabindex")) {
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      var heading = box.previousElementSibling;
      while (heading && !/^H[1-4]$/.test(heading.tagName)) { heading = heading.previousElementSibling; }
      var section = box.closest("section");
      heading = heading || (section && section.querySelector("h1, h2, h3"));
      box.setAttribute("aria-label", heading ? heading.textContent.trim() : document.title);
    }
  });
  queue();
  if (!("serviceWorker" in navigator)) { return; }
  var body = document.body;
  var swUrl = body && body.dataset.sw;
  if (!swUrl) { return; }
  navigator.serviceWorker.register(swUrl, { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (reg) {
    var links = Array.prototype.map.call(
      document.querySelectorAll(".mainnav a[href]"), function (a) { return a.href; });
    /* once per visit: the copies are refreshed anyway whenever a page is opened online */
    var warmed = window.sessionStorage && sessionStorage.getItem("sc-warmed");
    if (reg.active && links.length && navigator.onLine && !warmed) {
      reg.active.postMessage({ type: "warm", urls: links });
      if (window.sessionStorage) { sessionStorage.setItem("sc-warmed", "1"); }
    }
  }).catch(function () { /* no worker (private mode, http): the site works as before */ });
  document.querySelectorAll("form.logout").forEach(function (form) {
    form.addEventListener("submit", function () {
      if (navigator.serviceWorker.controller) {
        navigator.serviceWorker.controller.postMessage({ type: "forget" });
      }
    });
  });

  /* Games entered without a connection (static/js/queue.js): sent from whichever page
     is open, when it loads and when the connection comes back (the service worker sends
     them in the background where the browser has background sync); while any wait, the
     bar above the bottom navigation says how many, and leads to their evening. Every
     round's result is announced as the "sc-queue" event (the entry page shows it). */
  function queue() {
    var Q = window.SchockQueue;
    var bars = document.querySelector("[data-status-bars]");
    var bar = document.querySelector("[data-queue-bar]");
    function height() {
      if (bars) { root.style.setProperty("--statush", bars.offsetHeight + "px"); }
    }
    window.addEventListener("online", height);
    window.addEventListener("offline", height);
    height();
    if (!Q || !window.indexedDB || !window.fetch || !window.Promise) { return; }
    function csrf() {
      var input = document.querySelector("input[name=csrfmiddlewaretoken]");
      if (input) { return input.value; }
      var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
      return match ? decodeURIComponent(match[1]) : "";
    }
    function fill(template, values) {
      return template.replace(/%\((\w+)\)s/g, function (all, key) { return values[key] !== undefined ? values[key] : all; });
    }
    function show(items) {
      if (!bar) { return; }
      bar.textContent = "";
      bar.hidden = !items.length;
      if (items.length) {
        var conflicts = items.filter(function (i) { return i.conflict; }).length;
        var link = document.createElement("a");
        var first = items.filter(function (i) { return i.conflict; })[0] || items[0];
        link.href = (first.page || "/") + "#warteschlange";
        link.textContent = items.length === 1 ? bar.dataset.one : fill(bar.dataset.many, { count: items.length });
        bar.appendChild(link);
        if (conflicts) {
          var open = document.createElement("span");
          open.textContent = " · " + fill(bar.dataset.conflicts, { count: conflicts });
          bar.appendChild(open);
        }
      }
      height();
    }
    function announce(result) {
      Q.last = result;
      show(result.items);
      window.dispatchEvent(new CustomEvent("sc-queue", { detail: result }));
      return result;
    }
    var sending = null;
    function send() {
      if (sending) { return sending; }  /* one round announced once */
      var idle = function () { return Q.all().then(function (items) { return announce({ sent: [], conflicts: [], items: items }); }); };
      if (!navigator.onLine) { return idle(); }
      sending = Q.flush(csrf()).then(announce, idle);
      var done = function () { sending = null; };
      sending.then(done, done);
      return sending;
    }
    /* a game was queued: let the worker send it even if this page is closed */
    function wake() {
      if (!("serviceWorker" in navigator)) { return; }
      navigator.serviceWorker.ready.then(function (reg) {
        return reg.sync ? reg.sync.register(Q.TAG) : null;
      }).catch(function () { /* no background sync: the next page load sends it */ });
    }
    Q.send = send;
    Q.wake = wake;
    window.addEventListener("online", send);
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.addEventListener("message", function (event) {
        if (event.data && event.data.type === "queue-sent") {
          Q.all().then(function (items) {
            announce({ sent: event.data.sent || [], conflicts: [], items: items });
          });
        }
      });
    }
    send().catch(function () { /* no IndexedDB (private mode): nothing waits */ });
  }
})();
