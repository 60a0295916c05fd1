// The deal entry on the score sheet, loaded by static/phone.js on the first tap of "+ Add deal" or a deal's
// number (sent as one file: static/entry.js; the service worker keeps it with the sheet's kit). Those links open
// the deal form (the one the form page draws, fetched from its address) in a panel over the sheet, and Save
// sends it with fetch: no page load. The new deal's form is fetched once and kept: the next deal starts from
// it with the values the last save's answer gave (its number, the match's version, the dealer …) and a key
// of its own, so a deal is one round trip; after a save it is made ready in the closed panel while the phone is
// idle. The button says "Saving…" until the server answers, and the answer is the sheet's part that changed
// ("Deal N saved · Undo"); a refusal keeps the panel, with the server's messages at their fields; with no
// network the outbox keeps the deal ("not sent yet") and sends it once the network is back. The form keeps its
// write key until it is saved, so a double tap or a retry is one deal. A new deal closed unsaved (Close, the
// phone's Back) opens again as it was left; Cancel drops it. The score line under the form is the server's
// preview (static/app.js), and with no network the same lines worked out on this phone (js/offline/preview.js).
// Without this script the links open the form page.

import { guardSecondTaps } from "../second_tap.js";
import { tell } from "../offline/words.js";

const SLOW_ANSWER_MS = 3000;  // no answer yet: say that it is not sent yet

// The panel's look, in the page's stylesheets from the first open (a constructed sheet: style-src 'self').
const LOOK = [
  // The screen's width (100vw), not the page's: a page wider than the screen does not widen the panel.
  ".entry-panel { box-sizing: border-box; width: 100vw; max-width: min(40rem, 100vw); height: 100%;"
    + " max-height: 100%; margin: 0 auto 0 max(0px, (100vw - 40rem) / 2); padding: 0 1rem; border: 0;"
    + " background: var(--bg); color: var(--text); overflow: hidden auto; }",
  // A field scrolled to (the keypad's "next", a tap) stops clear of the sticky heading and Save bar, as on the page.
  ".entry-panel { scroll-padding: 4rem 0 8rem; }",
  ".entry-panel::backdrop { background: rgb(0 0 0 / .45); }",
  // The title and Close on one line, smaller on a short screen (or with big text); should they not fit, a line
  // each rather than the title broken inside a word.
  ".entry-head { position: sticky; top: 0; z-index: 3; display: flex; flex-wrap: wrap; align-items: center;"
    + " justify-content: space-between; gap: 0 .5rem; background: var(--bg); padding: .25rem 0; }",
  ".entry-head h2 { margin: .5rem 0; font-size: 1.25rem; }",
  "@media (max-height: 30rem) { .entry-head h2 { font-size: 1rem; }"
    + " .entry-close { font-size: .875rem; padding: .25rem .5rem; } }",
  ".entry-status { margin: 0 0 .5rem; font-weight: 650; }",
  ".entry-status:empty { display: none; }",
  // A deal kept on this phone, not sent yet: its own look, never a saved deal's green (as the sheet's rows, js/offline/sheet.js).
  ".flash-pending { border-style: dashed; border-color: var(--warn); background: var(--warn-soft); }",
].join("\n");

const panels = new WeakMap();

// A write key made on this phone (as the outbox makes them): the next deal typed into the kept form is a new write.
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `panel-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

// The kept new-deal form page `page` (parsed) made into the next deal's: a key of its own (the kept one may have
// named a deal saved or kept for later) and what the last save's answer said of it, if a save has answered.
function startNextDeal(page, next) {
  const form = page.querySelector("form.deal-form");
  const value = (name, text) => form.querySelector(`[name="${name}"]`)?.setAttribute("value", String(text));
  value("write_key", newKey());
  if (!next) return;
  page.querySelector("main h1").textContent = tell("deal_page.title", { n: next.number });
  value("version", next.version);
  value("csrf_token", next.csrf_token);
  form.querySelectorAll('input[name="mode"]').forEach((radio) => radio.toggleAttribute("checked", radio.value === next.mode));
  const dealer = form.querySelector('select[name="dealt_by"]');
  if (dealer) {
    dealer.querySelectorAll("option").forEach((option) => option.toggleAttribute("selected", option.value === next.dealt_by));
    const asked = dealer.labels[0]?.textContent ?? "";  // "Who dealt?", as the form's field names it
    dealer.closest("details").querySelector("summary").textContent = next.dealt_by ? `${next.dealt_by} dealt` : asked;
    const forced = form.querySelector("[data-forced]");  // the minimum bid, taken by the dealer's side
    const sides = JSON.parse(form.dataset.sideOf || "{}");
    if (forced) forced.dataset.forced = `${forced.dataset.forced.split(" ")[0]} ${sides[next.dealt_by] ?? ""}`;
  }
  const chips = form.querySelector("[data-bid-chips]");
  if (chips) {
    chips.replaceChildren(...next.likely_bids.map((bid) => {
      const chip = page.createElement("button");
      Object.assign(chip, { type: "button", className: "chip", textContent: String(bid) });
      chip.dataset.bid = String(bid);
      return chip;
    }));
  }
}

// A closed "Count meld" fold with nothing counted is left out of the page until it is opened: its steppers are
// half of a detailed form's elements, and the panel's every tap and key costs more for each element it holds.
// Its counts, all 0, are then not sent, which the server reads as 0.
function tuckUncounted(form) {
  for (const fold of form.querySelectorAll("details.count-meld:not([open])")) {
    const counts = fold.querySelector(".sets-grid");
    if (!counts || [...counts.querySelectorAll("input")].some((input) => !["", "0"].includes(input.value.trim()))) continue;
    const tucked = document.createElement("template");
    tucked.content.append(counts);
    fold.append(tucked);
    fold.addEventListener("toggle", () => tucked.replaceWith(tucked.content), { once: true });
  }
}

/** Opens the deal form that `link` (the sheet's "+ Add deal" or a deal's number) leads to in the panel. */
export function openEntry(link) {
  const region = link.closest(".live-sheet");
  if (!panels.has(region)) panels.set(region, setUpEntryPanel(region));
  panels.get(region)(link.href);
}

// The outbox this page shows (app.js loads the same module: static/js/offline/main.js starts it once).
async function outbox() {
  const meta = /** @type {HTMLMetaElement} */ (document.querySelector('meta[name="outbox"]'));
  const module = await import(JSON.parse(meta.content).module);
  return module.start(meta);
}

function setUpEntryPanel(region) {
  guardSecondTaps();  // the second tap of a double tap on what opens or closes the panel: dropped
  const swapLivePart = window.swapLivePart;  // phone.js
  const look = new CSSStyleSheet();
  look.replaceSync(LOOK);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, look];
  const panel = document.createElement("dialog");
  panel.className = "entry-panel";
  panel.setAttribute("aria-labelledby", "entry-title");
  panel.innerHTML = '<div class="entry-head"><h2 id="entry-title"></h2>'
    + '<button type="button" class="button quiet entry-close"></button></div>'
    + '<p class="entry-status" role="status" aria-live="polite"></p><div class="entry-body"></div>';
  panel.querySelector(".entry-close").textContent = tell("entry.close");
  document.body.append(panel);
  const title = panel.querySelector("h2");
  const status = panel.querySelector(".entry-status");
  const body = panel.querySelector(".entry-body");
  const say = (text) => { status.textContent = text; };
  let opening = 0;
  // The new deal's form page as first fetched, its address, the version it was drawn at and what the next deal
  // starts with.
  let kept = null;
  // The version the closed panel's form was made ready for after a save (the phone idle), or null.
  let prepared = null;
  // A new deal closed unsaved (Close, the phone's Back) once something was typed in it: its heading and form as
  // they were left, which "+ Add deal" opens again. (Had another phone changed the match meanwhile, Save says so
  // and keeps it.) The panel closes as "done" after a save or Cancel: nothing to keep.
  let draft = null;
  let typed = false;  // something typed or chosen in the form shown, or the server refused it as typed
  const shownVersion = () => region.dataset.etag.split("-")[0];
  const isNewDeal = (address) => new URL(address, location.href).pathname.endsWith("/deals/new");

  // The form page's content (the form, its notices and messages) put in the panel; false if it has no deal form.
  // `nextDeal`: the kept new-deal form, made into the next deal's (`startNextDeal`); `refused`: the server's
  // answer to a save, with what was typed.
  const showForm = (html, action, { nextDeal = false, refused = false } = {}) => {
    prepared = null;
    typed = refused;
    const page = new DOMParser().parseFromString(html, "text/html");
    if (nextDeal) startNextDeal(page, kept.next);
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
    if (cancel) cancel.addEventListener("click", (event) => { event.preventDefault(); panel.close("done"); });
    window.enhanceDealForm?.(placed);  // app.js
    // The form page's own modules (static/meld_in_deal.js: counting meld by card faces) serve the panel's form too.
    for (const script of page.querySelectorAll('script[type="module"][src]')) {
      import(new URL(script.getAttribute("src"), location.href).href);
    }
    return true;
  };
  const focusFirst = () => {
    const shown = (field) => field.offsetParent !== null && !field.closest("details:not([open])");
    const fields = [...body.querySelectorAll('[aria-invalid="true"]'), ...body.querySelectorAll('input[inputmode="numeric"]')];
    const first = fields.find(shown);
    if (first) first.focus();
  };

  // With no network a new deal or a deal's correction is the kept deal form (static/sw.js's kit), made by the
  // outbox into the form asked for: the next deal's number and dealer counting the deals not sent yet, or the
  // deal to correct filled in.
  const correction = /\/deals\/\d+\/edit$/;
  const open = async (url) => {
    const asked = ++opening;
    const newDeal = isNewDeal(url);
    if (newDeal && draft) {
      title.textContent = draft.title;
      body.replaceChildren(draft.content);
      draft = null;
      typed = true;
    } else if (newDeal && kept && navigator.onLine && kept.version === shownVersion()) {
      // The sheet is as the kept form knows it: no request, and no work at all when it is ready in the panel.
      if (prepared !== kept.version) showForm(kept.html, url, { nextDeal: true });
    } else {
      const offline = !navigator.onLine;
      let response;
      try {
        const asking = offline ? url.replace(correction, "/deals/new") : url;
        response = await fetch(asking, { credentials: "same-origin" });
      } catch {
        location.assign(url);  // neither the network nor a copy on this phone: the page says so
        return;
      }
      if (asked !== opening) return;
      const html = response.ok ? await response.text() : "";
      if (!showForm(html, new URL(url, location.href).href)) {
        location.assign(url);
        return;
      }
      // A new deal gets a key made here: the form may be this phone's copy, its key used by a deal saved since.
      if (newDeal) /** @type {HTMLInputElement} */ (body.querySelector('input[name="write_key"]')).value = newKey();
      if (newDeal && navigator.onLine) {
        kept = { html, url, version: /** @type {HTMLInputElement} */ (body.querySelector('input[name="version"]')).value, next: null };
      }
      if (offline) {  // the phone's copy, drawn before the deals not sent yet: made into the form asked for
        const form = body.querySelector("form.deal-form");
        await (await outbox()).adapt(form, new URL(url).pathname, (text) => { title.textContent = text; });
        if (asked !== opening) return;
      }
    }
    say("");
    tuckUncounted(body);  // after the outbox filled in an offline correction's counts
    panel.returnValue = "";
    if (!panel.open) panel.showModal();
    focusFirst();
  };

  // The sheet as the server answered the save: its live part, the "saved" notice and any offer after it; the
  // kept form starts the next deal as the answer says (a decided match's next deal comes from its form page).
  const showSheet = (answer) => {
    document.querySelectorAll("main > .flashes, #dead-contract").forEach((node) => node.remove());
    const before = shownVersion();
    swapLivePart(region, answer.live, answer.etag);  // unless the sheet followed a later change meanwhile
    // A deal corrected here while a new one waits as a draft: the draft is typed on the match as it now is.
    const drafted = draft && draft.content.querySelector('input[name="version"]');
    if (drafted && drafted.value === before) drafted.value = shownVersion();
    region.insertAdjacentHTML("beforebegin", answer.dead_contract);
    document.querySelector("main").insertAdjacentHTML("afterbegin", answer.notices);
    region.dispatchEvent(new Event("sheet-changed", { bubbles: true }));
    window.showChangedRow?.();  // app.js
    const next = answer.next_deal;
    if (kept) kept = next.decided ? null : { ...kept, version: String(next.version), next };
  };

  const notice = (text) => {
    document.querySelectorAll("main > .flashes").forEach((node) => node.remove());
    const box = document.createElement("div");
    box.className = "flashes";
    box.innerHTML = '<div class="flash flash-pending" role="status"></div>';
    box.firstChild.textContent = text;
    document.querySelector("main").prepend(box);
  };

  // A save answered once the panel had closed (the phone's Back while saving): the form waits as the draft.
  const closedMeanwhile = (form) => !body.contains(form);
  const done = (form) => {
    if (closedMeanwhile(form)) {
      if (draft && draft.content.contains(form)) draft = null;
      (window.requestIdleCallback || setTimeout)(prepare);
      return;
    }
    panel.close("done");  // a second tap on Save then lands on the sheet: second_tap.js drops it
  };

  // Kept on this phone by the outbox (app.js, js/offline/main.js), which shows it on the sheet as not sent yet.
  const keepForLater = async (form, submitter, ready) => {
    const name = title.textContent;
    say(tell("entry.keeping"));
    try {
      await (await outbox()).keep(form, submitter);
    } catch {
      say(tell("entry.not_kept"));
      ready();
      return;
    }
    done(form);
    notice(tell("entry.kept", { name }));
  };

  // A form opened from this phone's copy (with no network) may carry a form token the server no longer takes
  // (older than its time limit): the form page fetched again gives a fresh one. True if the form got one.
  const freshToken = async (form) => {
    const answer = await fetch(form.action, { cache: "no-store", credentials: "same-origin" });
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const token = /** @type {HTMLInputElement} */ (page.querySelector('input[name="csrf_token"]'));
    if (!answer.ok || !token || !form.elements.csrf_token) return false;
    form.elements.csrf_token.value = token.value;
    return true;
  };

  const save = async (form, submitter) => {
    const button = form.querySelector("[data-submit-once]");
    if (button.getAttribute("aria-busy") === "true") return;  // a second tap: the first is under way
    const label = button.textContent;
    const ready = () => { button.textContent = label; button.removeAttribute("aria-busy"); };
    button.setAttribute("aria-busy", "true");
    if (!navigator.onLine) {
      button.textContent = tell("outbox.not_sent_yet");
      await keepForLater(form, submitter, ready);
      return;
    }
    button.textContent = tell("entry.saving");
    say(tell("entry.saving"));
    const slow = setTimeout(() => say(tell("entry.saving.slow")), SLOW_ANSWER_MS);
    let response;
    let html;
    const send = async () => {
      // URL-encoded, as the form itself is sent: quicker for the server to read than multipart.
      response = await fetch(form.action, { method: "POST", body: new URLSearchParams(/** @type {any} */ (new FormData(form, submitter))),
        credentials: "same-origin", headers: { "X-Entry-Panel": "1" } });  // answered with the sheet's part
      html = await response.text();
    };
    try {
      await send();
      if (response.status === 400 && await freshToken(form)) await send();  // a kept form's token, expired
    } catch {
      button.textContent = tell("outbox.not_sent_yet");
      await keepForLater(form, submitter, ready);
      return;
    } finally {
      clearTimeout(slow);
    }
    if (response.ok && (response.headers.get("Content-Type") || "").startsWith("application/json")) {
      button.textContent = tell("entry.saved");
      say(tell("entry.saved"));
      showSheet(JSON.parse(html));
      done(form);
      return;
    }
    if (closedMeanwhile(form)) {  // not saved: the draft, as typed, is saved again once opened
      ready();
      return;
    }
    if (!response.ok && showForm(html, form.action, { refused: true })) {  // refused (422, 409): with its messages
      say("");  // the form's own alert says it was not saved, once
      if (body.querySelector('[aria-invalid="true"]')) focusFirst();
      else panel.scrollTop = 0;  // nothing to mend at a field (the match changed meanwhile): the message on top
      body.querySelector("form.deal-form").dispatchEvent(new Event("change"));  // its score, worked out again
      return;
    }
    ready();
    const page = new DOMParser().parseFromString(html, "text/html");
    const reason = page.querySelector(".error-card h1 + p") || page.querySelector("main p");  // the message, not the code
    say(reason ? tell("entry.not_saved", { reason: reason.textContent.trim() })
      : tell("entry.not_saved.status", { status: response.status }));
  };

  // A choice tapped while a number is being typed (who bid, the way of entry, the last trick) leaves the number
  // its focus: the number pad stays up, and its "next" goes on from there.
  panel.addEventListener("mousedown", (event) => {
    const typing = document.activeElement;
    if (/** @type {HTMLElement} */ (event.target).closest("label.choice, label.segment") && panel.contains(typing)
        && typing.matches('input[inputmode="numeric"]')) event.preventDefault();
  });
  panel.querySelector(".entry-close").addEventListener("click", () => panel.close());
  for (const event of ["input", "change"]) panel.addEventListener(event, () => { typed = true; });
  // After a save the next deal's form is made ready in the closed panel while the phone is idle, so that
  // "+ Add deal" only shows it.
  const prepare = () => {
    if (panel.open || draft || !kept || !kept.next || !navigator.onLine || kept.version !== shownVersion()) return;
    if (showForm(kept.html, kept.url, { nextDeal: true })) prepared = kept.version;
  };
  panel.addEventListener("close", () => {
    opening += 1;
    const form = /** @type {HTMLFormElement} */ (body.querySelector("form.deal-form"));
    if (panel.returnValue !== "done" && typed && form && isNewDeal(form.action)) {
      draft = { title: title.textContent, content: document.createDocumentFragment() };
      draft.content.append(...body.childNodes);
    }
    prepared = null;
    body.replaceChildren();
    say("");
    (window.requestIdleCallback || setTimeout)(prepare);
  });
  // Leaving the sheet (a link tapped, Back, Undo's reload) with a deal typed and not saved: the browser asks first.
  window.addEventListener("beforeunload", (event) => {
    if (!draft && !(panel.open && typed)) return;
    event.preventDefault();
    event.returnValue = "";
  });
  // Before app.js's outbox sees it (it listens on the document): the panel's form is sent here.
  window.addEventListener("submit", (event) => {
    if (!panel.contains(/** @type {Node} */ (event.target))) return;
    event.preventDefault();
    event.stopPropagation();
    save(event.target, event.submitter);
  }, true);
  return open;
}
