/* Game entry: tap the Schock-Aus throwers in throwing order to fill the "1., 2., 3.
   Schock-Aus" selects. The selects are the form's fields, so the page works without JS. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  document.querySelectorAll("[data-schockaus]").forEach(function (box) {
    var selects = function () { return Array.prototype.slice.call(box.querySelectorAll("select")); };
    var refresh = function () {
      var chosen = selects().map(function (s) { return s.value; });
      box.querySelectorAll(".tap-sa").forEach(function (b) {
        var at = chosen.indexOf(b.dataset.pk);
        b.classList.toggle("on", at >= 0);
        b.dataset.order = at >= 0 ? (at + 1) + "." : "";
      });
      selects().forEach(function (s) {
        var li = s.closest("li");
        if (li) { li.classList.toggle("filled", s.value !== ""); }
      });
    };
    box.querySelectorAll(".tap-sa").forEach(function (button) {
      button.addEventListener("click", function () {
        var all = selects();
        var at = all.map(function (s) { return s.value; }).indexOf(button.dataset.pk);
        if (at >= 0) {
          /* tapped again: take this thrower out and close the gap */
          for (var i = at; i < all.length; i++) {
            all[i].value = i + 1 < all.length ? all[i + 1].value : "";
          }
        } else {
          var free = all.filter(function (s) { return s.value === ""; })[0];
          if (free) { free.value = button.dataset.pk; }
        }
        refresh();
      });
    });
    box.querySelectorAll("select").forEach(function (s) { s.addEventListener("change", refresh); });
    var clear = box.querySelector("[data-sa-clear]");
    if (clear) {
      clear.addEventListener("click", function () {
        selects().forEach(function (s) { s.value = ""; });
        refresh();
      });
    }
    refresh();
  });
  offlineEntry(document.querySelector("form[data-offline-entry]"));
  /* one tap saves one game: a second tap while the page loads would be refused anyway
     (the number is taken), but it would show an error for nothing */
  document.querySelectorAll("form.gameform").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) { return; }
      var button = form.querySelector("button[type=submit]");
      if (button) { setTimeout(function () { button.disabled = true; }, 0); }
    });
  });

  /* Entry without a connection. While the phone is offline (or games
     are still waiting), a saved game goes into a queue in IndexedDB instead of being
     posted; when the connection is back the queue is sent in order through the API
     (POST games/), each game with its own client_key (the server records a key once, so a
     game sent twice arrives once) and the evening's version (a change made elsewhere
     meanwhile is a 412: shown as a conflict, sent again or discarded only by the user,
     never dropped silently). */
  function offlineEntry(form) {
    if (!form || !window.indexedDB || !window.fetch || !window.JSON) { return; }
    var box = document.querySelector("[data-offline-queue]");
    var eveningId = Number(form.dataset.evening);
    var version = Number(form.dataset.version);
    var sending = false, db = null, sent = 0;
    var text = function (name) { return box.dataset[name] || ""; };
    var csrf = function () {
      var input = form.querySelector("input[name=csrfmiddlewaretoken]");
      return input ? input.value : "";
    };
    var names = {};
    form.querySelectorAll("input[name=loser]").forEach(function (input) {
      names[input.value] = input.nextElementSibling ? input.nextElementSibling.textContent : input.value;
    });
    function open() {
      return new Promise(function (resolve, reject) {
        if (db) { resolve(db); return; }
        var request = indexedDB.open("schockclub-entry", 1);
        request.onupgradeneeded = function () {
          var store = request.result.createObjectStore("games", { keyPath: "client_key" });
          store.createIndex("evening", "evening");
        };
        request.onsuccess = function () { db = request.result; resolve(db); };
        request.onerror = function () { reject(request.error); };
      });
    }
    function tx(mode, work) {
      return open().then(function (d) {
        return new Promise(function (resolve, reject) {
          var t = d.transaction("games", mode);
          var result = work(t.objectStore("games"));
          t.oncomplete = function () { resolve(result && result.result !== undefined ? result.result : result); };
          t.onerror = function () { reject(t.error); };
        });
      });
    }
    function queued() {
      return tx("readonly", function (store) { return store.index("evening").getAll(eveningId); })
        .then(function (items) {
          return (items || []).sort(function (a, b) { return a.queued_at - b.queued_at; });
        });
    }
    function put(item) { return tx("readwrite", function (store) { store.put(item); }); }
    function remove(key) { return tx("readwrite", function (store) { store.delete(key); }); }
    function uuid() {
      if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
      var b = crypto.getRandomValues(new Uint8Array(16));
      b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
      var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
      return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
    }
    function fill(template, values) {
      return template.replace(/%\((\w+)\)s/g, function (all, key) { return values[key] !== undefined ? values[key] : all; });
    }
    function render(items) {
      box.textContent = "";
      box.hidden = items.length === 0 && !sent;
      if (sent && !items.length) {
        var done = document.createElement("p");
        done.className = "msg msg-success";
        done.textContent = fill(text("sent"), { count: sent });
        box.appendChild(done);
        return;
      }
      if (!items.length) { return; }
      var head = document.createElement("p");
      head.className = "msg";
      head.textContent = fill(text("waiting"), { count: items.length });
      box.appendChild(head);
      var list = document.createElement("ul");
      list.className = "plain";
      items.forEach(function (item) {
        var li = document.createElement("li");
        li.dataset.queued = item.client_key;
        li.textContent = fill(text("line"), { number: item.number, loser: names[item.loser] || item.loser });
        if (item.conflict) {
          li.className = "conflict";
          var why = document.createElement("p");
          why.className = "error";
          why.setAttribute("role", "alert");
          why.textContent = fill(text("conflict"), { message: item.conflict });
          var again = document.createElement("button");
          again.type = "button"; again.className = "primary"; again.textContent = text("again");
          again.addEventListener("click", function () { retry(item); });
          var drop = document.createElement("button");
          drop.type = "button"; drop.className = "danger"; drop.textContent = text("drop");
          drop.addEventListener("click", function () {
            if (window.confirm(text("dropAsk"))) { remove(item.client_key).then(refresh); }
          });
          var actions = document.createElement("p");
          actions.className = "actions";
          actions.appendChild(again); actions.appendChild(drop);
          li.appendChild(why); li.appendChild(actions);
        }
        list.appendChild(li);
      });
      box.appendChild(list);
    }
    function refresh() { return queued().then(function (items) { render(items); return items; }); }
    function currentVersion() {
      return fetch(form.dataset.eveningApi, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); }).then(function (body) { return Number(body.version); });
    }
    function retry(item) {
      /* the user saw the conflict and sends anyway: against the evening as it is now */
      currentVersion().then(function (v) {
        version = v; delete item.conflict;
        return put(item);
      }).then(flush, function () { refresh(); });
    }
    function post(item) {
      var body = {
        evening: item.evening, number: item.number, loser: item.loser, vorleger: item.vorleger,
        schock_aus: item.schock_aus, client_key: item.client_key, evening_version: version
      };
      return fetch(form.dataset.api, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
        body: JSON.stringify(body)
      }).then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (json) { return { status: r.status, body: json }; });
      });
    }
    function flush() {
      if (sending || !navigator.onLine) { return Promise.resolve(); }
      sending = true;
      var step = function () {
        return queued().then(function (items) {
          var next = items[0];
          if (!next || next.conflict) { return items; }
          return post(next).then(function (answer) {
            if (answer.status === 201) {
              version += 1; sent += 1;
              return remove(next.client_key).then(step);
            }
            if (answer.status === 409 && answer.body.code === "duplicate_client_key") {
              /* the first sending arrived (its answer got lost): nothing to record */
              sent += 1;
              return remove(next.client_key).then(currentVersion).then(function (v) { version = v; }).then(step);
            }
            next.conflict = answer.body.message || String(answer.status);
            return put(next).then(queued);
          });
        });
      };
      return step().then(function (items) {
        sending = false;
        render(items);
        if (!items.length && sent) {
          /* all arrived: show the evening's books as the server has them now */
          window.setTimeout(function () { window.location.reload(); }, 600);
        }
      }, function () { sending = false; refresh(); });
    }
    function selectedLoser() {
      var checked = form.querySelector("input[name=loser]:checked");
      return checked ? checked.value : "";
    }
    function nextNumber(items) {
      var last = items.length ? items[items.length - 1] : null;
      return last ? last.number + 1 : Number(form.dataset.next || 0);
    }
    function resetFor(number, vorleger) {
      form.querySelector("input[name=number]").value = number;
      var select = form.querySelector("select[name=vorleger]");
      if (select) { select.value = vorleger; }
      form.querySelectorAll("input[name=loser]").forEach(function (i) { i.checked = false; });
      var clear = form.querySelector("[data-sa-clear]");
      if (clear) { clear.click(); } else {
        form.querySelectorAll("select[name=schock_aus]").forEach(function (s) { s.value = ""; });
      }
      window.scrollTo(0, form.offsetTop);
    }
    form.dataset.next = form.querySelector("input[name=number]").value;
    form.addEventListener("submit", function (event) {
      if (navigator.onLine && !box.querySelector("li")) { return; }
      event.preventDefault();
      var loser = selectedLoser();
      var number = Number(form.querySelector("input[name=number]").value);
      if (!loser) { window.alert(text("noLoser")); return; }
      queued().then(function (items) {
        var expected = nextNumber(items);
        if (!(number >= 1) || items.some(function (i) { return i.number === number; })) {
          window.alert(fill(text("taken"), { number: number })); return null;
        }
        if (number !== expected && !window.confirm(fill(text("askNumber"), { number: number, next: expected }))) {
          return null;
        }
        var vorleger = form.querySelector("select[name=vorleger]");
        var item = {
          client_key: uuid(), evening: eveningId, number: number, loser: Number(loser),
          vorleger: vorleger && vorleger.value ? Number(vorleger.value) : null,
          schock_aus: Array.prototype.map.call(form.querySelectorAll("select[name=schock_aus]"), function (s) { return s.value; })
            .filter(function (v) { return v !== ""; }).map(Number),
          queued_at: Date.now()
        };
        return put(item).then(function () {
          resetFor(number + 1, loser);
          return refresh();
        }).then(flush);
      });
    });
    window.addEventListener("online", flush);
    refresh().then(function (items) {
      if (items.length) {
        var last = items[items.length - 1];
        resetFor(last.number + 1, String(last.loser));
      }
      return flush();
    });
  }
})();
