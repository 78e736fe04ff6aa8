// Backscore's service worker (docs/offline.md), served from the site's root as /sw.js.
//
// It answers only for what a page put in its cache: the rubber page a player has open, and the
// static files that page loads (static/js/offline.js adds them while online). Pages are asked of
// the network first and kept fresh; without a connection the copy kept is answered. Static files
// come from the cache and are refreshed behind. Everything else, and every POST, goes straight to
// the network: deals are never answered from here (the page queues them; docs/offline.md).
"use strict";

const CACHE = "backscore-v1";
// A table's Wi-Fi that neither answers nor fails: give up on the network for a kept page.
const NETWORK_WAIT_MS = 6000;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((key) => key.startsWith("backscore-") && key !== CACHE).map((key) => caches.delete(key)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

function pageKey(url) {
  const u = new URL(url);
  u.hash = "";
  return u.href;
}

function keepable(response) {
  return response && response.ok && response.type === "basic" && !response.redirected;
}

async function networkFirst(request, kept) {
  const cache = await caches.open(CACHE);
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), NETWORK_WAIT_MS);
  });
  const network = fetch(request)
    .then((response) => {
      if (keepable(response)) cache.put(pageKey(request.url), response.clone());
      return response;
    })
    .catch(() => null);
  const answer = await Promise.race([network, timeout]);
  clearTimeout(timer);
  return answer || kept || (await network) || Response.error();
}

async function cacheFirst(request, kept, event) {
  const refresh = fetch(request)
    .then(async (response) => {
      if (keepable(response)) await (await caches.open(CACHE)).put(request, response.clone());
      return response;
    })
    .catch(() => null);
  event.waitUntil(refresh);
  return kept || (await refresh) || Response.error();
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  // htmx's partial answers are never kept: the page they update is refreshed whole.
  if (request.headers.get("HX-Request")) return;
  // The push channel's streams (static/js/push.js) go to the network untouched: never kept.
  if ((request.headers.get("Accept") || "").includes("text/event-stream")) return;
  event.respondWith(
    caches.match(pageKey(request.url), { cacheName: CACHE, ignoreVary: true }).then((kept) => {
      if (!kept) return fetch(request);
      // A page (a navigation, or the page script refreshing its kept copy) is the server's
      // whenever the server answers; only files are answered from the cache first.
      const page = request.mode === "navigate" || (request.headers.get("Accept") || "").includes("text/html");
      return page ? networkFirst(request, kept) : cacheFirst(request, kept, event);
    }),
  );
});
