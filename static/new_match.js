// The new match form's helpers; the form works without this file (static/app.js is loaded before it).
"use strict";

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

// New match: the phone's date names a match left without a name.
function fillLocalDate(field) {
  const now = new Date();
  const pad = (value) => String(value).padStart(2, "0");
  field.value = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

document.querySelectorAll("form[data-presets]").forEach(setUpNewMatch);
document.querySelectorAll("input[data-local-date]").forEach(fillLocalDate);
