// The card faces' dialog of a deal form's meld box (static/meld_in_deal.js imports it at the first "Count by
// cards"): the faces (static/js/meld_faces.js) with the match's deck and meld table and the deal's trump, the
// best meld as it stands, and "Use", which writes its total into the box (an `input` event, as if typed).
import { SUIT_LABELS, SUIT_SYMBOLS, hand } from "./js/rules/cards.js";
import { addTable, bestMelds } from "./js/rules/meld.js";
import { cardFaces, element, held } from "./js/meld_faces.js";
import { guardSecondTaps } from "./js/second_tap.js";

const ALL_TRUMPS = "all";
const TRUMPS = [[ALL_TRUMPS, "All four"], ...Object.keys(SUIT_SYMBOLS).map((suit) =>
  [suit, `${SUIT_SYMBOLS[suit]} ${SUIT_LABELS[suit].charAt(0).toUpperCase()}${SUIT_LABELS[suit].slice(1)}`])];

// The meld table the form's match prices on: its own prices, when it has some, as a table of their own.
function tableOf(form) {
  const own = form.dataset.meldPrices;
  if (!own) return form.dataset.meldTable;
  const name = `own:${form.dataset.meldTable}`;
  addTable(name, JSON.parse(own));
  return name;
}

function trumpChoices(chosen) {
  const choices = element("div", { class: "choices" });
  for (const [value, label] of TRUMPS) {
    const radio = element("input", { type: "radio", name: "faces-trump", value });
    radio.checked = value === chosen;
    choices.append(element("label", { class: "choice" }, radio, element("span", {}, label)));
  }
  return element("fieldset", { class: "field choice-buttons suits" }, element("legend", { class: "label" }, "Trump"),
    choices);
}

// The faces' stylesheet, added to the page once (and waited for, so the faces never show unstyled).
let styled = null;
function faceStyles(href) {
  styled ??= new Promise((loaded) => {
    const link = element("link", { rel: "stylesheet", href });
    link.addEventListener("load", loaded);
    link.addEventListener("error", loaded);
    document.head.append(link);
  });
  return styled;
}

// The dialog for one meld box, named `name`: faces, trump, the best meld as it stands, Use and Cancel.
export async function openFaces(form, box, name) {
  guardSecondTaps();  // a double tap on "Count by cards", Use or Cancel: its second tap is dropped
  await faceStyles(form.dataset.facesHref);
  const deck = form.dataset.meldDeck;
  const table = tableOf(form);
  const counts = new Array(24).fill(0);
  const dealTrump = form.querySelector("input[name='trump']:checked");
  const trumps = trumpChoices(dealTrump && dealTrump.value in SUIT_SYMBOLS ? dealTrump.value : ALL_TRUMPS);
  const status = element("p", { class: "meld-status", "aria-live": "polite" });
  const use = element("button", { type: "button", class: "button primary" }, "Use");
  const cancel = element("button", { type: "button", class: "button" }, "Cancel");
  let best = null;
  const recount = () => {
    const trump = trumps.querySelector("input:checked").value;
    const results = held(counts) ? bestMelds(hand(counts, deck), trump === ALL_TRUMPS ? null : trump, table) : [];
    best = results[0] ?? null;
    const cards = `${held(counts)} card${held(counts) === 1 ? "" : "s"}`;
    status.replaceChildren(cards, ...(best ? [" · ", element("strong", {},
      `${SUIT_SYMBOLS[best.trump]} trump: ${best.total}`)] : []));
    use.textContent = `Use ${best ? best.total : 0}`;
  };
  const faces = cardFaces(deck, counts, recount);
  const title = element("h2", { id: "faces-title" }, `${name} by cards`);
  const dialog = element("dialog", { class: "faces-dialog", "aria-labelledby": "faces-title" }, title, trumps,
    faces.element, element("div", { class: "faces-bar" }, status, element("div", { class: "row" }, use, cancel)));
  trumps.addEventListener("change", recount);
  cancel.addEventListener("click", () => dialog.close());
  use.addEventListener("click", () => {
    useTotal(box, best ? best.total : 0);
    useTrump(form, trumps.querySelector("input:checked").value);
    dialog.close();
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    box.focus();
  });
  recount();
  document.body.append(dialog);
  dialog.showModal();
}

// A trump picked here is the deal's when the deal has none yet (as if tapped there).
function useTrump(form, trump) {
  const choice = form.querySelector(`input[name='trump'][value='${trump}']`);
  const chosen = form.querySelector("input[name='trump']:checked");
  if (!(trump in SUIT_SYMBOLS) || !choice || (chosen && chosen.value)) return;
  choice.checked = true;
  choice.dispatchEvent(new Event("change", { bubbles: true }));
}

// The total goes in the box as if typed; the hand's counted sets, if any, are cleared (a hand's meld is
// typed or counted, not both).
function useTotal(box, total) {
  box.value = String(total);
  box.dispatchEvent(new Event("input", { bubbles: true }));
  const side = box.closest("[data-side]");
  const boxes = [...side.querySelectorAll(".hand-melds input[name$='-meld']")];
  const sets = side.querySelector(`details.count-meld[data-hand="${boxes.indexOf(box)}"]`);
  for (const count of sets ? sets.querySelectorAll("input") : []) {
    if (count.value && count.value !== "0") {
      count.value = "0";
      count.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
}
