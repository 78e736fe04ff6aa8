/* The push channel's client (games/push, docs/deploy.md): the element with data-push-url (a
 * pad's live part, the director's console) opens a Server-Sent-Events stream there. Each
 * "changed" event is told to the page as
 *   document.dispatchEvent(new CustomEvent("backscore:changed", {detail: {version}}))
 * which fetches the new page part once (static/js/backscore.js). A stream opened again sends
 * the version last heard as ?last= (the server's Last-Event-ID, games/push/views.py): the server
 * sends "changed" at once if the version moved meanwhile, so a change made while the stream was
 * down is never missed, and nothing if it has not, so a restart does not make every phone fetch
 * its pad again. document.documentElement.dataset.push
 * says "up" while the stream is open, "down" while it is not (the page polls then), "off" once
 * the server said the session closed (no stream to come back to).
 * A lost stream comes back after a jittered exponential back-off (1 s doubling to 60 s, each
 * a random time up to it), so a restarted server is not met by every phone at once. */
(function () {
  "use strict";
  var root = document.documentElement;
  var source = null;
  var url = null;
  var last = "";
  var failures = 0;
  var timer = null;

  function tell(version) {
    document.dispatchEvent(new CustomEvent("backscore:changed", { detail: { version: version } }));
  }

  function later() {
    if (timer !== null) return;
    var ceiling = Math.min(60000, 1000 * Math.pow(2, failures));
    failures += 1;
    timer = window.setTimeout(function () {
      timer = null;
      open();
    }, ceiling / 2 + Math.random() * ceiling / 2);
  }

  function close() {
    if (source !== null) {
      source.close();
      source = null;
    }
  }

  function open() {
    var holder = document.querySelector("[data-push-url]");
    if (holder === null || typeof window.EventSource !== "function") {
      root.dataset.push = "down";
      return;
    }
    var found = holder.getAttribute("data-push-url");
    if (found !== url) last = "";  // another stream (another rubber): nothing heard of it yet
    url = found;
    close();
    var resume = last ? (url.indexOf("?") < 0 ? "?" : "&") + "last=" + encodeURIComponent(last) : "";
    source = new EventSource(url + resume);
    source.addEventListener("open", function () {
      failures = 0;
      root.dataset.push = "up";
    });
    source.addEventListener("changed", function (event) {
      root.dataset.push = "up";
      last = event.lastEventId || event.data || "";
      tell(event.data);
    });
    source.addEventListener("closed", function () {
      close();
      root.dataset.push = "off";
      tell(null);
    });
    source.addEventListener("error", function () {
      // The browser's own retry is replaced by ours: jittered, and a stream that ended
      // (a lapsed code, a restart) comes back the same way.
      close();
      if (root.dataset.push !== "off") {
        root.dataset.push = "down";
        later();
      }
    });
  }

  // A page part swapped in may carry another stream (another rubber): follow it.
  document.addEventListener("htmx:afterSettle", function () {
    var holder = document.querySelector("[data-push-url]");
    if (holder !== null && holder.getAttribute("data-push-url") !== url && root.dataset.push !== "off") {
      open();
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", open);
  } else {
    open();
  }
})();
