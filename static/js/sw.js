/* Schockclub service worker, served at /sw.js so it controls the whole site.
   Pages: network first, the last copy from the cache when there is no connection (the page is
   then marked "offline": <html class="is-offline">). Static files: cache first, refreshed in
   the background. Never cached: the API, the admin, logins, posts. */
"use strict";
/* The queue of games entered offline (static/js/queue.js), sent by background sync. */
importScripts("/static/js/queue.js");
var PAGES = "schockclub-pages-v1";
var ASSETS = "schockclub-assets-v1";
var SKIP = ["/api/", "/admin/", "/login/", "/logout/", "/sw.js", "/health/"];

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== PAGES && k !== ASSETS; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

function skipped(url) {
  return url.origin !== self.location.origin || SKIP.some(function (p) { return url.pathname.indexOf(p) === 0; });
}

function markedOffline(response) {
  return response.text().then(function (html) {
    html = html.replace(/<html([^>]*)>/, '<html$1 class="is-offline">');
    return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function page(request) {
  return fetch(request).then(function (response) {
    var type = response.headers.get("Content-Type") || "";
    if (response.ok && type.indexOf("text/html") === 0 && !response.redirected) {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES).then(function (cache) {
      return cache.match(request, { ignoreVary: true }).then(function (hit) {
        if (hit) { return markedOffline(hit); }
        return new Response(
          "<!doctype html><html lang=\"de\" class=\"is-offline\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>Offline</title><body><h1>Offline</h1><p>Diese Seite ist ohne Verbindung nicht gespeichert. Sie erscheint wieder, sobald das Telefon Netz hat.</p><p><a href=\"/\">Zur Tabelle</a></p></body></html>",
          { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
      });
    });
  });
}

function asset(request) {
  return caches.open(ASSETS).then(function (cache) {
    return cache.match(request).then(function (hit) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) { cache.put(request, response.clone()); }
        return response;
      });
      return hit || fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (skipped(url)) { return; }
  if (url.pathname.indexOf("/static/") === 0) { event.respondWith(asset(request)); return; }
  if (request.mode === "navigate") { event.respondWith(page(request)); }
});

/* The page names the places a member reads (its navigation): keep a copy of each. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type === "warm" && Array.isArray(data.urls)) {
    event.waitUntil(caches.open(PAGES).then(function (cache) {
      return Promise.all(data.urls.map(function (u) {
        var url = new URL(u, self.location.origin);
        if (skipped(url)) { return null; }
        return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
          var type = response.headers.get("Content-Type") || "";
          if (response.ok && !response.redirected && type.indexOf("text/html") === 0) {
            return cache.put(url.href, response);
          }
          return null;
        }).catch(function () { return null; });
      }));
    }));
  }
  if (data.type === "forget") {
    event.waitUntil(caches.delete(PAGES));
  }
});

/* Background sync: games queued on a page (static/js/queue.js) are sent when the
   connection is back, even with no page of the site open. The pages are told, so an open
   evening shows what arrived. A round that could not send (no connection) fails, so the
   browser tries again later. */
self.addEventListener("sync", function (event) {
  if (event.tag !== self.SchockQueue.TAG) { return; }
  event.waitUntil(self.SchockQueue.flush("").then(function (result) {
    return self.clients.matchAll({ type: "window" }).then(function (pages) {
      var sent = result.sent.map(function (s) { return { item: { evening: s.item.evening, number: s.item.number } }; });
      pages.forEach(function (p) { p.postMessage({ type: "queue-sent", sent: sent }); });
      var stuck = result.items.filter(function (i) { return !i.conflict; }).length;
      if (stuck) { throw new Error("games still waiting"); }
    });
  }));
});
/* Web push: show the reminder (league/banking/notifications.py sends title, body, the
   page to open and a one-tap unsubscribe link); a tap opens the page. */
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  event.waitUntil(self.registration.showNotification(data.title || "Schockclub", {
    body: data.body || "",
    tag: data.kind || "schockclub",
    data: { url: data.url || "/", unsubscribe: data.unsubscribe || "" },
    actions: data.unsubscribe ? [{ action: "unsubscribe", title: "Abbestellen" }] : []
  }));
});

self.addEventListener("notificationclick", function (event) {
  var data = event.notification.data || {};
  event.notification.close();
  var target = event.action === "unsubscribe" && data.unsubscribe ? data.unsubscribe : data.url;
  event.waitUntil(self.clients.openWindow(target || "/"));
});
