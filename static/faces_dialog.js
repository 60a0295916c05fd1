// The card faces' dialog of a deal form's meld box (static/meld_in_deal.js imports it at the first "Count by
// cards"): the faces (static/js/meld_faces.js) with the match's deck and meld table and the deal's trump, the
// best meld as it stands, meld by meld, and "Use", which keeps the hand as its cards (the hand's hidden `kept`
// field, as the match file writes them): the sheet prices them on the match's meld table, now and after any
// change of it. "Use" is there once a card is tapped, so a meld typed in the box is only ever replaced by cards.
// Behind the faces: the hand's set counters ("Count by sets instead") and the meld calculator.
import { SUIT_LABELS, SUIT_SYMBOLS, hand } from "./js/rules/cards.js";
import { addTable, bestMelds } from "./js/rules/meld.js";
import { cardFaces, cardsFact, cardsOfFact, element, held, meldBreakdown } from "./js/meld_faces.js";
import { meldWords } from "./js/meld_words.js";
import { guardSecondTaps } from "./js/second_tap.js";

const ALL_TRUMPS = "all";
const TRUMPS = [[ALL_TRUMPS, meldWords("faces.all_trumps")], ...Object.keys(SUIT_SYMBOLS).map((suit) =>
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

// A meld typed or counted in sets replaces the hand's cards (as the server reads the form): they are let go here,
// with the line that said what they were worth.
function letCardsGo({ target, currentTarget: form }) {
  const hand = /^(sides-\d+-hands-\d+-)(meld|sets-)/.exec(target.name)?.[1];
  const kept = hand && !["", "0"].includes(target.value.trim()) && form.elements[`${hand}kept`];
  if (!kept?.value) return;
  kept.value = "";
  form.querySelector(`[data-cards-of="${form.elements[`${hand}meld`].id}"]`)?.remove();
}

// The dialog for one meld box, named `name`: faces (the hand's cards, when it is kept as cards), trump, the best
// meld as it stands, Use and Cancel, then the hand's other ways of counting.
export async function openFaces(form, box, name) {
  guardSecondTaps();  // a double tap on "Count by cards", Use or Cancel: its second tap is dropped
  await faceStyles(form.dataset.facesHref);
  form.addEventListener("input", letCardsGo);  // once: the same listener added again is not added twice
  const deck = form.dataset.meldDeck;
  const table = tableOf(form);
  const kept = keptField(box);
  const before = kept ? cardsOfFact(kept.value, deck) : null;
  const counts = before ? before.counts : new Array(24).fill(0);
  const dealTrump = form.querySelector("input[name='trump']:checked");
  const trumps = trumpChoices(before?.trump
    ?? (dealTrump && dealTrump.value in SUIT_SYMBOLS ? dealTrump.value : ALL_TRUMPS));
  const status = element("p", { class: "meld-status", "aria-live": "polite" });
  const use = element("button", { type: "button", class: "button primary" }, "Use");
  const cancel = element("button", { type: "button", class: "button" }, "Cancel");
  const bySets = element("button", { type: "button", class: "button quiet" }, meldWords("faces.by_sets"));
  const others = element("p", { class: "row faces-others" }, bySets);
  const calculator = calculatorLink(box);
  const toCalculator = element("button", { type: "button", class: "button quiet" }, meldWords("faces.calculator"));
  if (calculator) others.append(toCalculator);
  let best = null;
  const recount = () => {
    const trump = trumps.querySelector("input:checked").value;
    const tapped = held(counts);
    const results = tapped ? bestMelds(hand(counts, deck), trump === ALL_TRUMPS ? null : trump, table) : [];
    best = results[0] ?? null;
    status.replaceChildren(`${tapped} card${tapped === 1 ? "" : "s"}`,
      ...(best ? [" · ", element("strong", {}, meldBreakdown(best))] : [` · ${meldWords("faces.tap_cards")}`]));
    use.hidden = !best;  // nothing to use: a meld typed in the box stays as it is
    use.textContent = `Use ${best ? best.total : ""}`;
  };
  const faces = cardFaces(deck, counts, recount);
  const title = element("h2", { id: "faces-title" }, meldWords("faces.title", { hand: name }));
  const bar = element("div", { class: "faces-bar" }, status, element("div", { class: "row" }, use, cancel));
  const dialog = element("dialog", { class: "faces-dialog", "aria-labelledby": "faces-title" }, title, trumps,
    faces.element, others, bar);
  trumps.addEventListener("change", recount);
  cancel.addEventListener("click", () => dialog.close());
  use.addEventListener("click", () => {
    if (!best) return;
    const said = meldWords("faces.kept", { hand: name, melds: meldBreakdown(best) });
    useCards(box, kept, cardsFact(counts, deck, best.trump), said);
    useTrump(form, best.trump);
    dialog.close();
  });
  let focusAfter = box;
  bySets.addEventListener("click", () => {
    focusAfter = showSets(box);
    dialog.close();
  });
  toCalculator.addEventListener("click", () => {
    dialog.close();
    calculator.click();  // the form's own link: what was typed is kept while the calculator is open (static/app.js)
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    focusAfter.focus();
  });
  recount();
  document.body.append(dialog);
  dialog.showModal();
}

// The hand's hidden field that keeps its meld as cards, beside its meld box.
const keptField = (box) => box.form.querySelector(`input[name="${box.name.replace(/meld$/, "kept")}"]`);

// The hand's set counters: a fold after its side's meld, shown and opened; returns what takes the focus.
function showSets(box) {
  const sets = handSets(box);
  if (!sets) return box;
  sets.hidden = false;
  sets.open = true;
  sets.scrollIntoView({ block: "nearest" });
  return sets.querySelector("summary");
}

function handSets(box) {
  const side = box.closest("[data-side]");
  const boxes = [...side.querySelectorAll(".hand-melds input[name$='-meld']")];
  return side.querySelector(`details.count-meld[data-hand="${boxes.indexOf(box)}"]`);
}

// The meld calculator's link for this hand: the form's own, in the hand's fold of set counters.
const calculatorLink = (box) => handSets(box)?.querySelector("a.from-cards") ?? null;

// A trump picked here is the deal's when the deal has none yet (as if tapped there).
function useTrump(form, trump) {
  const choice = form.querySelector(`input[name='trump'][value='${trump}']`);
  const chosen = form.querySelector("input[name='trump']:checked");
  if (!(trump in SUIT_SYMBOLS) || !choice || (chosen && chosen.value)) return;
  choice.checked = true;
  choice.dispatchEvent(new Event("change", { bubbles: true }));
}

// The hand is kept as its cards: the box and the hand's counted sets, if any, are cleared (a hand's meld is typed,
// counted in sets or by cards: one of them), and what the cards are worth is said under the meld boxes.
function useCards(box, kept, fact, said) {
  kept.value = JSON.stringify(fact);
  box.value = "";
  for (const count of handSets(box)?.querySelectorAll("input") ?? []) {
    if (count.value && count.value !== "0") {
      count.value = "0";
      count.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
  const side = box.closest("[data-side]");
  let line = side.querySelector(`[data-cards-of="${box.id}"]`);
  if (!line) {  // after the lines already there, as the server draws them
    line = element("p", { class: "hint", "data-cards-of": box.id });
    ([...side.querySelectorAll("[data-cards-of]")].pop() ?? side.querySelector(".hand-melds")).after(line);
  }
  line.textContent = said;
  box.dispatchEvent(new Event("input", { bubbles: true }));
}
