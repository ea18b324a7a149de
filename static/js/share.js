/* The evening's share page: copy the text, or hand text and card to the phone's share
   sheet (Web Share API) where the browser has one. Without JavaScript the text stays
   selectable and the card downloadable. */
(function () {
  "use strict";
  var box = document.querySelector("[data-share]");
  if (!box) { return; }
  var text = box.querySelector("textarea");
  var status = box.querySelector("[data-share-status]");
  var copy = box.querySelector("[data-share-copy]");
  var send = box.querySelector("[data-share-send]");
  function say(message) { status.textContent = message; }
  copy.addEventListener("click", function () {
    var done = function () { say(copy.dataset.done || "Text kopiert."); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text.value).then(done, function () {
        text.select(); document.execCommand("copy"); done();
      });
    } else {
      text.select(); document.execCommand("copy"); done();
    }
  });
  if (!navigator.share) { return; }
  send.hidden = false;
  send.addEventListener("click", function () {
    var data = { title: box.dataset.title, text: text.value };
    fetch(box.dataset.card, { credentials: "same-origin" }).then(function (r) { return r.blob(); })
      .then(function (blob) {
        var file = new File([blob], "abend.png", { type: "image/png" });
        if (navigator.canShare && navigator.canShare({ files: [file] })) { data.files = [file]; }
        return navigator.share(data);
      }).catch(function (error) {
        if (error && error.name === "AbortError") { return; }
        return navigator.share({ title: box.dataset.title, text: text.value }).catch(function () {});
      });
  });
})();
