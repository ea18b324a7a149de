/* The wall screen (templates/league/wall.html): asks every few seconds whether the board
   changed, with the ETag of the board it shows; a 304 changes nothing, a 200 replaces
   the board, a 404 (the link was revoked) says so and stops asking. */
(function () {
  "use strict";
  var board = document.querySelector("[data-wall-board]");
  var status = document.querySelector("[data-wall-status]");
  if (!board) return;
  var url = board.getAttribute("data-url");
  var etag = board.getAttribute("data-etag");
  var every = parseInt(board.getAttribute("data-every"), 10) || 4000;

  function say(text) { if (status) status.textContent = text || ""; }

  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-store", credentials: "omit" })
      .then(function (response) {
        if (response.status === 404) {
          say(status && status.getAttribute("data-gone"));
          board.textContent = "";
          return "stop";
        }
        say("");
        if (response.status !== 200) return null;
        etag = response.headers.get("ETag") || etag;
        return response.text().then(function (html) { board.innerHTML = html; });
      })
      .catch(function () { say(status && status.getAttribute("data-offline")); })
      .then(function (result) { if (result !== "stop") window.setTimeout(poll, every); });
  }
  window.setTimeout(poll, every);
})();
