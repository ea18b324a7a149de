/* The phone's queue of games entered without a connection, shared by every page (app.js,
   entry.js) and the service worker (sw.js, background sync): IndexedDB "schockclub-entry",
   store "games", one item per game keyed by its client_key.

   Sending (flush) posts each waiting game through the API (POST games/) with its
   client_key (a game sent twice is recorded once: 409 duplicate_client_key means it
   arrived before) and the number it was entered with. A refusal never holds back the
   games after it: a number taken meanwhile (409 duplicate_game_number, the answer names
   the game that took it), the evening's target reached (409 evening_target_reached) or
   any other refusal marks that one item as a conflict, to be resolved by the user
   ("als nächstes Spiel speichern": sent without a number, the server gives the next
   free one; "ist dasselbe Spiel": discarded; "trotzdem speichern": sent with
   beyond_target), and the next item is sent. No connection, a login gone stale or a
   server error stop the round and keep every item waiting as it was.

   One sender at a time (a Web Lock where the browser has it, across the pages and the
   worker); a flush never touches the page. */
(function (scope) {
  "use strict";
  var NAME = "schockclub-entry", STORE = "games", TAG = "schockclub-games";
  var db = null, busy = null;

  function open() {
    return new Promise(function (resolve, reject) {
      if (db) { resolve(db); return; }
      var request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore(STORE, { keyPath: "client_key" });
        store.createIndex("evening", "evening");
      };
      request.onsuccess = function () {
        db = request.result;
        db.onversionchange = function () { db.close(); db = null; };
        resolve(db);
      };
      request.onerror = function () { reject(request.error); };
    });
  }
  function tx(mode, work) {
    return open().then(function (d) {
      return new Promise(function (resolve, reject) {
        var t = d.transaction(STORE, mode);
        var request = work(t.objectStore(STORE));
        t.oncomplete = function () { resolve(request && request.result !== undefined ? request.result : undefined); };
        t.onerror = function () { reject(t.error); };
        t.onabort = function () { reject(t.error); };
      });
    });
  }
  function all() {
    return tx("readonly", function (store) { return store.getAll(); }).then(function (items) {
      return (items || []).sort(function (a, b) { return a.queued_at - b.queued_at; });
    });
  }
  function put(item) { return tx("readwrite", function (store) { store.put(item); }); }
  function remove(key) { return tx("readwrite", function (store) { store.delete(key); }); }

  function post(item, csrf) {
    var body = {
      evening: item.evening, loser: item.loser, vorleger: item.vorleger,
      schock_aus: item.schock_aus, client_key: item.client_key
    };
    if (!item.as_next) { body.number = item.number; }
    if (item.beyond_target) { body.beyond_target = true; }
    return fetch(item.api, {
      method: "POST", credentials: "same-origin",
      headers: {
        "Content-Type": "application/json", Accept: "application/json",
        "X-CSRFToken": csrf || item.csrf || ""
      },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (json) {
        return { status: r.status, body: json || {} };
      });
    });
  }

  /* One item: "sent" (with the game), "conflict" (marked, kept) or "stop" (kept as it
     was: no connection, logged out, the server failing). */
  function sendOne(item, csrf) {
    return post(item, csrf).then(function (answer) {
      var code = answer.body.code || "";
      if (answer.status === 201 || (answer.status === 409 && code === "duplicate_client_key")) {
        return remove(item.client_key).then(function () {
          return { state: "sent", item: item, game: answer.status === 201 ? answer.body : null };
        });
      }
      if (answer.status === 401 || answer.status === 403 || answer.status === 429 || answer.status >= 500) {
        return { state: "stop", item: item };
      }
      item.conflict = {
        code: code || String(answer.status),
        message: answer.body.message || String(answer.status),
        details: answer.body.details || null
      };
      return put(item).then(function () { return { state: "conflict", item: item }; });
    }, function () { return { state: "stop", item: item }; });
  }

  function run(csrf) {
    var sent = [], conflicts = [];
    return all().then(function (items) {
      var waiting = items.filter(function (i) { return !i.conflict; });
      var step = function (index) {
        if (index >= waiting.length) { return null; }
        return sendOne(waiting[index], csrf).then(function (result) {
          if (result.state === "stop") { return null; }
          (result.state === "sent" ? sent : conflicts).push(result);
          return step(index + 1);
        });
      };
      return step(0);
    }).then(function () {
      return all().then(function (items) { return { sent: sent, conflicts: conflicts, items: items }; });
    });
  }

  /* Send what waits. Resolves to {sent: [{item, game}], conflicts: [...], items: left}. */
  function flush(csrf) {
    if (busy) { return busy; }
    var locks = scope.navigator && scope.navigator.locks;
    var work = function () { return run(csrf); };
    busy = (locks ? locks.request("schockclub-queue", work) : work()).then(function (result) {
      busy = null; return result;
    }, function (error) { busy = null; throw error; });
    return busy;
  }

  /* The user's answer to a conflict: "next" (save as the evening's next game), "same"
     (the same game as the one saved: discard), "target" (save beyond the evening's
     target), "again" (send once more as it is), "drop" (discard). */
  function resolve(key, how) {
    return tx("readonly", function (store) { return store.get(key); }).then(function (item) {
      if (!item) { return null; }
      if (how === "same" || how === "drop") { return remove(key); }
      if (how === "next") { item.as_next = true; }
      if (how === "target") { item.beyond_target = true; }
      delete item.conflict;
      return put(item);
    });
  }

  scope.SchockQueue = { all: all, put: put, remove: remove, flush: flush, resolve: resolve, TAG: TAG };
})(self);
