// What a phone can do beyond the page: follow the score sheet as it changes, share a link, keep the
// screen on, show times in its own zone. Every page works without this file: a reload brings the sheet
// up to date, the links can be copied by hand, times read in UTC.
"use strict";

// Share: the phone's share sheet where it has one, else copy the link, with a word that it worked.
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
  if (!canShare) button.textContent = button.textContent.replace(/^Share/, "Copy");
  const say = (text) => { done.textContent = text; };
  const copy = () => copyText(url).then(() => say("Copied"), () => say("Could not copy: press on the link above"));
  button.addEventListener("click", () => {
    say("");
    if (!canShare) { copy(); return; }
    navigator.share({ title: button.dataset.shareTitle, url }).then(
      () => say("Shared"),
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

// New match: the phone's date names a match left without a name.
function fillLocalDate(field) {
  const now = new Date();
  const pad = (value) => String(value).padStart(2, "0");
  field.value = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

document.querySelectorAll("[data-share]").forEach(setUpShare);
document.querySelectorAll("[data-wake-lock]").forEach(setUpWakeLock);
document.querySelectorAll("time[data-local-time]").forEach(showLocalTime);
document.querySelectorAll("input[data-local-date]").forEach(fillLocalDate);

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

function clockTime(date) {
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// Put the new live part in place of the old one; mark the rows and totals whose text changed.
function swapLivePart(region, html) {
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
  region.replaceChildren(incoming.content);
}

function followSheet(region) {
  const status = document.querySelector("[data-live-status]");
  let timer = null;
  let failures = 0;
  let heardAt = new Date();
  let activeAt = Date.now();  // the last change seen or touch on the page
  let asking = null;  // the AbortController of the look under way

  const say = (text, warning) => {
    if (!status) return;
    status.hidden = false;
    status.textContent = text;
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
        say("This match is no longer on the server.", true);
        return;  // nothing more to follow
      }
      if (answer.status === 200) {
        swapLivePart(region, await answer.text());
        region.dataset.etag = bareTag(answer.headers.get("ETag")) ?? region.dataset.etag;
        activeAt = Date.now();
        region.dispatchEvent(new Event("sheet-changed", { bubbles: true }));  // app.js: what is kept offline follows
      } else if (answer.status !== 304) {
        throw new Error(`status ${answer.status}`);
      }
      failures = 0;
      heardAt = new Date();
      say(`Live: up to date at ${clockTime(heardAt)}`, false);
      delay = interval();
    } catch {
      failures += 1;
      say(`No connection since ${clockTime(heardAt)}: the sheet may be out of date. It catches up by itself.`, true);
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

// The deal entry on the score sheet: "+ Add deal" and a deal's number open the deal form (the one the form
// page draws, fetched from its address) in a panel over the sheet, and Save sends it with fetch: no page
// load. The button says "Saving…" until the server answers, and the sheet's part that changed comes with
// the answer ("Deal N saved · Undo"); a refusal keeps the panel, with the server's messages at their fields;
// with no network the outbox keeps the deal ("not sent yet") and sends it once the network is back. The form
// keeps its write key, so a double tap or a retry is one deal. Without this script the links open the form page.

const ENTRY_LINK = "a.add-deal, td.deal-number a";
const SLOW_ANSWER_MS = 3000;  // no answer yet: say that it is not sent yet

function setUpEntryPanel(region) {
  const panel = document.createElement("dialog");
  panel.className = "entry-panel";
  panel.setAttribute("aria-labelledby", "entry-title");
  panel.innerHTML = '<div class="entry-head"><h2 id="entry-title"></h2>'
    + '<button type="button" class="button quiet entry-close">Close</button></div>'
    + '<p class="entry-status" role="status" aria-live="polite"></p><div class="entry-body"></div>';
  document.body.append(panel);
  const title = panel.querySelector("h2");
  const status = panel.querySelector(".entry-status");
  const body = panel.querySelector(".entry-body");
  const say = (text) => { status.textContent = text; };
  let opening = 0;

  // The form page's content (the form, its notices and messages) put in the panel; false if it has no deal form.
  const showForm = (html, action) => {
    const page = new DOMParser().parseFromString(html, "text/html");
    const main = page.querySelector("main");
    const form = main && main.querySelector("form.deal-form");
    if (!form) return false;
    form.setAttribute("action", action);
    const heading = main.querySelector("h1");
    title.textContent = heading ? heading.textContent : "Deal";
    main.querySelectorAll("h1, .flashes").forEach((node) => node.remove());
    body.replaceChildren(...document.importNode(main, true).childNodes);
    const placed = body.querySelector("form.deal-form");
    const cancel = placed.querySelector("p.row a.quiet");
    if (cancel) cancel.addEventListener("click", (event) => { event.preventDefault(); panel.close(); });
    if (typeof enhanceDealForm === "function") enhanceDealForm(placed);  // app.js
    return true;
  };
  const focusFirst = () => {
    const shown = (field) => field.offsetParent !== null && !field.closest("details:not([open])");
    const fields = [...body.querySelectorAll('[aria-invalid="true"]'), ...body.querySelectorAll('input[inputmode="numeric"]')];
    const first = fields.find(shown);
    if (first) first.focus();
  };

  const open = async (url) => {
    const asked = ++opening;
    let response;
    try {
      response = await fetch(url, { credentials: "same-origin" });
    } catch {
      location.assign(url);  // neither the network nor a copy on this phone: the page says so
      return;
    }
    if (asked !== opening) return;
    if (!response.ok || !showForm(await response.text(), new URL(url, location.href).href)) {
      location.assign(url);
      return;
    }
    say("");
    if (!panel.open) panel.showModal();
    focusFirst();
  };

  // The sheet as the server answered the save: its live part, the "saved" notice and any offer after it.
  const showSheet = (html) => {
    const page = new DOMParser().parseFromString(html, "text/html");
    const live = page.querySelector(".live-sheet");
    if (!live) { location.reload(); return; }
    document.querySelectorAll("main > .flashes, #dead-contract").forEach((node) => node.remove());
    swapLivePart(region, live.innerHTML);
    region.dataset.etag = live.dataset.etag;
    const offer = page.querySelector("#dead-contract");
    if (offer) region.before(document.importNode(offer, true));
    document.querySelector("main").prepend(...[...page.querySelectorAll("main > .flashes")].map((node) => document.importNode(node, true)));
    region.dispatchEvent(new Event("sheet-changed", { bubbles: true }));
    if (typeof showChangedRow === "function") showChangedRow();  // app.js
  };

  const notice = (text) => {
    document.querySelectorAll("main > .flashes").forEach((node) => node.remove());
    const box = document.createElement("div");
    box.className = "flashes";
    box.innerHTML = '<div class="flash flash-info saved-notice" role="status"></div>';
    box.firstChild.textContent = text;
    document.querySelector("main").prepend(box);
  };

  // Kept on this phone by the outbox (app.js, js/offline/main.js), which shows it on the sheet as not sent yet.
  const keepForLater = async (form, submitter, ready) => {
    say("Not sent yet: keeping it on this phone…");
    const kept = {};
    const keeping = new Promise((resolve, reject) => Object.assign(kept, { resolve, reject }));
    document.dispatchEvent(new CustomEvent("outbox:keep", { detail: { form, submitter, kept } }));
    try {
      await keeping;
    } catch {
      say("No connection: nothing was sent. Keep this open and save again once online.");
      ready();
      return;
    }
    const name = title.textContent;
    panel.close();
    notice(`${name}: not sent yet. It is kept on this phone and sent when the network is back.`);
  };

  const save = async (form, submitter) => {
    const button = form.querySelector("[data-submit-once]");
    if (button.getAttribute("aria-busy") === "true") return;  // a second tap: the first is under way
    const label = button.textContent;
    const ready = () => { button.textContent = label; button.removeAttribute("aria-busy"); };
    button.setAttribute("aria-busy", "true");
    if (!navigator.onLine) {
      button.textContent = "Not sent yet";
      await keepForLater(form, submitter, ready);
      return;
    }
    button.textContent = "Saving…";
    say("Saving…");
    const slow = setTimeout(() => say("Saving… not sent yet: waiting for the server's answer."), SLOW_ANSWER_MS);
    let response;
    let html;
    try {
      response = await fetch(form.action, { method: "POST", body: new FormData(form, submitter), credentials: "same-origin" });
      html = await response.text();
    } catch {
      button.textContent = "Not sent yet";
      await keepForLater(form, submitter, ready);
      return;
    } finally {
      clearTimeout(slow);
    }
    if (response.ok && new URL(response.url).pathname === location.pathname) {
      button.textContent = "Saved";
      say("Saved");
      showSheet(html);
      panel.close();
      return;
    }
    if (!response.ok && showForm(html, form.action)) {  // refused (422): the form again, with its messages
      say("Not saved: check the fields marked in red.");
      focusFirst();
      return;
    }
    ready();
    const page = new DOMParser().parseFromString(html, "text/html");
    const reason = page.querySelector("main p");
    say(`Not saved: ${reason ? reason.textContent.trim() : `the server answered ${response.status}`}`);
  };

  panel.querySelector(".entry-close").addEventListener("click", () => panel.close());
  panel.addEventListener("close", () => { opening += 1; body.replaceChildren(); say(""); });
  document.addEventListener("click", (event) => {
    const link = event.target.closest(ENTRY_LINK);
    if (!link || !region.contains(link) || event.defaultPrevented || event.button !== 0
        || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (!link.matches(".add-deal") && !navigator.onLine) return;  // the form page, filled in by the outbox
    event.preventDefault();
    open(link.href);
  });
  // Before app.js's outbox sees it (it listens on the document): the panel's form is sent here.
  window.addEventListener("submit", (event) => {
    if (!panel.contains(event.target)) return;
    event.preventDefault();
    event.stopPropagation();
    save(event.target, event.submitter);
  }, true);
}

if (document.querySelector('meta[name="outbox"]')) {  // a player's sheet, not the watch link's
  document.querySelectorAll(".live-sheet[data-live-url]").forEach(setUpEntryPanel);
}
