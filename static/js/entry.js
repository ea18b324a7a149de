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

  /* Entry without a connection (static/js/queue.js keeps the queue, app.js sends it
     from every page). While the phone is offline, or games of this evening still wait
     to be sent, a saved game goes into the queue instead of being posted; the form is
     made ready for the next game at once. When games of this evening arrive, the
     evening's books and list are read again and put in place; the form being filled
     is never touched. A game whose number was taken meanwhile is shown beside the game
     that took it, with the two choices. */
  function offlineEntry(form) {
    var Q = window.SchockQueue;
    if (!form || !Q || !window.indexedDB || !window.fetch || !window.JSON) { return; }
    var box = document.querySelector("[data-offline-queue]");
    var eveningId = Number(form.dataset.evening);
    var sentHere = 0;
    /* games of this evening waiting to be sent (conflicts not counted), as last read */
    var waitingHere = 0;
    var text = function (name) { return box.dataset[name] || ""; };
    var csrf = function () {
      var input = form.querySelector("input[name=csrfmiddlewaretoken]");
      return input ? input.value : "";
    };
    var names = {};
    form.querySelectorAll("input[name=loser]").forEach(function (input) {
      names[input.value] = input.nextElementSibling ? input.nextElementSibling.textContent : input.value;
    });
    function fill(template, values) {
      return template.replace(/%\((\w+)\)s/g, function (all, key) { return values[key] !== undefined ? values[key] : all; });
    }
    function uuid() {
      if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
      var b = crypto.getRandomValues(new Uint8Array(16));
      b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
      var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
      return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
    }
    function mine(items) { return items.filter(function (i) { return i.evening === eveningId; }); }
    function button(label, cls, how, item) {
      var b = document.createElement("button");
      b.type = "button"; b.className = cls; b.textContent = label; b.dataset.resolve = how;
      b.addEventListener("click", function () {
        if (how === "drop" && !window.confirm(text("dropAsk"))) { return; }
        Q.resolve(item.client_key, how).then(function () { return Q.send ? Q.send() : Q.flush(csrf()); });
      });
      return b;
    }
    function gameText(number, loser, throwers) {
      return fill(text("line"), { number: number, loser: loser }) +
        (throwers && throwers.length ? "; Schock-Aus: " + throwers.join(", ") : "");
    }
    function render(items) {
      var here = mine(items);
      waitingHere = here.filter(function (i) { return !i.conflict; }).length;
      box.textContent = "";
      box.hidden = here.length === 0 && !sentHere;
      if (sentHere) {
        var done = document.createElement("p");
        done.className = "msg msg-success"; done.setAttribute("role", "status");
        done.textContent = fill(text("sent"), { count: sentHere });
        box.appendChild(done);
      }
      if (!here.length) { return; }
      var waiting = here.filter(function (i) { return !i.conflict; }).length;
      if (waiting) {
        var head = document.createElement("p");
        head.className = "msg";
        head.textContent = fill(text("waiting"), { count: waiting });
        box.appendChild(head);
      }
      var list = document.createElement("ul");
      list.className = "plain";
      here.forEach(function (item) {
        var li = document.createElement("li");
        li.dataset.queued = item.client_key;
        var own = item.names || {};
        li.textContent = gameText(item.number, own.loser || names[item.loser] || item.loser,
          (own.schock_aus || []));
        var c = item.conflict;
        if (c) {
          li.className = "conflict";
          var why = document.createElement("p");
          why.className = "error"; why.setAttribute("role", "alert");
          var actions = document.createElement("p");
          actions.className = "actions";
          if (c.code === "duplicate_game_number" && c.details) {
            var d = c.details;
            why.textContent = fill(text("takenBy"), {
              number: d.number, loser: d.loser_name,
              schockaus: (d.schock_aus_names || []).join(", ") || text("none"),
              who: d.entered_by || text("someone")
            });
            li.dataset.conflict = "number";
            actions.appendChild(button(text("asNext"), "primary", "next", item));
            actions.appendChild(button(text("same"), "", "same", item));
          } else if (c.code === "evening_target_reached") {
            why.textContent = text("target");
            li.dataset.conflict = "target";
            actions.appendChild(button(text("targetYes"), "primary", "target", item));
            actions.appendChild(button(text("drop"), "danger", "drop", item));
          } else {
            why.textContent = fill(text("conflict"), { message: c.message });
            li.dataset.conflict = "other";
            actions.appendChild(button(text("again"), "primary", "again", item));
            actions.appendChild(button(text("drop"), "danger", "drop", item));
          }
          li.appendChild(why); li.appendChild(actions);
        }
        list.appendChild(li);
      });
      box.appendChild(list);
    }
    function pristine() {
      return !form.querySelector("input[name=loser]:checked") &&
        !Array.prototype.some.call(form.querySelectorAll("select[name=schock_aus]"), function (s) { return s.value !== ""; });
    }
    /* The evening as the server has it now, put in place: every part of the page but
       the entry form (its "last game" line and counts included). */
    function refreshBooks() {
      return fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) { return; }
          var fresh = new DOMParser().parseFromString(html, "text/html");
          var main = document.querySelector("main"), next = fresh.querySelector("main");
          var entry = document.getElementById("erfassen"), freshEntry = fresh.getElementById("erfassen");
          if (!main || !next || !entry || !freshEntry) { return; }
          entry.querySelectorAll("[data-live]").forEach(function (part) {
            var other = freshEntry.querySelector("[data-live='" + part.dataset.live + "']");
            if (other) { part.replaceWith(document.importNode(other, true)); }
          });
          var keep = function (node) {
            return node === entry || (node.classList && (node.classList.contains("statusbars") || node.classList.contains("messages")));
          };
          Array.prototype.slice.call(main.children).forEach(function (node) {
            if (node !== entry && !keep(node) && node.tagName !== "SCRIPT") { node.remove(); }
          });
          var before = true;
          Array.prototype.slice.call(next.children).forEach(function (node) {
            if (node.id === "erfassen") { before = false; return; }
            if (node.classList.contains("statusbars") || node.classList.contains("messages")) { return; }
            var copy = document.importNode(node, true);
            if (before) { main.insertBefore(copy, entry); } else { main.appendChild(copy); }
          });
          var number = fresh.querySelector("form.gameform input[name=number]");
          if (number && pristine()) {
            return Q.all().then(function (items) {
              var queuedNext = mine(items).filter(function (i) { return !i.conflict && !i.as_next; })
                .reduce(function (m, i) { return Math.max(m, i.number + 1); }, 0);
              form.querySelector("input[name=number]").value = Math.max(Number(number.value), queuedNext);
              var vorleger = fresh.querySelector("form.gameform select[name=vorleger]");
              var select = form.querySelector("select[name=vorleger]");
              if (vorleger && select && !queuedNext) { select.value = vorleger.value; }
              form.dataset.entered = fresh.querySelector("form.gameform").dataset.entered;
            });
          }
          var freshForm = fresh.querySelector("form.gameform");
          if (freshForm) { form.dataset.entered = freshForm.dataset.entered; }
        })
        .catch(function () { /* stays as it is; the next load shows it */ });
    }
    /* the last game's "undo" goes when its two minutes are over (the server refuses
       it then anyway) */
    function undoTimers() {
      document.querySelectorAll("form.undo[data-undo-until]").forEach(function (undo) {
        var left = Date.parse(undo.dataset.undoUntil) - Date.now();
        if (!(left > 0)) { undo.hidden = true; return; }
        window.setTimeout(function () { undo.hidden = true; }, Math.min(left, 2147483647));
      });
    }
    undoTimers();
    function arrived(result) {
      var here = (result.sent || []).filter(function (s) { return s.item.evening === eveningId; });
      sentHere += here.length;
      render(result.items || []);
      /* games of this evening arrived, or one was refused because the evening changed
         elsewhere: read the evening again (the form's next number follows if untouched) */
      var refused = (result.conflicts || []).filter(function (c) { return c.item.evening === eveningId; });
      if (here.length || refused.length) { refreshBooks().then(undoTimers); }
    }
    window.addEventListener("sc-queue", function (event) { arrived(event.detail || { sent: [], items: [] }); });
    /* a round app.js finished before this script ran */
    if (Q.last) { arrived(Q.last); }
    function resetFor(number, vorleger) {
      form.querySelector("input[name=number]").value = number;
      var select = form.querySelector("select[name=vorleger]");
      if (select) { select.value = vorleger; }
      form.querySelectorAll("input[name=loser]").forEach(function (i) { i.checked = false; });
      var clear = form.querySelector("[data-sa-clear]");
      if (clear) { clear.click(); } else {
        form.querySelectorAll("select[name=schock_aus]").forEach(function (s) { s.value = ""; });
      }
      var top = form.getBoundingClientRect().top + window.pageYOffset;
      window.scrollTo(0, Math.max(0, top - 8));
    }
    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) { return; }
      /* the page's own questions (save as game N, beyond the target) are plain posts, and
         so is a game entered online while nothing of this evening waits (one tap, one
         game: the post and the page load) */
      if (event.submitter && event.submitter.name) { return; }
      if (navigator.onLine && !waitingHere) { return; }
      event.preventDefault();
      Q.all().then(function (items) {
        var waiting = mine(items).filter(function (i) { return !i.conflict; });
        var checked = form.querySelector("input[name=loser]:checked");
        var number = Number(form.querySelector("input[name=number]").value);
        if (!checked) { window.alert(text("noLoser")); return null; }
        var expected = waiting.length ? waiting[waiting.length - 1].number + 1 : Number(form.dataset.next || 0);
        if (!(number >= 1) || waiting.some(function (i) { return i.number === number; })) {
          window.alert(fill(text("taken"), { number: number })); return null;
        }
        if (number !== expected && !window.confirm(fill(text("askNumber"), { number: number, next: expected }))) {
          return null;
        }
        var entered = Number(form.dataset.entered || 0) + waiting.length;
        var beyond = false;
        if (Number(form.dataset.expected) && entered >= Number(form.dataset.expected)) {
          if (!window.confirm(text("target"))) { return null; }
          beyond = true;
        }
        var vorleger = form.querySelector("select[name=vorleger]");
        var throwers = Array.prototype.map.call(form.querySelectorAll("select[name=schock_aus]"), function (s) { return s.value; })
          .filter(function (v) { return v !== ""; });
        var item = {
          client_key: uuid(), evening: eveningId, number: number, loser: Number(checked.value),
          vorleger: vorleger && vorleger.value ? Number(vorleger.value) : null,
          schock_aus: throwers.map(Number), beyond_target: beyond,
          names: { loser: names[checked.value] || checked.value, schock_aus: throwers.map(function (v) { return names[v] || v; }) },
          api: form.dataset.api, csrf: csrf(), page: window.location.pathname,
          label: form.dataset.eveningLabel || "", queued_at: Date.now()
        };
        sentHere = 0;
        return Q.put(item).then(function () {
          waitingHere += 1;
          resetFor(number + 1, checked.value);
          if (Q.wake) { Q.wake(); }
          return Q.send ? Q.send() : null;
        });
      });
    });
    form.dataset.next = form.querySelector("input[name=number]").value;
    Q.all().then(function (items) {
      render(items);
      var waiting = mine(items).filter(function (i) { return !i.conflict && !i.as_next; });
      if (waiting.length && pristine()) {
        var last = waiting[waiting.length - 1];
        resetFor(Math.max(last.number + 1, Number(form.dataset.next)), String(last.loser));
      }
    });
  }
})();
