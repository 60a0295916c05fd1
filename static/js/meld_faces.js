// Card faces for counting a hand: the deck's distinct cards grouped by suit, a tap on a face adds one
// copy (up to the deck's count, shown in a badge) and a smaller "−" under it takes one away. Used by the
// meld calculator (static/meld.js) and, in place, by the deal form (static/meld_in_deal.js). A hand is
// 24 counts in card index order, as the rules core's twin keeps it.
import { RANKS, SUITS, SUIT_LABELS, SUIT_SYMBOLS, cardCode, cardIndex, cardText, copiesOf, handCodes, handFromText,
  rankOf, suitOf } from "./rules/cards.js";
import { combinationLabel } from "./rules/combinations.js";
import { sayBasic } from "./rules/problems.js";
import { meldWords } from "./meld_words.js";

const RANK_WORDS = { A: "ace", T: "10", K: "king", Q: "queen", J: "jack", 9: "9" };
const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** "Ace of hearts": a card as a screen reader says it. */
export const spokenCard = (index) => capitalized(`${RANK_WORDS[rankOf(index)]} of ${SUIT_LABELS[suitOf(index)]}`);

/** The accessible name of a face: the card and how many of it the hand holds. */
export const faceName = (index, count) => meldWords("faces.face", { card: spokenCard(index), count });

/** The count of a card after a tap on its face: one more, never more than the deck holds. */
export const added = (deck, index, count) => Math.min(count + 1, copiesOf(deck, index));

/** The count of a card after its "−": one fewer, never below none. */
export const removed = (count) => Math.max(count - 1, 0);

/** The cards a hand holds. */
export const held = (counts) => counts.reduce((sum, n) => sum + n, 0);

/** One meld found, as the server writes it (store/describe.py, meld_line_text): "2 pinochle 30". */
export function meldLineText(line) {
  const name = line.sets > 1 ? `${line.sets} ${combinationLabel(line.name)}` : combinationLabel(line.name);
  return line.on_table === false ? sayBasic("meld.off_table", { name }) : `${name} ${line.points}`;
}

/** A hand's best meld, meld by meld: "run 15 + 2 pinochle 30 = 45 (♠ trump)" (store/describe.py, describe_cards). */
export function meldBreakdown(result) {
  const lines = result.melds.map(meldLineText).join(" + ") || sayBasic("meld.none");
  return sayBasic("meld.breakdown", { lines, total: result.total, suit: SUIT_SYMBOLS[result.trump] });
}

/** A hand's meld as the match file keeps cards: `{"cards": […], "trump": "S"}` (the trump it was priced with). */
export const cardsFact = (counts, deck, trump) => ({ cards: handCodes({ counts, deck }), trump });

/** The 24 counts and the trump of a hand kept as its cards (`cardsFact`'s JSON), or null when `text` is not one. */
export function cardsOfFact(text, deck) {
  try {
    const fact = JSON.parse(text);
    if (!fact || typeof fact !== "object" || !("cards" in fact)) return null;
    const trump = fact.trump in SUIT_SYMBOLS ? fact.trump : null;
    return { counts: [...handFromText(fact.cards, deck).counts], trump };
  } catch {  // not JSON, or cards the deck does not hold: counted afresh
    return null;
  }
}

/** A new element with its attributes and children (text or elements). */
export function element(tag, attributes = {}, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.append(...children);
  return made;
}

// Show one face's count: its badge, its accessible name, the "−" only when there is one to take.
function showCount(face, index, count) {
  face.classList.toggle("picked", count > 0);
  const add = face.querySelector(".face-add");
  add.setAttribute("aria-label", faceName(index, count));
  add.querySelector(".face-badge").textContent = count ? String(count) : "";
  face.querySelector(".face-remove").hidden = count === 0;
}

/**
 * The faces of `deck`'s cards, one group per suit, showing `counts` (changed in place); `changed(index)`
 * runs after each tap. Returns the element and `show()`, which redraws every count from `counts`.
 */
export function cardFaces(deck, counts, changed) {
  const grid = element("div", { class: "face-grid" });
  for (const suit of SUITS) {
    const group = element("div", { class: "face-suit", role: "group", "aria-label": capitalized(SUIT_LABELS[suit]) });
    for (const rank of RANKS) {
      const index = cardIndex(suit, rank);
      if (!copiesOf(deck, index)) continue;
      group.append(element("div", { class: `face${suit === "H" || suit === "D" ? " suit-red" : ""}`,
        "data-face": String(index), "data-code": cardCode(index) },
      element("button", { type: "button", class: "card-face face-add" }, cardText(index),
        element("span", { class: "face-badge" })),
      element("button", { type: "button", class: "face-remove",
        "aria-label": meldWords("faces.remove_one", { card: spokenCard(index).toLowerCase() }) }, "−")));
    }
    grid.append(group);
  }
  grid.addEventListener("click", (event) => {
    const tapped = event.target.closest(".face-add, .face-remove");
    if (!tapped) return;
    const face = tapped.closest("[data-face]");
    const index = Number(face.dataset.face);
    counts[index] = tapped.classList.contains("face-add") ? added(deck, index, counts[index]) : removed(counts[index]);
    showCount(face, index, counts[index]);
    if (counts[index] === 0) face.querySelector(".face-add").focus();  // its "−" is gone
    changed(index);
  });
  const show = () => grid.querySelectorAll("[data-face]").forEach((face) => {
    const index = Number(face.dataset.face);
    showCount(face, index, counts[index]);
  });
  show();
  return { element: grid, show };
}
