// Meld by card faces inside the deal form: each meld box gets a "Count by cards" button, the one way of counting
// a hand shown beside it; its first tap loads the dialog's script (static/faces_dialog.js, with the rules core's
// twin: only when it is needed), which counts the hand and keeps it as its cards. The hand's set counters and the
// calculator's link wait behind the faces (the dialog's "Count by sets instead" and "Meld calculator"): a fold of
// counters already counted stays in view. Every deal form put on screen is announced with `deal-form:ready`
// ({detail: {form}}); a form already there when this script runs is enhanced at once.
// Without scripts each hand's fold of set counters shows, with its "from cards →" link to the calculator page.
const READY = "deal-form:ready";
const enhanced = new WeakSet();

function enhance(form) {
  if (enhanced.has(form) || !form.dataset.facesSrc) return;
  enhanced.add(form);
  form.querySelectorAll("details.count-meld:not([open])").forEach((fold) => { fold.hidden = true; });
  // A dialog on its way (its script loading on the first tap): a second tap, of a double tap, opens no other.
  let opening = null;
  for (const box of form.querySelectorAll(".hand-melds input[name$='-meld']")) {
    const label = form.querySelector(`label[for="${box.id}"]`);
    const name = label ? label.textContent.trim() : "Meld";
    // The hand's name for screen readers only, in the button's text (an aria-label would also be a label of
    // the box's own for tools that find fields by label).
    const open = document.createElement("button");
    open.type = "button";
    open.className = "button quiet";
    const said = document.createElement("span");
    said.className = "visually-hidden";
    said.textContent = ` (${name})`;
    open.append(form.dataset.countByCards, said);  // the server's words
    open.addEventListener("click", () => {
      opening ??= import(form.dataset.facesSrc).then((faces) => faces.openFaces(form, box, name))
        .finally(() => { opening = null; });
    });
    box.closest(".meld-field").append(open);
  }
}

document.addEventListener(READY, (event) => enhance(event.detail.form));
document.querySelectorAll("form.deal-form").forEach(enhance);
