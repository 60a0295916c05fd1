// What a phone can do beyond the page: follow the score sheet as it changes, share a link, keep the
// screen on, show times in its own zone. Every page works without this file: a reload brings the sheet
// up to date, the links can be copied by hand, times read in UTC.
"use strict";

// The server's words (rules/messages.py PAGE_WORDS, drawn into a data attribute) with their {fields} filled in.
const filled = (words, fields) => words.replace(/\{(\w+)\}/g, (_, name) => fields[name]);

// Share: the phone's share sheet where it has one, else copy the link, with a word that it worked (the server's
// words, drawn on the word's place: data-shared, data-copied, data-not-copied).
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // A phone on the table's Wi-Fi reaches the app over plain http, where the clipboard API is missing.
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.className = "visually-hidden";
  document.body.append(field);
  field.select();
  const copied = document.execCommand("copy");
  field.remove();
  if (!copied) throw new Error("copy refused");
}

function setUpShare(box) {
  const button = box.querySelector("[data-share-url]");
  const done = box.querySelector("[data-share-done]");
  const url = new URL(button.dataset.shareUrl, location.href).href;
  const canShare = typeof navigator.share === "function";
  if (!canShare) button.textContent = button.dataset.copyLabel;  // no share sheet: the button copies the link
  const say = (text) => { done.textContent = text; };
  const copy = () => copyText(url).then(() => say(done.dataset.copied), () => say(done.dataset.notCopied));
  button.addEventListener("click", () => {
    say("");
    if (!canShare) { copy(); return; }
    navigator.share({ title: button.dataset.shareTitle, url }).then(
      () => say(done.dataset.shared),
      (error) => { if (error.name !== "AbortError") copy(); },
    );
  });
  box.hidden = false;
}

// Keep the screen on during a match: a Wake Lock while the box is ticked, taken again when the
// phone comes back to the page (the browser lets it go whenever the page is hidden).
const KEEP_AWAKE = "keep-screen-on";

function setUpWakeLock(box) {
  if (!("wakeLock" in navigator)) return;  // stays hidden
  const toggle = box.querySelector("[data-wake-lock-toggle]");
  let lock = null;
  const take = async () => {
    if (lock || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      box.dataset.locked = "true";
      lock.addEventListener("release", () => { lock = null; box.dataset.locked = "false"; });
    } catch {
      toggle.checked = false;  // refused (battery saver): the box says what is true
    }
  };
  toggle.addEventListener("change", () => {
    try { localStorage.setItem(KEEP_AWAKE, toggle.checked ? "1" : "0"); } catch { /* private mode */ }
    if (toggle.checked) take();
    else if (lock) lock.release();
  });
  document.addEventListener("visibilitychange", () => { if (toggle.checked) take(); });
  let wanted = false;
  try { wanted = localStorage.getItem(KEEP_AWAKE) === "1"; } catch { /* private mode */ }
  toggle.checked = wanted;
  if (wanted) take();
  box.hidden = false;
}

// Local time: a <time> written in UTC by the server is shown in the phone's zone.
function showLocalTime(element) {
  const moment = new Date(element.dateTime);
  if (Number.isNaN(moment.getTime())) return;
  element.textContent = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(moment);
  element.title = `${element.dateTime.replace("T", " ").replace("Z", "")} UTC`;
}

// The result card of a decided match: shared as a picture by static/share_result.js (named by its link), loaded
// once the winner shows; without it the link downloads the card. The banner comes and goes with the live sheet.
const shareResultCard = () => {
  const link = document.querySelector("[data-share-result]");
  if (link) import(link.dataset.shareResult).then((card) => card.drawAhead(link)).catch(() => {});
};
shareResultCard();
document.addEventListener("sheet-changed", shareResultCard);

document.querySelectorAll("[data-share]").forEach(setUpShare);
document.querySelectorAll("[data-wake-lock]").forEach(setUpWakeLock);
document.querySelectorAll("time[data-local-time]").forEach(showLocalTime);

// The live score sheet: while the sheet is on screen, ask every LIVE_EVERY_MS whether the match changed
// (with the ETag of the version shown: the server answers 304, with nothing, while nothing changed) and
// swap in the new totals and rows, marking the ones that changed. A sheet left alone for LIVE_IDLE_AFTER_MS
// asks less often, a hidden page not at all, and a failed look waits longer each time; a touch, a key or the
// page coming back asks at once. Without this script the sheet is the same page, brought up to date by a reload.

const LIVE_EVERY_MS = 1500;
const LIVE_IDLE_AFTER_MS = 10 * 60 * 1000;  // no change and no touch for this long: the table has stopped
const LIVE_IDLE_EVERY_MS = 10000;
const LIVE_LONGEST_WAIT_MS = 30000;
const LIVE_GIVE_UP_MS = 10000;  // a look unanswered this long is a lost connection

function bareTag(header) {
  const found = /"([^"]*)"/.exec(header || "");
  return found ? found[1] : null;
}

// The match's version an entity tag names ("12-<release>", "watch-12-<release>"); -1 for none.
const versionOf = (tag) => Number(/(\d+)-[^-]*$/.exec(tag || "")?.[1] ?? -1);

function clockTime(date) {
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// Put the new live part, of entity tag `tag`, in place of the old one; mark the rows and totals whose text
// changed. An explanation open behind its "?" stays open. The notices above the sheet ("Deal 12 saved · Undo",
// "not sent yet") spoke of the sheet as it was: they go (a save on this phone puts its own in after). A part of an
// older version than the one shown (a save's answer come after a look that brought a later change) is left out:
// false.
function swapLivePart(region, html, tag = null) {
  if (tag && versionOf(tag) < versionOf(region.dataset.etag)) return false;
  document.querySelectorAll("main > .flashes").forEach((notice) => notice.remove());
  const opened = new Set([...region.querySelectorAll("details[open] > summary[aria-label]")]
    .map((summary) => summary.getAttribute("aria-label")));
  const before = new Map();
  region.querySelectorAll("tr[id]").forEach((row) => before.set(row.id, row.textContent));
  const totalsBefore = [...region.querySelectorAll(".total")].map((total) => total.textContent);
  const incoming = document.createElement("template");
  incoming.innerHTML = html;
  incoming.content.querySelectorAll("tr[id]").forEach((row) => {
    if (before.get(row.id) !== row.textContent) row.classList.add("row-changed");
  });
  incoming.content.querySelectorAll(".total").forEach((total, index) => {
    if (totalsBefore[index] !== total.textContent) total.classList.add("row-changed");
  });
  incoming.content.querySelectorAll("details > summary[aria-label]").forEach((summary) => {
    if (opened.has(summary.getAttribute("aria-label"))) /** @type {HTMLDetailsElement} */ (summary.parentElement).open = true;
  });
  region.replaceChildren(incoming.content);
  region.dataset.etag = tag ?? region.dataset.etag;
  return true;
}

function followSheet(region) {
  const status = document.querySelector("[data-live-status]");
  let timer = null;
  let failures = 0;
  let heardAt = new Date();
  let activeAt = Date.now();  // the last change seen or touch on the page
  let asking = null;  // the AbortController of the look under way

  // In the server's words, drawn on the line (data-up-to-date, data-no-connection, data-gone), {time} filled in.
  const say = (words, warning, time = "") => {
    if (!status) return;
    status.hidden = false;
    status.textContent = filled(status.dataset[words], { time });
    status.classList.toggle("notice-warning", warning);
  };
  const schedule = (delay) => {
    clearTimeout(timer);
    timer = setTimeout(look, delay);
  };

  const interval = () => (Date.now() - activeAt > LIVE_IDLE_AFTER_MS ? LIVE_IDLE_EVERY_MS : LIVE_EVERY_MS);

  async function look() {
    if (asking || document.visibilityState !== "visible") return;  // looked at again when the page shows
    const controller = new AbortController();
    asking = controller;
    const giveUp = setTimeout(() => controller.abort(), LIVE_GIVE_UP_MS);
    let delay;
    try {
      const answer = await fetch(region.dataset.liveUrl, {
        headers: { "If-None-Match": `W/"${region.dataset.etag}"` },
        cache: "no-store",
        credentials: "same-origin",
        signal: controller.signal,
      });
      if (answer.status === 404) {
        say("gone", true);
        return;  // nothing more to follow
      }
      const tag = bareTag(answer.headers.get("ETag"));
      const html = answer.status === 200 ? await answer.text() : "";
      // Told once the answer is whole: a save in the entry panel may have shown this version, or a newer one, since.
      if (answer.status === 200 && tag !== region.dataset.etag && swapLivePart(region, html, tag)) {
        activeAt = Date.now();
        region.dispatchEvent(new Event("sheet-changed", { bubbles: true }));  // app.js: what is kept offline follows
      } else if (answer.status !== 200 && answer.status !== 304) {
        throw new Error(`status ${answer.status}`);
      }
      failures = 0;
      heardAt = new Date();
      say("upToDate", false, clockTime(heardAt));
      delay = interval();
    } catch {
      failures += 1;
      say("noConnection", true, clockTime(heardAt));
      delay = Math.min(LIVE_EVERY_MS * 2 ** failures, LIVE_LONGEST_WAIT_MS);  // never a quick round of failures
    } finally {
      clearTimeout(giveUp);
      asking = null;
    }
    if (delay !== undefined) schedule(delay);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") schedule(0);
  });
  window.addEventListener("online", () => schedule(0));
  for (const event of ["pointerdown", "keydown"]) {
    document.addEventListener(event, () => {
      const wasIdle = Date.now() - activeAt > LIVE_IDLE_AFTER_MS;
      activeAt = Date.now();
      if (wasIdle) schedule(0);
    }, { passive: true });
  }
  schedule(LIVE_EVERY_MS);
}

document.querySelectorAll(".live-sheet[data-live-url]").forEach(followSheet);


// "+ Add deal" and a deal's row (its number, its scores) open the deal form over the sheet with no page load
// (static/entry.js, named by the players' sheet, loaded on the first tap); without it the links open the form
// page. Once loaded, the panel opens within the tap. A deal not sent yet (js/offline/sheet.js) links to its form
// page with the entry's key (#fix=…), where the outbox puts what was typed back to be changed: opened there.
const entryPanel = document.querySelector("[data-entry-panel]");
let entryModule = null;
if (entryPanel) document.addEventListener("click", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const link = /** @type {HTMLAnchorElement | null} */ (target.closest(".live-sheet :is(.add-deal, .deal-number a)")
    || (!target.closest("a") && target.closest(".live-sheet tr")?.querySelector(".deal-number a")));
  if (!link || event.button || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  if (link.hash.startsWith("#fix=")) { location.assign(link.href); return; }
  if (entryModule) { entryModule.openEntry(link); return; }
  import(entryPanel.dataset.entryPanel).then((panel) => { entryModule = panel; panel.openEntry(link); },
    () => location.assign(link.href));
});


// A club event's countdown ("12:40 left", then the time is up), from the round's end time the server drew into
// the page with its words (data-left, data-time-up): it runs on the phone's clock, so a page kept offline counts
// down too.
function runCountdown(element) {
  const endsAt = Date.parse(element.dataset.endsAt);
  if (Number.isNaN(endsAt)) return;
  const tick = () => {
    if (!element.isConnected) return;  // replaced by a newer live part, which counts on its own
    const left = Math.ceil((endsAt - Date.now()) / 1000);
    if (left <= 0) {
      element.textContent = element.dataset.timeUp;
      element.classList.add("time-up");
      return;
    }
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    element.textContent = filled(element.dataset.left, { time });
    setTimeout(tick, 1000 - (Date.now() % 1000));
  };
  tick();
}

document.querySelectorAll("[data-ends-at]").forEach(runCountdown);
document.addEventListener("sheet-changed", (event) =>
  /** @type {HTMLElement} */ (event.target).querySelectorAll("[data-ends-at]").forEach(runCountdown));


// A club event's table: once this phone's player taps their name (kept on the phone for this match), the line
// above the sheet is said from their seat: "Round 3: table 5, with Bob, against Cy and Di." (the server's words:
// data-i-am, data-seat, data-seat-alone, data-and).
function sayTheSeat(line) {
  const sides = JSON.parse(line.dataset.sides);
  const key = "seat " + location.pathname;
  const words = line.dataset;
  const names = (list) => (list.length ? list.reduce((first, second) => filled(words.and, { first, second })) : "");
  const show = (me) => {
    const mine = sides.findIndex((side) => side.includes(me));
    if (mine < 0) return false;
    const partners = sides[mine].filter((name) => name !== me);
    const seat = { place: words.place, partners: names(partners), opponents: names(sides[1 - mine]) };
    const said = filled(partners.length ? words.seat : words.seatAlone, seat);
    line.querySelector("[data-event-where]").textContent = said;
    return true;
  };
  try {
    if (show(localStorage.getItem(key))) return;
  } catch {
    return;  // no storage on this phone: the line names both sides
  }
  const pick = document.createElement("p");
  pick.append(words.iAm);
  for (const name of sides.flat()) {
    const button = Object.assign(document.createElement("button"), { type: "button", className: "link-button" });
    button.textContent = name;
    button.addEventListener("click", () => {
      localStorage.setItem(key, name);
      show(name);
      pick.remove();
    });
    pick.append(" ", button);
  }
  line.append(pick);
}

document.querySelectorAll("[data-event-line]").forEach(sayTheSeat);
