/* The reminders page: switch web push on (and off) for this device. Uses the site's
   service worker (static/js/sw.js, registered by app.js; it shows the pushes), subscribes
   with the site's VAPID public key (data-key, base64url) and sends the subscription to
   POST /api/v1/push-subscriptions/; switching off unsubscribes and sends DELETE with the
   endpoint. A subscription the browser already holds is only looked up when the page
   opens (GET with its endpoint): "on" is shown when the server keeps it for this login;
   nothing is sent without a tap. The status line says what happened, in the page's words
   (data-*). */
(function () {
  "use strict";
  var box = document.querySelector("[data-push]");
  if (!box) { return; }
  var on = box.querySelector("[data-push-on]");
  var off = box.querySelector("[data-push-off]");
  var status = box.querySelector("[data-push-status]");
  function say(name) { status.textContent = box.dataset[name] || ""; }
  function showOn(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    on.disabled = false;
    off.disabled = false;
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.fetch || !window.Promise) {
    on.disabled = true;
    say("unsupported");
    return;
  }
  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    if (input) { return input.value; }
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }
  /* The VAPID public key: base64url text to the bytes pushManager.subscribe() takes. */
  function keyBytes(text) {
    var base64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }
  /* The site's worker: the one app.js registered, or registered here (same URL, scope). */
  function registration() {
    return navigator.serviceWorker.getRegistration("/").then(function (reg) {
      if (reg) { return reg; }
      return navigator.serviceWorker.register(document.body.dataset.sw || "/sw.js", { scope: "/" });
    }).then(function () { return navigator.serviceWorker.ready; });
  }
  function send(method, body) {
    return fetch(box.dataset.endpoint, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body)
    }).then(function (response) {
      if (!response.ok) { throw new Error("answer " + response.status); }
    });
  }
  function refused(error) {
    return (error && error.name === "NotAllowedError") ||
      (window.Notification && Notification.permission === "denied");
  }
  on.addEventListener("click", function () {
    on.disabled = true;
    say("working");
    registration().then(function (reg) {
      return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(box.dataset.key) });
    }).then(function (subscription) {
      return send("POST", subscription.toJSON());
    }).then(function () {
      showOn(true);
      say("on");
    }, function (error) {
      showOn(false);
      say(refused(error) ? "refused" : "failed");
    });
  });
  off.addEventListener("click", function () {
    off.disabled = true;
    registration().then(function (reg) {
      return reg.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) { return null; }
      var endpoint = subscription.endpoint;
      return subscription.unsubscribe().then(function () { return send("DELETE", { endpoint: endpoint }); });
    }).then(function () {
      showOn(false);
      say("off");
    }, function () {
      off.disabled = false;
      say("offFailed");
    });
  });
  /* Whether the server keeps the browser's subscription for the person logged in:
     {"subscribed": true|false}; anything else (an error status, no answer) rejects. */
  function kept(endpoint) {
    var url = box.dataset.endpoint + "?endpoint=" + encodeURIComponent(endpoint);
    return fetch(url, {
      credentials: "same-origin",
      headers: { "Accept": "application/json" }
    }).then(function (response) {
      if (!response.ok) { throw new Error("answer " + response.status); }
      return response.json();
    }).then(function (answer) { return answer.subscribed === true; });
  }
  /* The browser already holds a subscription: it may be an earlier login's on a shared
     phone (a logout forgets that person's subscriptions on the server, not in the
     browser), or the server dropped it (the push service called it gone). So only ask the
     server, never send it: push is switched on only by a tap on the button. Kept for this
     login: "on"; not kept: offer the button and say push is not on for this login here;
     no answer: the state stays unknown and the button works. The button waits meanwhile,
     so a tap cannot cross the answer. No worker yet: the button registers one when
     tapped. */
  navigator.serviceWorker.getRegistration("/").then(function (reg) {
    return reg ? reg.pushManager.getSubscription() : null;
  }).then(function (subscription) {
    if (subscription) {
      on.disabled = true;
      return kept(subscription.endpoint).then(function (subscribed) {
        showOn(subscribed);
        say(subscribed ? "on" : "stale");
      });
    }
    if (window.Notification && Notification.permission === "denied") { say("refused"); }
  }).catch(function () {
    on.disabled = false; /* the state stays unknown: the button still works */
  });
})();
