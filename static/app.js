// Small helpers for the score keeper's forms. Every page works without this file.
"use strict";

function numberIn(input) {
  const value = parseInt(input.value, 10);
  return Number.isNaN(value) ? null : value;
}

function changed(input) {
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

// − and + buttons beside a number field.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-stepper] button[data-step]");
  if (!button) return;
  const input = button.parentElement.querySelector("input");
  const step = parseInt(button.dataset.step, 10);
  const next = (numberIn(input) ?? 0) + step;
  input.value = String(Math.max(0, next));
  changed(input);
});

// Deal form: with two sides, typing one side's trick points fills in the other's;
// and a warning when the bid is more than the bidders' meld plus every trick point.
function setUpDealForm(form) {
  const cardPoints = parseInt(form.dataset.cardPoints, 10);
  const trickTotal = parseInt(form.dataset.trickTotal, 10);
  const tricks = [...form.querySelectorAll(".tricks-field input")];
  if (tricks.length === 2) {
    tricks.forEach((input, index) => {
      input.addEventListener("input", () => {
        const typed = numberIn(input);
        if (typed !== null && typed >= 0 && typed <= cardPoints) {
          tricks[1 - index].value = String(cardPoints - typed);
        }
      });
    });
  }
  const warning = form.querySelector("[data-dead-warning]");
  const bid = form.querySelector('input[name="bid"]');
  if (!warning || !bid) return;
  const check = () => {
    const bidder = form.querySelector('input[name="bidder"]:checked');
    const detail = form.querySelector('input[name="mode"][value="detail"]:checked');
    const meldInput = bidder && form.querySelector(`input[name="sides-${bidder.value}-meld"]`);
    const meld = meldInput ? numberIn(meldInput) : null;
    const thrownIn = form.querySelector('input[name="thrown_in"]:checked');
    warning.hidden = !(detail && meld !== null && numberIn(bid) !== null && !thrownIn
                       && numberIn(bid) > meld + trickTotal);
  };
  form.addEventListener("input", check);
  form.addEventListener("change", check);
  check();
}

// New match form: choosing a game refills the house rules and side names it decides.
function setUpNewMatch(form) {
  const presets = JSON.parse(form.dataset.presets);
  const rulesFrom = form.querySelector("[data-rules-from]");
  const sideBoxes = [...form.querySelectorAll("[data-side]")];
  const showSides = (count) => sideBoxes.forEach((box, index) => { box.hidden = index >= count; });
  const apply = (key) => {
    const preset = presets[key];
    if (!preset) return;
    for (const [rule, value] of Object.entries(preset.rules)) {
      form.querySelectorAll(`[name="rules-${rule}"]`).forEach((field) => {
        if (field.type === "radio") field.checked = field.value === value;
        else field.value = value;
      });
    }
    const old = presets[rulesFrom.value];
    sideBoxes.forEach((box, index) => {
      const name = box.querySelector(".side-name input");
      if (!name.value.trim() || (old && name.value === old.sides[index])) name.value = preset.sides[index] || "";
    });
    rulesFrom.value = key;
    showSides(preset.sides.length);
  };
  form.querySelectorAll("[data-preset]").forEach((radio) => {
    radio.addEventListener("change", () => apply(radio.value));
  });
  const checked = form.querySelector("[data-preset]:checked");
  if (checked && presets[checked.value]) showSides(presets[checked.value].sides.length);
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
  } catch { return; }
  const query = new URLSearchParams(location.search);
  const side = query.get("side");
  if (kept === null || side === null || !query.get("sets")) return;
  const values = new Map();
  for (const [name, value] of JSON.parse(kept)) values.set(name, [...(values.get(name) || []), value]);
  const sentBack = (name) => name === "mode" || name === `sides-${side}-meld`
    || name.startsWith(`sides-${side}-sets-`) || (name === "trump" && query.has("trump"));
  for (const field of form.querySelectorAll("input[name], select[name], textarea[name]")) {
    if (field.name === "csrf_token" || sentBack(field.name)) continue;
    const typed = values.get(field.name) || [];
    if (field.type === "radio" || field.type === "checkbox") field.checked = typed.includes(field.value);
    else if (typed.length) field.value = typed[0];
  }
  form.querySelectorAll("details.count-meld").forEach((fold) => {
    if ([...fold.querySelectorAll("input")].some((input) => (numberIn(input) ?? 0) > 0)) fold.open = true;
  });
}

document.querySelectorAll(".deal-form").forEach((form) => {
  restoreDealForm(form);
  keepDealForm(form);
  setUpDealForm(form);
});
document.querySelectorAll("form[data-presets]").forEach(setUpNewMatch);

// Share links on the sheet: show each as the full address the phone would send (the page may give a path).
document.querySelectorAll("a.share-link").forEach((link) => {
  link.textContent = link.href;
});

// A form that writes is sent once: its button says what is happening and further taps are ignored
// (the server also counts a repeat once, by the form's key). Back at the page from the history, the
// button is ready again.
document.addEventListener("submit", (event) => {
  const button = event.target.querySelector("[data-submit-once]");
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
