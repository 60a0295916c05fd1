// The service worker: the pages this phone has opened stay readable with no network.
//
// Served at /sw.js (scope: the whole site) with SETTINGS in front of this file (views/installable.py):
// the release, the offline page and what the worker keeps from the start.
//
// - Static files under a content-hashed address (/static/…?v=digest) never change: served from the
//   cache first, fetched and kept otherwise.
// - Pages and their data (GET) under /m/…, /w/…, /meld, /rules, the home page and the manifest: the
//   network first, each good answer kept; with no network, the kept copy. A navigation with neither gets the
//   offline page.
// - A match's players' sheet brings its match's kit along (keepKit): the deal form, the house rules page
//   (with its rescale and undo forms) and the meld calculator opened for the match, the scripts only the sheet
//   loads when asked (SETTINGS.kitScripts: its deal entry panel), and the match's facts
//   (what the outbox works entries out from), fetched again whenever the sheet's version changes. So a phone
//   that opened the sheet and nothing else enters, corrects and deletes deals, changes the house rules and
//   counts meld with no signal. With no network a deal's correction or delete form that has no copy of its
//   own is the deal form's copy, which the outbox's script makes into the form asked for.
// - The sheet's live part (…/live) is left to the network: with no signal it fails, and
//   the sheet says so rather than showing an old answer as new. With no network, a page asked for with a
//   query that has no copy of its own gets a kept copy of the same page (for the meld calculator, of the
//   same match): the rest of the query is read by the page's script (the meld the calculator sends back
//   to the deal form, the hand it counts for).
// - A form sent to a match's page (POST) that gets no answer (no network, the connection refused, nothing
//   back within SEND_WAIT_MS) while the phone believes it is online: the outbox kept it before it went
//   (static/js/offline/main.js), so the phone is sent to the match's sheet from its copy (?not-sent), where
//   the outbox shows it "not sent yet" and sends it, once, when the server answers.
// - Never kept: anything but GET, another host's answers, answers marked Cache-Control: no-store
//   (pages carrying a token or a one-time message), errors and redirects.
// - Each release has its own cache (scorekeeper-<release>); on taking over, the new worker fetches
//   again the pages the old cache held (keeping the old copy when that fails) and deletes old caches.
"use strict";

/** The worker's own scope (the WebWorker library types `self` as any worker's). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const PREFIX = "scorekeeper-";
const CACHE = PREFIX + SETTINGS.release;
const KEPT_PAGES = /^\/(?:$|m\/|w\/|meld$|rules$|manifest\.webmanifest$)/;
const LIVE_PART = /\/live$/;
const MATCH_FORM = /^(\/m\/[^/]+)\/(?:deals\/new|deals\/\d+\/(?:edit|delete|throw-in)|rules(?:\/meld|\/rescale|\/undo\/\d+)?)$/;  // the outbox's
const NOT_SENT = "not-sent";
const PLAYERS_SHEET = /^\/m\/([^/]+)$/;
const DEAL_FORM = /^(\/m\/[^/]+)\/deals\/\d+\/(?:edit|delete)$/;  // served from the kit's deal form with no copy
const KEPT_FOR = "X-Kept-For";  // on each kept part of a kit: the ETag of the sheet it was kept with
const kitPages = (id) => [`/m/${id}/deals/new`, `/m/${id}/rules`, `/meld?match=${encodeURIComponent(id)}`,
  `/m/${id}/outbox/rows`];  // the parts of a sheet's row, for a deal not sent yet
const kitFacts = (id) => `/m/${id}/outbox`;  // the outbox's address: the match file, its version, a form token
const SEND_WAIT_MS = 15000;
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

// An answer as it is kept with a match's sheet of version `keptFor` (the sheet's ETag).
function stamped(response, keptFor) {
  const headers = new Headers(response.headers);
  headers.set(KEPT_FOR, keptFor);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

// A page fetched and kept, with the hashed stylesheet and scripts it links to (usually from the
// browser's own cache: they are kept for a year); `keptFor`: as part of a kit.
async function keepPage(address, keptFor = null) {
  const response = await fetch(address, { credentials: "same-origin" });
  if (!keepable(response)) return false;
  const html = await response.clone().text();
  const cache = await caches.open(CACHE);
  const links = [...html.matchAll(HASHED_LINK)].map((found) => found[1]);
  await Promise.all(links.map(async (link) => {
    if (!(await cache.match(link))) await store(link, await fetch(link));
  }));
  // Last: a page kept is a page whose stylesheet and scripts are kept.
  await cache.put(address, keptFor ? stamped(response, keptFor) : response);
  if (!keptFor) await keepKit(address, response);
  return true;
}

// The kit of the match whose players' sheet at `address` was just kept as `sheet`: kept again only when the
// sheet's version changed (its ETag). The facts go last: they mark a complete kit.
const keeping = new Map();

async function keepKit(address, sheet) {
  const url = new URL(address, self.location.origin);
  const found = PLAYERS_SHEET.exec(url.pathname);
  const version = sheet.headers.get("ETag");
  if (!found || !version) return;
  const facts = url.origin + kitFacts(found[1]);
  const cache = await caches.open(CACHE);
  const kept = await cache.match(facts);
  if ((kept && kept.headers.get(KEPT_FOR) === version) || keeping.get(facts) === version) return;
  keeping.set(facts, version);
  try {
    const [dealForm, ...pages] = kitPages(found[1]).map((page) => url.origin + page);
    // The deal form first: a phone new to the site gets its form token's secret (in its session cookie) there,
    // so the other pages' forms carry tokens from the same secret. Fetched side by side, each would make a
    // secret of its own and the last cookie would win, leaving the kept deal form's token refused.
    await keepPage(dealForm, version).catch(() => false);
    const keepScript = async (script) => (await cache.match(script)) || store(script, await fetch(script));
    await Promise.all([...pages.map((page) => keepPage(page, version)), ...SETTINGS.kitScripts.map(keepScript)]
      .map((keeping) => keeping.catch(() => false)));
    const answer = await fetch(facts, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (answer.ok && answer.type === "basic" && !answer.redirected) await cache.put(facts, stamped(answer, version));
  } finally {
    if (keeping.get(facts) === version) keeping.delete(facts);
  }
}

worker.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SETTINGS.keepFirst))
    .then(() => worker.skipWaiting()));
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

worker.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const old = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
    for (const name of old) {
      await carryOver(name).catch(() => undefined);
      await caches.delete(name);
    }
    // The page this worker was started from was opened before it: kept now (the pages register the worker
    // and nothing else: static/app.js, and static/meld.js on the calculator, which loads no app.js).
    await worker.clients.claim();
    const opened = await worker.clients.matchAll({ type: "window" });
    await Promise.all(opened.filter((client) => isKeptPage(new URL(client.url)))
      .map((client) => keepPage(client.url).catch(() => false)));
  })());
});

// A page asks for a copy of a match's sheet to be kept as the server now has it (the outbox, once the
// match's facts are confirmed).
worker.addEventListener("message", (event) => {
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

// A kept copy of the page at `url` ignoring its query: the copy without one, or for the meld calculator
// (?match=…&side=…) one opened for the same match.
async function keptAlike(url) {
  const cache = await caches.open(CACHE);
  const match = url.searchParams.get("match");
  if (match === null) return cache.match(url.origin + url.pathname, { ignoreVary: true });
  const alike = (await cache.keys()).find((kept) => {
    const other = new URL(kept.url);
    return other.pathname === url.pathname && other.searchParams.get("match") === match;
  });
  return alike ? cache.match(alike, { ignoreVary: true }) : undefined;
}

// A correction or delete form of a deal with no copy of its own: the match's deal form, kept with its sheet.
async function keptDealForm(url) {
  const found = DEAL_FORM.exec(url.pathname);
  return found ? caches.match(`${url.origin}${found[1]}/deals/new`, { ignoreVary: true }) : undefined;
}

async function networkFirst(event, keep) {
  const request = event.request;
  try {
    const response = await fetch(request);
    if (keep && await store(request, response.clone()) && request.mode === "navigate") {
      event.waitUntil(keepKit(request.url, response).catch(() => undefined));
    }
    return response;
  } catch (error) {
    const url = new URL(request.url);
    const kept = await caches.match(request, { ignoreVary: true })
      || (request.mode === "navigate" && isKeptPage(url) ? (await keptAlike(url)) || (await keptDealForm(url)) : null);
    if (kept) return kept;
    if (request.mode === "navigate") {
      const offline = await caches.match(SETTINGS.offlinePage);
      if (offline) return offline;
    }
    throw error;
  }
}

// A form sent to a match with no answer: the sheet from its copy, where the outbox shows the entry. A form
// that writes nothing (no write key: a rules preview) fails as it would without the worker.
async function sendForm(request, sheet) {
  const kept = request.clone().formData().then((fields) => fields.has("write_key"), () => false);
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error("no answer")), SEND_WAIT_MS); });
  try {
    return await Promise.race([fetch(request), late]);
  } catch (error) {
    if (!(await kept)) throw error;
    return Response.redirect(`${self.location.origin}${sheet}?${NOT_SENT}`, 303);
  } finally {
    clearTimeout(timer);
  }
}

// The sheet right after a form got no answer: its kept copy at once (the network just failed), else the
// network, else the offline page (the entry waits in the outbox all the same).
async function sheetAfterFailedSend(request) {
  const url = new URL(request.url);
  return (await caches.match(url.origin + url.pathname, { ignoreVary: true }))
    || fetch(request).catch(async (error) => (await caches.match(SETTINGS.offlinePage)) || Promise.reject(error));
}

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  const form = url.origin === self.location.origin && MATCH_FORM.exec(url.pathname);
  if (request.method === "POST" && request.mode === "navigate" && form) {
    event.respondWith(sendForm(request, form[1]));
    return;
  }
  if (request.mode === "navigate" && url.search === `?${NOT_SENT}`) {
    event.respondWith(sheetAfterFailedSend(request));
    return;
  }
  if (request.method !== "GET" || url.origin !== self.location.origin || LIVE_PART.test(url.pathname)) return;
  if (isHashedStatic(url)) {
    event.respondWith(cacheFirst(request));
  } else if (isKeptPage(url) || request.mode === "navigate") {
    event.respondWith(networkFirst(event, isKeptPage(url)));
  }
});
