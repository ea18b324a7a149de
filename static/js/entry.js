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
  /* one tap saves one game: a second tap while the page loads would be refused anyway
     (the number is taken), but it would show an error for nothing */
  document.querySelectorAll("form.gameform").forEach(function (form) {
    form.addEventListener("submit", function () {
      var button = form.querySelector("button[type=submit]");
      if (button) { setTimeout(function () { button.disabled = true; }, 0); }
    });
  });
})();
