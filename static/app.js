// Small helpers for the score keeper's forms. Every page works without this file.
"use strict";

function numberIn(input) {
  const value = parseInt(input.value, 10);
  return Number.isNaN(value) ? null : value;
}

function changed(input) {
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

// Where the last finger (or mouse) went down: static/js/second_tap.js tells a double tap's second tap by it.
addEventListener("pointerdown", (event) => { window.lastPress = event; }, true);

// − and + buttons beside a number field.
document.addEventListener("click", (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest("[data-stepper] button[data-step]");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  const step = parseInt(button.dataset.step, 10);
  // An empty bid stepped up starts at the match's minimum bid (the deal form's data-min-bid), not at the step.
  const least = input.name === "bid" && step > 0 && numberIn(input) === null && input.form
    && parseInt(input.form.dataset.minBid, 10);
  const next = least || (numberIn(input) ?? 0) + step;
  input.value = String(Math.max(0, next));
  changed(input);
});

// Deal form: counts of meld sets come without their − and + buttons, which only work with this script: add them.
function addSteps(form) {
  const button = (step, text, label) => {
    const made = document.createElement("button");
    Object.assign(made, { type: "button", className: `step ${step < 0 ? "step-down" : "step-up"}`, tabIndex: -1 });
    made.dataset.step = String(step);
    made.textContent = text;
    made.setAttribute("aria-label", label);
    return made;
  };
  form.querySelectorAll("[data-add-steps]").forEach((stepper) => {
    stepper.prepend(button(-1, "\u2212", "minus 1"));
    stepper.append(button(1, "+", "plus 1"));
  });
}

// Deal form: with two sides, typing one side's trick points fills in the other's, unless the player typed that
// too; and a warning when the bid is more than the bidders' meld plus every trick point.
function setUpDealForm(form) {
  const cardPoints = parseInt(form.dataset.cardPoints, 10);
  const trickTotal = parseInt(form.dataset.trickTotal, 10);
  const tricks = [...form.querySelectorAll(".tricks-field input")];
  if (tricks.length === 2) {
    tricks.forEach((input, index) => {
      input.addEventListener("input", () => {
        input.dataset.typed = "";
        const [typed, other] = [numberIn(input), tricks[1 - index]];
        if (typed !== null && typed >= 0 && typed <= cardPoints && !("typed" in other.dataset)) {
          other.value = String(cardPoints - typed);
        }
      });
    });
  }
  const warning = form.querySelector("[data-dead-warning]");
  const bid = form.querySelector('input[name="bid"]');
  if (!warning || !bid) return;
  const check = () => {
    const tapped = form.querySelector('input[name="bidder"]:checked');
    const bidder = tapped && tapped.value.split(":")[0];  // a side, or a player's "side:name"
    const detail = form.querySelector('input[name="mode"][value="detail"]:checked');
    const meldTotal = bidder && form.querySelector(`[data-meld-total="${bidder}"]`);
    const melded = bidder && [...form.querySelectorAll(`[data-side="${bidder}"] .meld-field input`)]
      .some((input) => input.value.trim() !== "" && input.value.trim() !== "0");
    const meld = meldTotal && melded ? numberIn(meldTotal) : null;
    const thrownIn = form.querySelector('input[name="thrown_in"]:checked');
    warning.hidden = !(detail && meld !== null && numberIn(bid) !== null && !thrownIn
                       && numberIn(bid) > meld + trickTotal);
  };
  form.addEventListener("input", check);
  form.addEventListener("change", check);
  form.addEventListener("preview", check);  // the bidders' meld total has been worked out again
  check();
}

// Deal form and meld calculator: "Work out meld from cards" is a plain link, so without this
// script whatever was typed in the deal form is lost on the way to the calculator. With it, the
// form's values are kept in sessionStorage when the link is followed and put back when the
// calculator sends a side's sets back (?side=…&sets=…). What the calculator sends (that side's
// sets and meld, the way of entry, the trump) stays as the server filled it in.
const KEPT_FORM = "deal-form:";

function keepDealForm(form) {
  const key = KEPT_FORM + location.pathname;
  form.querySelectorAll("[data-keeps-form]").forEach((link) => {
    link.addEventListener("click", () => {
      const values = [...new FormData(form)].filter(([name, value]) => name !== "csrf_token"
                                                                      && typeof value === "string");
      try { sessionStorage.setItem(key, JSON.stringify(values)); } catch { /* no storage: as without scripts */ }
    });
  });
}

function restoreDealForm(form) {
  const key = KEPT_FORM + location.pathname;
  let kept = null;
  try {
    kept = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);  // used once, or dropped when the form is opened some other way
  } catch { return false; }
  const query = new URLSearchParams(location.search);
  const side = query.get("side");
  if (kept === null || side === null || !query.get("sets")) return false;
  const values = new Map();
  for (const [name, value] of JSON.parse(kept)) values.set(name, [...(values.get(name) || []), value]);
  const hand = `sides-${side}-hands-${query.get("player") || "0"}-`;
  const sentBack = (name) => name === "mode" || name === `${hand}meld` || name === `${hand}kept`
    || name.startsWith(`${hand}sets-`) || (name === "trump" && query.has("trump"));
  for (const field of form.querySelectorAll("input[name], select[name], textarea[name]")) {
    if (field.name === "csrf_token" || sentBack(field.name)) continue;
    const typed = values.get(field.name) || [];
    if (field.type === "radio" || field.type === "checkbox") field.checked = typed.includes(field.value);
    else if (typed.length) field.value = typed[0];
  }
  form.querySelectorAll("details.count-meld").forEach((fold) => {
    if ([...fold.querySelectorAll("input")].some((input) => (numberIn(input) ?? 0) > 0)) fold.open = true;
  });
  return true;
}

// Deal form: the bid chips fill the bid with one tap.
function setUpBidChips(form) {
  const chips = form.querySelector("[data-bid-chips]");
  const bid = form.querySelector('input[name="bid"]');
  const forced = form.querySelector("[data-forced]");  // a forced bid: the minimum, the dealer's side
  if (forced && bid) forced.onchange = () => {
    const [least, side] = forced.dataset.forced.split(" ");
    const radio = form.querySelector(`[name=bidder][value="${side}"]`);
    if (!forced.checked) return;
    bid.value ||= least;
    if (radio && !form.querySelector("[name=bidder]:checked")) radio.checked = true;
    changed(bid);
  };
  if (!chips || !bid) return;
  chips.hidden = false;
  chips.addEventListener("click", (event) => {
    const chip = event.target.closest("button[data-bid]");
    if (!chip) return;
    bid.value = chip.dataset.bid;
    changed(bid);
  });
}

// Deal form: Enter on a number field with enterkeyhint="next" goes to the next number field; on the
// last one ("done") it closes the keyboard, so that the score is read before Save is tapped.
function setUpEnterKey(form) {
  form.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || !input.matches || !input.matches("input[enterkeyhint]")) return;
    event.preventDefault();
    const fields = [...form.querySelectorAll('input[inputmode="numeric"]')]
      .filter((field) => field.offsetParent !== null && !field.closest("details:not([open])"));
    const next = fields[fields.indexOf(input) + 1];
    if (input.getAttribute("enterkeyhint") === "next" && next) next.focus();
    else input.blur();
  });
}

// Deal form: what the deal scores, worked out on the server by the rules core as the player types
// (debounced; an answer that arrives after a newer question is dropped). Each side's meld total too. With no
// network the page's outbox works it out on this phone (static/js/offline/preview.js): the same lines; a phone
// that holds neither the match nor the twin says it has no connection (the server's words, data-no-preview).
let startOutbox = async () => null;  // the page's outbox, started (setUpOutbox below), or null
function setUpPreview(form, restored) {
  const region = form.querySelector("#deal-preview");
  if (!region || !region.dataset.previewUrl) return;
  const noPreview = { lines: [region.dataset.noPreview], ready: false, melds: [] };
  let timer = null;
  let asked = 0;
  const show = (answer) => {
    region.replaceChildren(...answer.lines.map((line) => {
      const paragraph = document.createElement("p");
      paragraph.textContent = line;
      return paragraph;
    }));
    region.classList.toggle("ready", answer.ready);
    answer.melds.forEach((meld, side) => {
      const output = form.querySelector(`[data-meld-total="${side}"]`);
      if (output) output.textContent = meld === null ? "…" : String(meld);
    });
    form.dispatchEvent(new Event("preview", { bubbles: false }));
  };
  const ask = () => {
    if (!form.isConnected) return;  // the entry panel's form, closed (saved) before the pause
    const question = ++asked;
    // URL-encoded, as the form itself is sent: quicker for the server to read than multipart.
    const body = new URLSearchParams(/** @type {any} */ (new FormData(form)));
    fetch(region.dataset.previewUrl, { method: "POST", body })
      .then((response) => response.ok && response.json(), () => startOutbox()  // no network: on this phone
        .then((outbox) => outbox?.preview(form)).catch(() => null).then((here) => here || noPreview))
      .then((answer) => { if (answer && question === asked) show(answer); });  // refused (too many asks): as it was
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(ask, 250);
  };
  const pending = (event) => {  // a meld changed: its side's total is unknown until the server answers
    const side = event.target.closest && event.target.closest("[data-side]");
    const total = side && event.target.closest(".hand-melds, .count-meld") && side.querySelector("[data-meld-total]");
    if (total) total.textContent = "\u2026";
  };
  form.addEventListener("input", (event) => { pending(event); later(); });
  form.addEventListener("change", later);
  if (restored) ask();  // values put back after the meld calculator: the server has not seen them
}

// Everything a deal form does with scripts, on the form page or put in the score sheet's entry panel
// (static/js/entry/panel.js). The card-faces code, and whatever else enhances the form, hears "deal-form:ready".
function enhanceDealForm(form) {
  addSteps(form);
  const restored = restoreDealForm(form);
  keepDealForm(form);
  setUpBidChips(form);
  setUpEnterKey(form);
  setUpPreview(form, restored);
  setUpDealForm(form);
  document.dispatchEvent(new CustomEvent("deal-form:ready", { detail: { form } }));
}
document.querySelectorAll(".deal-form").forEach(enhanceDealForm);

// Share links on the sheet: show each as the full address the phone would send (the page may give a path).
document.querySelectorAll("a.share-link").forEach((link) => {
  link.textContent = /** @type {HTMLAnchorElement} */ (link).href;
});

// A form that writes is sent once: its button says what is happening and further taps are ignored
// (the server also counts a repeat once, by the form's key). Back at the page from the history, the
// button is ready again.
document.addEventListener("submit", (event) => {
  const button = /** @type {HTMLElement} */ (event.target).querySelector("[data-submit-once]");
  if (!button) return;
  if (button.getAttribute("aria-busy") === "true") {
    event.preventDefault();
    return;
  }
  button.dataset.label = button.textContent;
  button.textContent = button.dataset.submitOnce;
  button.setAttribute("aria-busy", "true");
});
window.addEventListener("pageshow", () => {
  document.querySelectorAll('[data-submit-once][aria-busy="true"]').forEach((button) => {
    button.textContent = button.dataset.label;
    button.removeAttribute("aria-busy");
  });
});

// After a save the page opens at its top, with the totals. When the saved deal is further down than
// the screen reaches, the sheet scrolls inside the room left below the totals, showing that deal.
function showChangedRow() {
  const row = document.querySelector("tr.row-changed");
  const wrap = row && row.closest(".sheet-wrap");
  if (!wrap || row.getBoundingClientRect().bottom <= window.innerHeight) return;
  const room = window.innerHeight - wrap.getBoundingClientRect().top - 8;
  if (room < 3 * row.offsetHeight) return;  // too little room (a big zoom): the notice says it was saved
  wrap.classList.add("sheet-scroll");
  wrap.style.maxHeight = `${Math.floor(room)}px`;
  wrap.scrollTop += row.getBoundingClientRect().bottom - wrap.getBoundingClientRect().bottom;
}
showChangedRow();

// Offline: on a match's pages a form sent with no network is kept on this phone and sent when the
// network is back (static/outbox.js, loaded only when it may be needed: something kept, a form being
// filled in or sent with no network; the service worker keeps a copy from the start).
function setUpOutbox(meta) {
  const config = JSON.parse(meta.content);
  let loading = null;
  let outbox = null;
  const start = () => {
    loading ??= import(config.module).then((module) => module.start(meta))
      .then((started) => { outbox = started; return started; }, () => { loading = null; return null; });
    return loading;
  };
  startOutbox = start;
  let kept = null;
  try { kept = localStorage.getItem(`outbox:${config.match}`); } catch { /* no storage */ }
  const otherDeal = document.querySelector("[data-new-deal]") && !/new$/.test(location.pathname);
  if (kept || otherDeal || /[?&]sets=/.test(location.search)) start();  // a meld from the calculator; sw.js's kit
  document.addEventListener("focusin", (event) => { if (/** @type {HTMLElement} */ (event.target).closest("form[data-outbox]")) start(); });
  document.addEventListener("submit", (event) => {
    const form = /** @type {HTMLFormElement} */ (event.target);
    if (!form.matches("form[data-outbox]")) return;
    if (outbox) { outbox.submitted(event); return; }
    if (navigator.onLine && !form.elements.write_key) return;  // sent as it is: it writes nothing
    event.preventDefault();  // kept on this phone first (a write, by its key), or left on the page as typed
    event.stopImmediatePropagation();
    start().then((started) => {  // not started: the outbox could not even be loaded, so no network either
      if (started) { started.send(form, event.submitter); return; }
      const note = document.createElement("p");
      note.className = "form-errors";
      note.setAttribute("role", "alert");
      note.textContent = meta.dataset.notSent;  // the server's words
      form.prepend(note);
    });
  }, true);
  document.addEventListener("sheet-changed", () => start().then((o) => o && o.refresh()));  // phone.js
}
document.querySelectorAll('meta[name="outbox"]').forEach(setUpOutbox);

// Offline: the service worker (/sw.js) keeps the pages this phone opens (static/sw.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => undefined);
