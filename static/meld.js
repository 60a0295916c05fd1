// Meld calculator: the server's count per card (a select each) is shown as card faces
// (static/js/meld_faces.js): each tap on a face adds a copy, its "−" takes one away, and the best meld is
// worked out here, by the rules core's twin, with no request. The selects stay in the form, hidden, and hold
// the counts it sends. Without this script the page is a plain form that the server counts. assets.py sends
// this file with the part of the twin it imports; the page loads no app.js (none of its helpers serve here), so this script also starts the service worker
// (static/sw.js keeps the page it starts on).
import { RANKS, SUITS, SUIT_LABELS, SUIT_SYMBOLS, cardCode, cardFromText, cardIndex, copiesOf, deckCopies, deckRanks,
  hand, handFromText } from "./js/rules/cards.js";
import { COMBINATIONS, combinationLabel } from "./js/rules/combinations.js";
import { NATURAL_TABLES } from "./js/rules/declarations.js";
import { addTable, bestMelds } from "./js/rules/meld.js";
import { strip } from "./js/rules/spaces.js";
import { cardFaces, element } from "./js/meld_faces.js";
import { meldWords } from "./js/meld_words.js";

const form = /** @type {HTMLFormElement} */ (document.querySelector("[data-meld-form]"));
const output = document.getElementById("meld-result");
const ALL_TRUMPS = "all";
// Opened from a match with its own meld prices, the page gives its meld table with them (group → price).
const own = form.dataset.meldPrices;
if (own) addTable("own", JSON.parse(own));
const priced = (table) => (own && table === form.dataset.matchTable ? "own" : table);
// The meld values a deck is played with: the match's own with the match's deck, else the deck's usual ones (as the
// server chooses them for a deck asked for in the link).
const usualTable = (deck) => (deck === form.dataset.matchDeck ? form.dataset.matchTable : NATURAL_TABLES[deck]);

const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const trumpName = (suit) => `${SUIT_SYMBOLS[suit]} ${capitalized(SUIT_LABELS[suit])}`;
const handSize = (deck) => SUITS.reduce((sum, suit) =>
  sum + RANKS.reduce((count, rank) => count + copiesOf(deck, cardIndex(suit, rank)), 0), 0) / 4;


function picks() {
  return [...form.querySelectorAll("[data-card]")].map((label) => {
    const select = label.querySelector("select");
    return { label, select, index: cardFromText(select.name.slice(2)) };
  });
}

const chosen = (/** @type {string} */ name) => form.elements[name].value;

// A deck has its own cards (no nines in a double deck) and copies: every pick offers 0 … copies. The cards
// held beyond them are taken out of the hand: how many.
function fitDeck(deck) {
  let taken = 0;
  for (const { label, select, index } of picks()) {
    const copies = copiesOf(deck, index);
    const held = Math.min(select.selectedIndex, copies);
    taken += select.selectedIndex - held;
    select.replaceChildren(...Array.from({ length: copies + 1 }, (_, n) => new Option(String(n), String(n))));
    select.selectedIndex = held;
    label.hidden = copies === 0;
  }
  return taken;
}

// The faces in place of the selects, for the deck chosen: a tap sets the card's select and counts again.
let faces = null;
function showFaces() {
  const counts = new Array(24).fill(0);
  for (const { select, index } of picks()) counts[index] = select.selectedIndex;
  const shown = cardFaces(chosen("deck"), counts, (index) => {
    /** @type {HTMLSelectElement} */ (form.querySelector(`select[name="n_${cardCode(index)}"]`)).selectedIndex = counts[index];
    recount();
  });
  const rows = form.querySelector("#hand");
  if (faces) faces.element.replaceWith(shown.element);
  else rows.querySelector("legend").after(shown.element);
  rows.querySelectorAll(".card-row").forEach((row) => { row.hidden = true; });
  faces = { ...shown, counts };
}

function line(meld) {
  const points = meld.on_table === false
    ? ["0 ", element("span", { class: "hint" }, meldWords("calculator.off_table"))] : [String(meld.points)];
  return element("tr", {}, element("td", { class: "left" }, capitalized(combinationLabel(meld.name))),
    element("td", {}, String(meld.sets)), element("td", {}, ...points));
}

// The hand a result goes back to is the one in this page's address: with no network the page may be the
// service worker's copy of the calculator opened for another hand (or deal) of the same match.
function dealLink(result) {
  const asked = new URLSearchParams(location.search);
  const deal = asked.get("deal");
  const form = output.dataset.dealLink.replace(/\/deals\/.*$/, deal ? `/deals/${deal}/edit` : "/deals/new");
  const query = new URLSearchParams({ side: asked.get("side") ?? output.dataset.side,
    player: asked.get("player") ?? output.dataset.player });
  const sets = COMBINATIONS.flatMap((name) => result.melds.filter((meld) => meld.name === name && meld.sets)
    .map((meld) => `${name}:${meld.sets}`));
  query.set("sets", sets.join(","));
  if (result.trump) query.set("trump", result.trump);
  return `${form}?${query}`;
}

// The same breakdown the server draws (templates/meld/calculator.html).
function breakdown(result, first) {
  const classes = output.dataset.classes.split("|");
  const table = element("table", { class: "sheet meld-table" }, element("thead", {}, element("tr", {},
    element("th", { scope: "col", class: "left" }, "Meld"), element("th", { scope: "col" }, "Sets"),
    element("th", { scope: "col" }, "Points"))));
  classes.forEach((label, i) => {
    const meldClass = i + 1;
    table.append(element("tbody", {}, element("tr", { class: "class-head" },
      element("th", { scope: "rowgroup", colspan: "2", class: "left" }, `${meldClass}. ${label}`),
      element("td", {}, String(result.classes[meldClass]))),
    ...result.melds.filter((meld) => meld.class === meldClass).map(line)));
  });
  table.append(element("tfoot", {}, element("tr", {}, element("th", { scope: "row", colspan: "2", class: "left" }, "Total"),
    element("td", { class: "num" }, element("strong", {}, String(result.total))))));
  const details = element("details", { class: "fold meld-breakdown" },
    element("summary", {}, `${trumpName(result.trump)} trump:\u00a0`, element("strong", {}, String(result.total))),
    element("div", { class: "sheet-wrap" }, table));
  details.open = first;
  if (output.dataset.dealLink) {
    details.append(element("p", {}, element("a", { class: "button primary", href: dealLink(result) },
      meldWords("calculator.use", { suit: SUIT_SYMBOLS[result.trump] }))));
  }
  return details;
}

function show(results) {
  const parts = [];
  if (results.length > 1) {
    parts.push(element("h2", {}, meldWords("calculator.each_trump")), element("ol", { class: "trump-totals" },
      ...results.map((result) => element("li", {}, element("span", { class: "trump-name" }, trumpName(result.trump)),
        " ", element("strong", {}, String(result.total))))));
  }
  parts.push(...results.map((result, i) => breakdown(result, i === 0)));
  output.replaceChildren(...parts);
}

// Count the tapped hand (plus typed cards, moved into the counts); false when the server must say what is
// wrong with the typed cards.
function recount() {
  const deck = chosen("deck");
  const counts = new Array(24).fill(0);
  const all = picks();
  for (const { select, index } of all) counts[index] = select.selectedIndex;
  const typed = form.elements.cards;
  if (strip(typed.value)) {  // spaces as the server reads them
    let extra;
    try {
      extra = handFromText(typed.value, deck);
    } catch {
      return false;
    }
    extra.counts.forEach((n, index) => { counts[index] += n; });
    if (counts.some((n, index) => n > copiesOf(deck, index))) return false;
    for (const pick of all) pick.select.selectedIndex = counts[pick.index];
    typed.value = "";
  }
  if (faces) {
    counts.forEach((n, index) => { faces.counts[index] = n; });
    faces.show();
  }
  const held = counts.reduce((sum, n) => sum + n, 0);
  const trump = chosen("trump");
  const results = held ? bestMelds(hand(counts, deck), trump === ALL_TRUMPS ? null : trump, priced(chosen("table"))) : [];
  show(results);
  const status = form.querySelector("[data-meld-status]");
  const summary = [element("span", { "data-held": "" }, `${held} of ${handSize(deck)} cards`)];
  if (results.length) {
    summary.push(" · ", element("strong", {}, `${trumpName(results[0].trump)} trump: ${results[0].total}`));
  }
  status.replaceChildren(...summary);
  return true;
}

if (form && output) {
  showFaces();
  form.addEventListener("change", (event) => {
    if (event.target === form.elements.deck) {  // priced as that deck is played, the player may pick again
      const deck = chosen("deck");
      const taken = fitDeck(deck);
      form.elements.table.value = usualTable(deck);
      showFaces();
      if (recount() && taken) {
        const said = deckRanks(deck).includes("9") ? "calculator.taken_out" : "calculator.taken_out.no_nines";
        form.querySelector("[data-meld-status]").append(" · ", meldWords(said,
          { cards: `${taken} card${taken > 1 ? "s" : ""}`, deck, copies: deckCopies(deck) }));
      }
      return;
    }
    if (event.target !== form.elements.cards) recount();
  });
  form.addEventListener("submit", (event) => {
    if (recount()) event.preventDefault();  // else the server shows what is wrong with the typed cards
  });
}
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => undefined);
