// The outbox on a match's pages: keeps what a form sends while the phone has no network, shows the
// sheet with it worked out by the rules core's twin and marked "not sent yet", and sends it when the
// network is back. app.js loads this module (sent as one file with the modules it imports: static/outbox.js)
// and hands it the page's <meta name="outbox">.

import * as db from "./db.js";
import * as fields from "./deal_fields.js";
import { previewOf } from "./preview.js";
import * as sync from "./sync.js";
import * as view from "./view.js";

const RETRY_FIRST_MS = 1000;
const RETRY_MOST_MS = 60000;
const EDIT_OR_DELETE = /\/deals\/(\d+)\/(edit|delete)$/;

let sequence = 0;

// Keys this phone has kept an entry under. A page the service worker serves again from its copy carries
// the same form key each time: a second deal typed into it must get a key of its own.
const USED_KEYS = "outbox:used-keys";
const USED_KEPT = 200;

function usedKeys() {
  try { return JSON.parse(localStorage.getItem(USED_KEYS) || "[]"); } catch { return []; }
}

function markUsed(key) {
  try { localStorage.setItem(USED_KEYS, JSON.stringify([...usedKeys().filter((k) => k !== key), key].slice(-USED_KEPT))); }
  catch { /* no storage: keys come from the page */ }
}

// Keys of forms sent online that the server has done. Online, such a form sent again is the same write (the
// server answers with the first one); kept with no network it can only be a copy of the page from before
// that save (the service worker's), so the entry takes a key of its own.
const DONE_KEYS = "outbox:done-keys";

function doneKeys() {
  try { return JSON.parse(localStorage.getItem(DONE_KEYS) || "[]"); } catch { return []; }
}

function markDone(key) {
  try { localStorage.setItem(DONE_KEYS, JSON.stringify([...doneKeys().filter((k) => k !== key), key].slice(-USED_KEPT))); }
  catch { /* no storage: a copy of a page with a done key may be taken for the same write */ }
}

function freshKeyIfUsed(form) {
  const input = form.querySelector('input[name="write_key"]');
  if (input && usedKeys().includes(input.value)) input.value = newKey();
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `kept-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

// One outbox a page, however many scripts ask for it (app.js; the sheet's entry panel, static/js/entry/panel.js).
let started = null;

export function start(meta) {
  started ??= begin(meta).catch((error) => { started = null; throw error; });
  return started;
}

async function begin(meta) {
  const config = JSON.parse(meta.content);
  const ctx = { config, db, sync, fields, view, markDone, token: null, retryMs: RETRY_FIRST_MS, timer: null, running: null,
    again: null, leaving: false, asked: false, twin: null, choosing: new Set() };
  if (navigator.onLine) twinOf(ctx);  // at hand when the network goes
  await adoptKeptFacts(ctx);
  await takeBackUnanswered(ctx);
  await takeBackReturnedForms(ctx);
  document.querySelectorAll("form[data-outbox]").forEach(freshKeyIfUsed);
  await adaptKeptForm(ctx);
  await fillFormToFix(ctx);
  document.querySelectorAll("form.deal-form").forEach(fields.takeMeldFromQuery);
  await show(ctx);
  const run = () => runSync(ctx);
  window.addEventListener("online", run);
  window.addEventListener("pageshow", (event) => { if (event.persisted) ctx.leaving = false; });  // back, kept whole
  document.addEventListener("click", (event) => choose(ctx, event));
  if (navigator.onLine && !(await upToDate(ctx))) await run();
  return {
    send: (form, submitter) => send(ctx, form, submitter),
    submitted: (event) => submitted(ctx, event),
    keep: (form, submitter) => keepAndShow(ctx, form, submitter),
    adapt: (form, path, retitle) => adaptForm(ctx, form, path, retitle),
    refresh: async () => { if (navigator.onLine && !(await upToDate(ctx))) await run(); },
    preview: (form) => previewHere(ctx, form),
  };
}

// What the deal in `form` would score, worked out on this phone when the server's preview cannot be had: the
// server's preview answer ({ready, lines, melds}) from the twin, on the match as this phone has it (the confirmed
// facts with the entries not sent yet), the deal read and checked as a save reads it (store/writing.py's
// with_deal); null without the facts or the twin.
async function previewHere(ctx, form) {
  const facts = await ctx.db.factsOf(ctx.config.match);
  const twin = facts ? await twinOf(ctx) : null;
  if (!twin) return null;
  const file = structuredClone(await fileWithEntries(ctx, facts, await waitingBefore(ctx, form.dataset.outboxFixing)));
  const fields = [...new FormData(form)].filter(([name, value]) => name !== "csrf_token" && typeof value === "string");
  const deal = ctx.fields.dealFromFields(fields, file);
  if (!deal) return { ready: false, lines: [ctx.view.tell("preview.waiting")], melds: [] };
  // The deal corrected (the form's data-outbox-deal, or the panel's address for it), else a new one.
  const asked = form.dataset.outboxDeal || EDIT_OR_DELETE.exec(new URL(form.action, location.href).pathname)?.[1];
  const number = asked && file.deals[Number(asked) - 1] ? Number(asked) : file.deals.length + 1;
  const old = file.deals[number - 1];
  if (old && !old.passed && !deal.passed && old.entered_under && !deal.entered_under) deal.entered_under = old.entered_under;
  const others = { ...file, deals: file.deals.filter((_, at) => at !== number - 1) };
  let match;
  let melds = [];
  try {
    const before = twin.matchFromJson(others, { stored: true });
    const read = twin.dealFromJson(deal, before.sides.length, "", before.rules);
    if (!read.passed) melds = read.sides.map((_, side) => twin.sideMeld(before.rules, read, side) ?? 0);
    const problems = twin.checkNewDeal(before, read);
    if (problems.length) return { ready: false, lines: [twin.sentence(problems[0].message)], melds };
    file.deals[number - 1] = deal;
    match = twin.matchFromJson(file, { stored: true });
  } catch (error) {
    if (!(error instanceof twin.RulesError) || error instanceof twin.ContradictionError) throw error;
    return { ready: false, lines: [twin.sentence(/** @type {{problem: {message: string}}} */ (error).problem.message)], melds };
  }
  return { ...previewOf(twin, match, number), melds };
}

// A deal whose side bid with no player noted, in a match whose sides name their players: "Who bid?" offers the
// players only, so the side's own button is added, chosen (as the server draws that deal's form).
function sideBidder(form, side, name) {
  const first = form.querySelector(`input[name="bidder"][value^="${side}:"]`)  // before its own players
    ?? form.querySelector('input[name="bidder"]');
  if (!first) return;
  const button = first.closest("label").cloneNode(true);
  Object.assign(button.querySelector("input"), { value: String(side), checked: true });
  button.querySelector("span").textContent = name;
  first.closest("label").before(button);
}

function twinOf(ctx) {
  ctx.twin ??= import(ctx.config.rules).catch(() => { ctx.twin = null; return null; });
  return ctx.twin;
}

/** The parts of a row of the sheet as the server draws them (outbox.rows, under the outbox's address, kept with
 * the match's kit), or null with no copy of them. @returns {Promise<DocumentFragment|null>} */
function rowPartsOf(ctx) {
  ctx.rowParts ??= fetch(`${ctx.config.api}/rows`, { credentials: "same-origin" }).then(async (answer) => {
    if (!answer.ok) throw new Error(`answer ${answer.status}`);
    const holder = document.createElement("template");
    holder.innerHTML = await answer.text();
    return holder.content;
  }).catch(() => { ctx.rowParts = undefined; return null; });
  return ctx.rowParts;
}

// The match's facts the service worker keeps with its sheet (static/sw.js, keepKit), when newer than those this
// phone holds: a phone that opened the sheet and nothing else works its entries out from them with no signal.
async function adoptKeptFacts(ctx) {
  if (typeof caches === "undefined") return;  // no service worker here either
  try {
    const kept = await caches.match(new URL(ctx.config.api, location.href).href, { ignoreVary: true });
    if (!kept) return;
    const body = await kept.json();
    await ctx.db.putFacts(ctx.config.match, body.version, body.match);  // an older copy is ignored
  } catch { /* no copy: the facts come from the server */ }
}

// The entries that wait only for the network (a form sent online is "in flight" until the server is asked).
async function waitingEntries(ctx) {
  return (await ctx.db.entriesOf(ctx.config.match))
    .filter((entry) => entry.state === "pending" || (entry.state === "in_flight" && !navigator.onLine));
}

// The entries waiting to be sent before the new deal kept under `key` (opened to be changed: its form is that
// deal's, after them), or null when `key` names no new deal kept.
async function waitingBefore(ctx, key) {
  const fixed = key ? (await ctx.db.entriesOf(ctx.config.match)).find((entry) => entry.key === key && entry.kind === "add") : null;
  return fixed ? (await waitingEntries(ctx)).filter((entry) => entry.seq < fixed.seq) : null;
}

// The match file as this phone shows it: the confirmed facts with the entries not sent yet worked in (those the
// twin can work in), or as confirmed without the twin.
async function fileWithEntries(ctx, facts, entries = null) {
  const waiting = entries ?? await waitingEntries(ctx);
  const twin = waiting.length ? await twinOf(ctx) : null;
  try {
    return twin ? ctx.view.project(facts, waiting, twin, ctx.fields).file : facts.file;
  } catch {
    return facts.file;
  }
}

// The deal form the service worker keeps with the sheet was drawn before the entries not sent yet, and with no
// network it is also what a deal's correction or delete form opens as (static/sw.js): made here into the page
// asked for, from the match as this phone has it (the confirmed facts and the entries not sent yet).
async function adaptKeptForm(ctx) {
  const form = document.querySelector("form.deal-form[data-new-deal]");
  if (!form) return;
  const heading = document.querySelector("main h1");
  const name = document.title.split(" · ").slice(1).join(" · ");
  const fixing = new URLSearchParams(location.hash.slice(1)).get("fix");  // a new deal kept, opened to be changed
  await adaptForm(ctx, form, location.pathname, (text) => { heading.textContent = text; document.title = [text, name].join(" · "); },
    fixing);
}

// The kept deal form `form` made into the form of `path` (a new deal, a deal's correction or delete form), its
// heading given to `retitle`: on its own page, or in the sheet's entry panel (static/js/entry/panel.js). A new
// deal kept and opened to be changed (`fixing`: its key) is the deal after the entries made before it.
async function adaptForm(ctx, form, path, retitle, fixing = null) {
  const asked = EDIT_OR_DELETE.exec(path);
  const facts = await ctx.db.factsOf(ctx.config.match);
  const before = asked ? null : await waitingBefore(ctx, fixing);
  const entries = before ?? await waitingEntries(ctx);
  if (!facts || (!asked && !entries.length && !before)) return;
  const file = await fileWithEntries(ctx, facts, entries);
  if (!asked) {
    retitle(ctx.view.tell("deal_page.title", { n: file.deals.length + 1 }));
    const dealer = form.querySelector('select[name="dealt_by"]');
    const next = ctx.view.nextDealer(file);
    if (dealer && next !== null) {
      dealer.value = next;
      dealer.closest("details").querySelector("summary").textContent = `${next} dealt`;
    }
    return;
  }
  const number = Number(asked[1]);
  const deal = file.deals[number - 1];
  Object.assign(form.dataset, { outbox: asked[2], outboxDeal: String(number) });
  const page = `${ctx.config.sheet}/deals/${number}`;
  (form.parentElement || document).querySelectorAll("[data-new-deal-only]").forEach((notice) => notice.remove());
  form.querySelector('input[name="version"]').value = String(facts.version);
  form.querySelector('input[name="write_key"]').value = newKey();  // the form's own key is for a new deal
  if (!deal) {
    retitle(ctx.view.tell("deal_page.title", { n: number }));
    form.replaceWith(Object.assign(document.createElement("p"), { className: "notice notice-warning",
      textContent: ctx.view.tell("deal_page.missing", { n: number }) }));
  } else if (asked[2] === "delete") {
    retitle(ctx.view.tell("deal_page.delete", { n: number }));
    const names = ctx.view.sideNames(facts.file, await twinOf(ctx));
    form.replaceWith(...ctx.view.deleteForm(form, ctx.fields.describeDeal(deal, names), number, page));
  } else {
    retitle(ctx.view.tell("deal_page.correct", { n: number }));
    delete form.dataset.newDeal;
    ctx.fields.fillForm(form, ctx.fields.fieldsFromDeal(deal));
    if (deal.bidder !== null && deal.bidder !== undefined && !form.querySelector('input[name="bidder"]:checked')) {
      sideBidder(form, deal.bidder, ctx.view.sideNames(facts.file, await twinOf(ctx))[deal.bidder]);
    }
    form.querySelectorAll("details.count-meld").forEach((fold) => {
      fold.open = [...fold.querySelectorAll("input")].some((input) => input.value.trim() && input.value.trim() !== "0");
    });
    form.querySelectorAll("a[data-keeps-form]").forEach((link) => {
      const url = new URL(link.href);
      url.searchParams.set("deal", String(number));
      link.href = url.href;
    });
    const preview = form.querySelector("[data-preview-url]");
    if (preview) preview.dataset.previewUrl = `${page}/preview`;
    const links = form.querySelector("p.row");
    if (links) links.append(ctx.view.link(`${page}/delete`, ctx.view.tell("deal_page.delete_this"), { class: "button danger" }));
    form.dispatchEvent(new Event("input", { bubbles: true }));
  }
}

// The service worker sends the phone here (the sheet, ?not-sent) when a form kept "in flight" got no answer:
// its entries wait to be sent from here, and their keys are used (the page's copy may carry them again).
async function takeBackUnanswered(ctx) {
  if (location.pathname !== ctx.config.sheet || !new URLSearchParams(location.search).has("not-sent")) return;
  for (const entry of await ctx.db.entriesOf(ctx.config.match)) {
    if (entry.state !== "in_flight") continue;
    await ctx.db.putEntry({ ...entry, state: "pending" });
    markUsed(entry.key);
  }
  history.replaceState(history.state, "", `${ctx.config.sheet}#outbox`);
}

// The server's sheet, as it now is, kept by the service worker: reopened with no network, the sheet under
// the outbox is the one its facts were confirmed with.
function keepSheet(ctx) {
  const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({ keep: new URL(ctx.config.sheet, location.href).href });
}

// Nothing kept, and the facts this phone holds are the version this page shows: nothing to ask. On the sheet
// its live part says which (a form there may be the one just saved, of the version before).
async function upToDate(ctx) {
  const live = document.querySelector(".live-sheet[data-etag]");  // the sheet's "<version>-<build>"
  const field = /** @type {HTMLInputElement | null} */ (document.querySelector('form[data-outbox] input[name="version"]'));
  const version = live ? live.dataset.etag.split("-")[0] : field ? field.value : null;
  const facts = await ctx.db.factsOf(ctx.config.match);
  const entries = await ctx.db.entriesOf(ctx.config.match);
  return !entries.length && facts !== null && String(facts.version) === version;
}

// A form sent with the network up goes as always, but is kept first (as "in flight"): if its answer
// never comes, it is sent from here; if it came back with a message, the page holds it and it is let go.
function submitted(ctx, event) {
  const form = event.target;
  if (form.dataset.outboxPassed) { delete form.dataset.outboxPassed; return; }
  const keyed = form.querySelector('input[name="write_key"]');
  if (navigator.onLine && !keyed) return;  // sent as it is: a page that is no write (a rules preview)
  event.preventDefault();
  event.stopImmediatePropagation();
  send(ctx, form, event.submitter);
}

function send(ctx, form, submitter) {
  const keyed = form.querySelector('input[name="write_key"]');
  if (navigator.onLine && !keyed) { pass(form, submitter); return; }
  if (form.dataset.outboxKept) return;  // a second tap on a form already kept
  if (!form.dataset.outboxFixing) freshKeyIfUsed(form);
  if (!navigator.onLine) { keepAndShow(ctx, form, submitter); return; }
  keep(ctx, form, submitter, "in_flight").finally(() => pass(form, submitter));
}

function pass(form, submitter) {
  form.dataset.outboxPassed = "true";
  form.requestSubmit(submitter || undefined);
}

async function keep(ctx, form, submitter, state = "pending") {
  if (state !== "in_flight") form.dataset.outboxKept = "true";
  const pairs = [...new FormData(form, submitter)]
    .filter(([name, value]) => name !== "csrf_token" && typeof value === "string");
  const path = new URL(form.action, location.href).pathname;
  // What the form is, as the server drew it (data-outbox: add, edit, delete, throw_in, rules, meld_prices,
  // rescale or undo) and the deal it is about (data-outbox-deal), or as adaptForm made it.
  const kind = form.dataset.outbox || "other";
  const number = form.dataset.outboxDeal ? Number(form.dataset.outboxDeal) : null;
  const facts = await ctx.db.factsOf(ctx.config.match);
  const fixing = form.dataset.outboxFixing
    && (await ctx.db.entriesOf(ctx.config.match)).find((each) => each.key === form.dataset.outboxFixing);
  const formKey = (pairs.find(([name]) => name === "write_key") || [])[1];
  const taken = state === "pending" && formKey
    && (doneKeys().includes(formKey) || (await ctx.db.entriesOf(ctx.config.match)).some((each) => each.key === formKey));
  const key = fixing ? fixing.key : (!taken && formKey) || newKey();
  const entry = { key, match: ctx.config.match, seq: fixing ? fixing.seq : Date.now() * 1000 + (sequence++ % 1000),
    path, kind, number, fields: pairs, state, made: new Date().toISOString() };
  if (fixing) {
    Object.assign(entry, { baseCount: fixing.baseCount, base: fixing.base });
  } else if (facts) {
    entry.baseCount = facts.file.deals.length;
    const seen = (await fileWithEntries(ctx, facts)).deals;  // the deal as this phone shows it, its own entries in
    if (number !== null && seen[number - 1]) entry.base = seen[number - 1];
  }
  await ctx.db.putEntry(entry);
  if (state !== "in_flight") markUsed(key);  // a form sent online keeps its key: sent again, it is the same write
  return entry;
}

async function keepAndShow(ctx, form, submitter) {
  if (submitter && submitter.name === "preset") {  // fills the boxes in on the server: nothing to keep
    const note = form.querySelector("[data-outbox-note]") || form.insertAdjacentElement("afterbegin", document.createElement("p"));
    Object.assign(note, { className: "form-errors", textContent: ctx.view.tell("outbox.presets_offline") });
    note.setAttribute("role", "alert");
    note.dataset.outboxNote = "";
    return;
  }
  await keep(ctx, form, submitter);
  const onSheet = location.pathname === ctx.config.sheet;
  if (!onSheet && navigator.serviceWorker && navigator.serviceWorker.controller && await sheetKept(ctx)) {
    leave(ctx, () => location.assign(`${ctx.config.sheet}#outbox`));  // the sheet, from the service worker's copy
    return;
  }
  ctx.replaced = !onSheet;
  await show(ctx);
  if (navigator.onLine) runSync(ctx, true);
}

// Whether the service worker keeps a copy of the match's sheet to show with no network (a phone that opened only
// this page has none: the entry is shown here).
async function sheetKept(ctx) {
  return Boolean(await caches.match(new URL(ctx.config.sheet, location.href).href, { ignoreVary: true }).catch(() => null));
}

// Entries kept "in flight" whose form is back on this page (refused with a message, or the same page
// shown again): the page holds what was typed, so the outbox lets them go.
async function takeBackReturnedForms(ctx) {
  const keys = new Set([...document.querySelectorAll('form[data-outbox] input[name="write_key"]')].map((i) => /** @type {HTMLInputElement} */ (i).value));
  for (const entry of await ctx.db.entriesOf(ctx.config.match)) {
    if (entry.state === "in_flight" && keys.has(entry.key)) await ctx.db.removeEntry(entry);
  }
}

// "Fix it" on a refused entry, or "Change" on one not sent yet, opens its form with #fix=<key>: the kept
// fields go back in the form, and the entry waits (it is not sent meanwhile) until the form is saved again,
// when it takes the entry's place in the order.
async function fillFormToFix(ctx) {
  const key = new URLSearchParams(location.hash.slice(1)).get("fix");
  const form = document.querySelector("form[data-outbox]");
  if (!key || !form) return;
  const entry = (await ctx.db.entriesOf(ctx.config.match)).find((each) => each.key === key);
  if (!entry) return;
  ctx.fields.fillForm(form, entry.fields, ["csrf_token"]);
  form.querySelectorAll("details").forEach((fold) => { fold.open = true; });
  form.dispatchEvent(new Event("input", { bubbles: true }));
  form.dataset.outboxFixing = key;
  await ctx.db.putEntry({ ...entry, state: "editing" });
}

// The page goes to `go` another page: no round of sending starts after (its requests would be cut short).
function leave(ctx, go) {
  ctx.leaving = true;
  go();
}

// A round of sending what is kept. Asked for while one is on its way, that one answers for it, unless `changed`: a
// choice made or a form kept on this phone meanwhile, which the round under way read too early to see, goes in one
// more round after it.
async function runSync(ctx, changed = false) {
  if (ctx.leaving) return null;
  if (ctx.running) {
    if (!changed) return ctx.running;
    const next = () => { ctx.again = null; return runSync(ctx); };
    ctx.again ??= ctx.running.then(next, next);
    return ctx.again;
  }
  clearTimeout(ctx.timer);
  ctx.running = (async () => {
    let result = null;
    try {
      result = await ctx.sync.syncMatch(ctx);
      ctx.retryMs = RETRY_FIRST_MS;
    } catch (error) {
      if (!(error instanceof ctx.sync.Offline)) throw error;
    }
    ctx.asked = true;
    const left = await ctx.db.entriesOf(ctx.config.match);
    const notes = await ctx.db.notesOf(ctx.config.match);
    if (result && result.sent && ctx.replaced) {
      leave(ctx, () => location.replace(ctx.config.sheet));  // sent from a form's page: the server's sheet, what is left under it
      return;
    }
    if (result && result.sent) await catchUp(ctx);  // on the sheet: the server's, swapped in under the fingers
    if (result) keepSheet(ctx);  // the facts were confirmed: the worker's copy of the sheet follows
    await show(ctx);
    if (left.some((entry) => entry.state === "pending" || entry.state === "in_flight") && !(result && result.waiting)) {
      ctx.timer = setTimeout(() => runSync(ctx), ctx.retryMs);
      ctx.retryMs = Math.min(ctx.retryMs * 2, RETRY_MOST_MS);
    }
  })().finally(() => { ctx.running = null; });
  return ctx.running;
}

// The sheet's live part as the server now draws it, swapped in where it is (static/phone.js's swapLivePart), as
// the sheet follows other phones: no page load, so a deal half typed in the entry panel stays as it is. Should
// the server not answer, phone.js's next look brings it.
async function catchUp(ctx) {
  const live = document.querySelector(".live-sheet[data-live-url]");
  if (!live || location.pathname !== ctx.config.sheet || !window.swapLivePart) return;
  let answer;
  try {
    answer = await fetch(live.dataset.liveUrl, { cache: "no-store", credentials: "same-origin" });
  } catch {
    return;
  }
  const tag = /"([^"]*)"/.exec(answer.headers.get("ETag") || "");
  if (answer.status !== 200 || !tag) return;
  ctx.view.render({ config: ctx.config, entries: [], notes: [], onSheet: true });  // the projection taken away
  window.swapLivePart(live, await answer.text(), tag[1]);
  live.dispatchEvent(new Event("sheet-changed", { bubbles: true }));
}

// A form sent online is kept "in flight" until the server is asked whether it has it: the page after a save
// is usually its answer, so it is not shown as waiting (nor moves the sheet) before that, unless offline.
async function show(ctx) {
  const kept = await ctx.db.entriesOf(ctx.config.match);
  const entries = ctx.asked || !navigator.onLine ? kept : kept.filter((entry) => entry.state !== "in_flight");
  const notes = await ctx.db.notesOf(ctx.config.match);
  const facts = await ctx.db.factsOf(ctx.config.match);
  if (facts) document.documentElement.dataset.outboxFacts = String(facts.version);  // ready to work offline
  const twin = entries.length && facts ? await twinOf(ctx) : null;  // null: listed without totals
  const onSheet = location.pathname === ctx.config.sheet;
  const rowKit = twin && onSheet ? await rowPartsOf(ctx) : null;
  ctx.view.render({ config: ctx.config, entries, notes, facts, twin, rowKit, fields: ctx.fields, onSheet,
    replacePage: Boolean(ctx.replaced) });
}

// The player's answer to a refused entry, a conflict or a likely duplicate; one an entry (or note) at a time: a
// second, read before the first was written, would act on what the first changed (a "Delete mine" tapped twice
// kept two deletes of the deal).
async function choose(ctx, event) {
  const link = event.target.closest("a[data-outbox-fix]");
  if (link && new URL(link.href).pathname === location.pathname) {
    event.preventDefault();  // the same page: opened again, to fill its form
    location.hash = new URL(link.href).hash;
    location.reload();
    return;
  }
  const button = event.target.closest("[data-outbox-choice]");
  if (!button || ctx.choosing.has(button.dataset.key)) return;  // the second tap of a double tap, the first under way
  ctx.choosing.add(button.dataset.key);
  try {
    await answer(ctx, button);
  } finally {
    ctx.choosing.delete(button.dataset.key);
  }
}

async function answer(ctx, button) {
  const { db } = ctx;
  const key = button.dataset.key;
  const entry = (await db.entriesOf(ctx.config.match)).find((each) => each.key === key);
  const note = (await db.notesOf(ctx.config.match)).find((each) => each.key === key);
  const choice = button.dataset.outboxChoice;
  if (choice === "send") {
    ctx.retryMs = RETRY_FIRST_MS;
  } else if (entry && choice === "theirs") {
    await db.removeEntry(entry);
  } else if (entry && choice === "mine") {
    Object.assign(entry, { state: "pending", useVersion: entry.theirVersion, base: entry.theirs ?? undefined });
    delete entry.message;
    await db.putEntry(entry);
  } else if (entry && choice === "resume") {
    await db.putEntry({ ...entry, state: "pending" });
  } else if (entry && choice === "discard") {
    await db.removeEntry(entry);
  } else if (note && choice === "keep-both") {
    await db.removeNote(note);
  } else if (note && choice === "delete-mine") {
    const facts = await db.factsOf(ctx.config.match);
    await db.putEntry({ key: newKey(), match: ctx.config.match, seq: Date.now() * 1000, kind: "delete",
      path: `${ctx.config.sheet}/deals/${note.number}/delete`, number: note.number, base: note.deal,
      fields: [["version", String(facts ? facts.version : "")]], state: "pending", made: new Date().toISOString() });
    await db.removeNote(note);
  }
  const left = (await db.entriesOf(ctx.config.match)).length + (await db.notesOf(ctx.config.match)).length;
  if (!left && navigator.onLine && ctx.replaced) {
    leave(ctx, () => location.replace(ctx.config.sheet));  // nothing left to choose: the server's sheet
    return;
  }
  if (!left && navigator.onLine) await catchUp(ctx);
  await show(ctx);
  if (navigator.onLine) runSync(ctx, true);
}
