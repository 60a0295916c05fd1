// Cards, suits, ranks, the two Pinochle decks and hands: the twin of scorekeeper/rules/cards.py.
// A suit is its letter (S H D C), a rank its letter (A T K Q J 9), a card its index 0–23
// (suit major, rank minor), a deck "single" or "double", a hand 24 counts in card index order.

import { DECKS, NUMBER_WORDS, RANKS, SUITS, SUIT_LABELS, SUIT_SYMBOLS } from "./declarations.js";
import { ProblemCode, RulesError, problem, sayBasic, toldBasic } from "./problems.js";
import { SPACE, strip } from "./spaces.js";

/** @typedef {string} Suit a letter of SUITS */
/** @typedef {string} Rank a letter of RANKS */
/** @typedef {string} Deck a key of DECKS */
/** @typedef {{counts: readonly number[], deck: Deck}} Hand */

export { RANKS, SUITS, SUIT_LABELS, SUIT_SYMBOLS };
const SUIT_BY_TEXT = Object.freeze(Object.fromEntries([...SUITS.map((suit) => [suit, suit]),
  ...SUITS.map((suit) => [SUIT_SYMBOLS[suit], suit])]));
const RANK_BY_TEXT = Object.freeze(Object.fromEntries([...RANKS.map((rank) => [rank, rank]), ["10", "T"]]));

/** 'two' for 2: how the messages speak of small counts. */
export function numberWord(n) {
  return n >= 0 && n < NUMBER_WORDS.length ? NUMBER_WORDS[n] : String(n);
}

/** A card's index from its suit and rank. */
export function cardIndex(suit, rank) {
  return SUITS.indexOf(suit) * 6 + RANKS.indexOf(rank);
}

export const suitOf = (index) => SUITS[Math.floor(index / 6)];
export const rankOf = (index) => RANKS[index % 6];

/** How a rank is written on a card: 'A', '10', 'K' … */
export const rankLabel = (rank) => (rank === "T" ? "10" : rank);

/** The card code of a match file: `10H`. */
export const cardCode = (index) => rankLabel(rankOf(index)) + suitOf(index);

/** The card as shown: `10♥`. */
export const cardText = (index) => rankLabel(rankOf(index)) + SUIT_SYMBOLS[suitOf(index)];

/** Read `S`, `h`, `♦` …; throw a RulesError (not_a_suit) otherwise. */
export function suitFromText(text) {
  const key = strip(text).toUpperCase();
  if (!Object.hasOwn(SUIT_BY_TEXT, key)) {
    throw new RulesError(toldBasic(ProblemCode.NOT_A_SUIT, "", { text }));
  }
  return SUIT_BY_TEXT[key];
}

/** Read `A`, `10`, `t` …; throw a RulesError (not_a_rank) otherwise. */
export function rankFromText(text) {
  const key = strip(text).toUpperCase();
  if (!Object.hasOwn(RANK_BY_TEXT, key)) {
    throw new RulesError(toldBasic(ProblemCode.NOT_A_RANK, "", { text }));
  }
  return RANK_BY_TEXT[key];
}

const CARD_PATTERN = /^(10|[ATKQJ9])([SHDC♠♥♦♣])$/u;

const CARD_BY_CODE = new Map(); // the usual spellings (AS, 10h, Ts …), read without a pattern
for (let index = 0; index < 24; index += 1) {
  const [rank, suit] = [RANKS[index % 6], SUITS[Math.floor(index / 6)]];
  for (const code of [rank + suit, rankLabel(rank) + suit]) {
    CARD_BY_CODE.set(code, index);
    CARD_BY_CODE.set(code.toLowerCase(), index);
  }
}

/** Read a card such as `AS`, `10h`, `T♦` or `qs`: its index. */
export function cardFromText(text) {
  const known = CARD_BY_CODE.get(text);
  if (known !== undefined) return known;
  const match = CARD_PATTERN.exec(strip(text).toUpperCase());
  if (match === null) throw new RulesError(toldBasic(ProblemCode.NOT_A_CARD, "", { text }));
  return cardIndex(SUIT_BY_TEXT[match[2]], RANK_BY_TEXT[match[1]]);
}

/** How many copies of each card the deck holds. */
export const deckCopies = (deck) => DECKS[deck].copies;
/** The ranks a deck holds: a double deck has no nines. */
export const deckRanks = (deck) => DECKS[deck].ranks;
export const deckLabel = (deck) => `${deck} deck`;

/** How many copies of a card (by index) the deck holds: 0 for a nine in a double deck. */
export function copiesOf(deck, index) {
  return deckRanks(deck).includes(rankOf(index)) ? deckCopies(deck) : 0;
}

/** A hand from 24 counts; no check against the deck. @returns {Hand} */
export function hand(counts, deck) {
  if (counts.length !== 24) throw new Error(sayBasic("hand_counts"));
  return Object.freeze({ counts: Object.freeze([...counts]), deck });
}

/** Build a hand from card indexes, refusing more copies of a card than `deck` holds. */
export function handFromCards(cards, deck) {
  const counts = new Array(24).fill(0);
  for (const index of cards) counts[index] += 1;
  const problems = [];
  counts.forEach((n, index) => {
    const allowed = copiesOf(deck, index);
    if (n > allowed) {
      problems.push(allowed === 0
        ? [ProblemCode.CARD_NOT_IN_DECK, sayBasic(ProblemCode.CARD_NOT_IN_DECK, { card: cardText(index), deck: deckLabel(deck) })]
        : [ProblemCode.TOO_MANY_COPIES, sayBasic(ProblemCode.TOO_MANY_COPIES,
          { held: numberWord(n), card: cardText(index), deck: deckLabel(deck), copies: numberWord(allowed) })]);
    }
  });
  if (problems.length) {
    throw new RulesError(problem(problems[0][0], "", problems.map(([, text]) => text).join("; ")));
  }
  return hand(counts, deck);
}

const SEPARATORS = new RegExp(`(?:${SPACE}|,)+`, "u");

/** Read cards separated by spaces or commas (or a list of card texts). */
export function handFromText(text, deck) {
  const tokens = (typeof text === "string" ? strip(text).split(SEPARATORS) : [...text]).filter((t) => strip(t));
  const cards = [];
  const bad = [];
  tokens.forEach((token, index) => {
    try {
      cards.push(cardFromText(token));
    } catch (error) {
      if (!(error instanceof RulesError)) throw error;
      bad.push([index, error]);
    }
  });
  if (bad.length) {
    const [index, first] = bad[0];
    throw new RulesError(problem(first.code, `[${index}]`, bad.map(([, e]) => e.message).join("; ")));
  }
  return handFromCards(cards, deck);
}

/** The cards of a hand as codes, in card order. */
export function handCodes(held) {
  const codes = [];
  held.counts.forEach((n, index) => { for (let i = 0; i < n; i += 1) codes.push(cardCode(index)); });
  return codes;
}
