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
})();
