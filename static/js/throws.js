/* Live feedback while the secretary types a throw.
 *
 * No Schocken rules here: every throw is sent to the server (/regeln/bewerten/), where
 * games.rules decides its category, label and worth, or why it is impossible. This file
 * only collects what the round tells about the context: the Vorleger's attempts (the cap
 * for the later players) and the Schock-Aus thrown before the turn (for the Muss-Regel).
 * Without JavaScript the form still works: "Runde prüfen" checks on the server.
 */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.querySelector("form.roundsform");
  if (!form) return;
  var url = form.dataset.evaluateUrl;
  var timers = new WeakMap();
  var runs = new WeakMap();  // only a round's latest evaluation may write its results

  function field(row, suffix) {
    return row.querySelector("[name$='_" + suffix + "']");
  }

  function typed(row) {
    return field(row, "dice").value.trim() !== "" || field(row, "turn").value.trim() !== "";
  }

  // Attempts a detailed turn used: its "/"-separated parts (notation of the entry form).
  function attemptsOf(row) {
    var turn = field(row, "turn").value.trim();
    if (turn) {
      return turn.split(/[\/;\n]/).filter(function (p) { return p.trim() !== ""; }).length;
    }
    var a = parseInt(field(row, "attempts").value, 10);
    return isNaN(a) ? 3 : a;
  }

  function show(out, data) {
    out.classList.remove("good", "bad", "wait");
    out.textContent = "";
    if (data.ok) {
      out.classList.add("good");
      var label = document.createElement("span");
      label.className = "cat cat-" + data.category;
      label.textContent = data.label;
      out.appendChild(label);
      var rest = document.createElement("span");
      rest.className = "muted";
      var parts = [];
      if (data.category !== "hausnummer" && data.label !== data.category_label) {
        parts.push(data.category_label);
      }
      parts.push(form.dataset.worth.replace("{n}", data.deckel));
      rest.textContent = " " + parts.join(" · ");
      out.appendChild(rest);
      if (data.muss_regel) {
        var tag = document.createElement("span");
        tag.className = "tag";
        tag.textContent = form.dataset.muss;
        out.appendChild(document.createTextNode(" "));
        out.appendChild(tag);
      }
    } else {
      out.classList.add("bad");
      out.textContent = data.message;
    }
  }

  // Evaluate every typed row of a round in order: an earlier row's result (Vorleger's
  // attempts, a Schock-Aus) changes the context of the later ones.
  async function evaluateRound(round) {
    var run = (runs.get(round) || 0) + 1;
    runs.set(round, run);
    var rows = Array.prototype.slice.call(round.querySelectorAll(".throw"));
    var schockAus = parseInt(round.dataset.schockAusBefore || "0", 10);
    var cap = 3;
    for (var j = 0; j < rows.length; j++) {
      var row = rows[j];
      var out = row.querySelector("output.feedback");
      if (!typed(row)) {
        out.textContent = "";
        out.classList.remove("good", "bad");
        continue;
      }
      var params = new URLSearchParams({
        evening: form.dataset.evening,
        last_game: form.dataset.lastGame,
        schock_aus: String(schockAus),
        max_attempts: String(j === 0 ? 3 : cap),
        dice: field(row, "dice").value,
        attempts: field(row, "attempts").value,
        natural: field(row, "natural").checked ? "1" : "0",
        turn: field(row, "turn").value
      });
      out.classList.add("wait");
      try {
        var response = await fetch(url + "?" + params.toString(), {
          headers: { "Accept": "application/json" },
          credentials: "same-origin"
        });
        var data = await response.json();
        if (runs.get(round) !== run) return;
        show(out, data);
        if (data.ok) {
          if (j === 0) cap = data.attempts;
          if (data.category === "schock_aus") schockAus += 1;
        } else if (j === 0) {
          cap = attemptsOf(row);
        }
      } catch (e) {
        out.classList.remove("wait");
      }
    }
  }

  // The throw pad: every throw of three dice (56, highest die first) as one button under
  // the row being entered; a tap fills that row's dice (attempts left empty: three dice
  // thrown once, the server's default) and opens the next player's row.
  var pad = document.createElement("div");
  pad.className = "dice-pad";
  pad.setAttribute("role", "group");
  pad.setAttribute("aria-label", form.dataset.pad || "");
  for (var a = 6; a >= 1; a--) {
    for (var b = a; b >= 1; b--) {
      for (var c = b; c >= 1; c--) {
        var key = document.createElement("button");
        key.type = "button";
        key.className = "pad-key" + (a === 1 ? " pad-schock-aus" : "");
        key.textContent = "" + a + b + c;
        key.setAttribute("data-dice", "" + a + b + c);
        pad.appendChild(key);
      }
    }
  }
  var active = null;

  function playing(row) {
    var player = field(row, "player");
    return !player || player.value !== "";
  }

  function activate(row) {
    if (active) active.classList.remove("active");
    active = row;
    if (!row) {
      if (pad.parentNode) pad.parentNode.removeChild(pad);
      return;
    }
    row.classList.add("active");
    row.appendChild(pad);
  }

  function nextEmptyRow(after) {
    var rounds = form.querySelectorAll("fieldset.round");
    var round = rounds[rounds.length - 1];
    if (!round) return null;
    var rows = Array.prototype.slice.call(round.querySelectorAll(".throw"));
    var start = after ? rows.indexOf(after) + 1 : 0;
    for (var i = start; i < rows.length; i++) {
      if (playing(rows[i]) && !typed(rows[i])) return rows[i];
    }
    return null;
  }

  pad.addEventListener("click", function (event) {
    var key = event.target.closest("[data-dice]");
    if (!key || !active) return;
    var row = active;
    var dice = field(row, "dice");
    dice.value = key.getAttribute("data-dice");
    dice.dispatchEvent(new Event("input", { bubbles: true }));
    var next = nextEmptyRow(row);
    activate(next);
    if (next) {
      next.scrollIntoView({ block: "nearest" });
    } else {
      var go = form.querySelector(".rounds-actions .primary");
      if (go) { go.scrollIntoView({ block: "nearest" }); go.focus({ preventScroll: true }); }
    }
  });
  form.addEventListener("focusin", function (event) {
    var row = event.target.closest(".throw");
    var rounds = form.querySelectorAll("fieldset.round");
    if (row && row !== active && !pad.contains(event.target) &&
        row.closest("fieldset.round") === rounds[rounds.length - 1]) activate(row);
  });
  activate(nextEmptyRow(null));

  form.addEventListener("input", function (event) {
    var round = event.target.closest("fieldset.round");
    if (!round) return;
    clearTimeout(timers.get(round));
    timers.set(round, setTimeout(function () { evaluateRound(round); }, 250));
  });
  form.addEventListener("change", function (event) {
    var round = event.target.closest("fieldset.round");
    if (round) evaluateRound(round);
  });
})();
