// The service worker: the pages this phone has opened stay readable with no network.
//
// Served at /sw.js (scope: the whole site) with SETTINGS in front of this file (views/installable.py):
// the release, the offline page and what the worker keeps from the start.
//
// - Static files under a content-hashed address (/static/…?v=digest) never change: served from the
//   cache first, fetched and kept otherwise.
// - Pages and their data (GET) under /m/…, /w/…, /meld, /rules, the home page and the manifest: the
//   network first, each good answer kept; with no network, the kept copy. A navigation with neither gets the
//   offline page. The sheet's live part (…/live) is left to the network: with no signal it fails, and
//   the sheet says so rather than showing an old answer as new.
// - Never kept: anything but GET, another host's answers, answers marked Cache-Control: no-store
//   (pages carrying a token or a one-time message), errors and redirects.
// - Each release has its own cache (scorekeeper-<release>); on taking over, the new worker fetches
//   again the pages the old cache held (keeping the old copy when that fails) and deletes old caches.
"use strict";

const PREFIX = "scorekeeper-";
const CACHE = PREFIX + SETTINGS.release;
const KEPT_PAGES = /^\/(?:$|m\/|w\/|meld$|rules$|manifest\.webmanifest$)/;
const LIVE_PART = /\/live$/;
const HASHED_LINK = /(?:href|src)=["'](\/static\/[^"'?]+\?v=[0-9a-f]+)["']/g;

const isHashedStatic = (url) => url.pathname.startsWith("/static/") && url.searchParams.has("v");
const isKeptPage = (url) => KEPT_PAGES.test(url.pathname) && !LIVE_PART.test(url.pathname);

function keepable(response) {
  return response.ok && response.type === "basic" && !response.redirected
    && !/no-store/i.test(response.headers.get("Cache-Control") || "");
}

async function store(request, response) {
  if (!keepable(response)) return false;
  const cache = await caches.open(CACHE);
  await cache.put(request, response);
  return true;
}

// A page fetched and kept, with the hashed stylesheet and scripts it links to (usually from the
// browser's own cache: they are kept for a year).
async function keepPage(address) {
  const response = await fetch(address, { credentials: "same-origin" });
  if (!keepable(response)) return false;
  const html = await response.clone().text();
  await store(address, response);
  const cache = await caches.open(CACHE);
  const links = [...html.matchAll(HASHED_LINK)].map((found) => found[1]);
  await Promise.all(links.map(async (link) => {
    if (!(await cache.match(link))) await store(link, await fetch(link));
  }));
  return true;
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SETTINGS.keepFirst))
    .then(() => self.skipWaiting()));
});

// The pages an older release kept are fetched again for this one; a page that cannot be fetched now
// keeps its old copy and what it links to.
async function carryOver(oldName) {
  const old = await caches.open(oldName);
  const cache = await caches.open(CACHE);
  for (const request of await old.keys()) {
    const url = new URL(request.url);
    if (!isKeptPage(url)) continue;
    const refreshed = await keepPage(request.url).catch(() => false);
    if (refreshed) continue;
    const copy = await old.match(request);
    const html = await copy.clone().text();
    await cache.put(request, copy);
    for (const found of html.matchAll(HASHED_LINK)) {
      const linked = await old.match(found[1]);
      if (linked) await cache.put(found[1], linked);
    }
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const old = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
    for (const name of old) {
      await carryOver(name).catch(() => undefined);
      await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// A page opened before this worker started was not seen by it: the page asks for a copy to be kept.
self.addEventListener("message", (event) => {
  const address = event.data && event.data.keep;
  if (typeof address !== "string") return;
  const url = new URL(address, self.location.origin);
  if (url.origin !== self.location.origin || !isKeptPage(url)) return;
  event.waitUntil(keepPage(url.href).catch(() => false).then((kept) => {
    if (event.source) event.source.postMessage({ kept: url.href, ok: kept });
  }));
});

async function cacheFirst(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  await store(request, response.clone());
  return response;
}

async function networkFirst(request, keep) {
  try {
    const response = await fetch(request);
    if (keep) await store(request, response.clone());
    return response;
  } catch (error) {
    const kept = await caches.match(request, { ignoreVary: true });
    if (kept) return kept;
    if (request.mode === "navigate") {
      const offline = await caches.match(SETTINGS.offlinePage);
      if (offline) return offline;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || LIVE_PART.test(url.pathname)) return;
  if (isHashedStatic(url)) {
    event.respondWith(cacheFirst(request));
  } else if (isKeptPage(url) || request.mode === "navigate") {
    event.respondWith(networkFirst(request, isKeptPage(url)));
  }
});
