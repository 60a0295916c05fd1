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

document.querySelectorAll(".deal-form").forEach(setUpDealForm);
document.querySelectorAll("form[data-presets]").forEach(setUpNewMatch);
