// The card faces' counting (static/js/meld_faces.js): what a tap and a "−" do, and what a face is called.
import { test } from "node:test";
import assert from "node:assert/strict";
import { added, cardsFact, cardsOfFact, faceName, held, meldBreakdown, meldLineText, removed, spokenCard }
  from "../../static/js/meld_faces.js";
import { cardFromText, handFromText } from "../../static/js/rules/cards.js";
import { bestMeld } from "../../static/js/rules/meld.js";

test("a tap adds one copy, up to the deck's count and no further", () => {
  const ace = cardFromText("AH");
  assert.deepEqual([0, 1, 2, 3, 4].map((n) => added("double", ace, n)), [1, 2, 3, 4, 4]);
  assert.deepEqual([0, 1, 2].map((n) => added("single", ace, n)), [1, 2, 2]);
});

test("a nine is not in a double deck: a tap on it adds nothing", () => {
  assert.equal(added("double", cardFromText("9S"), 0), 0);
  assert.equal(added("single", cardFromText("9S"), 0), 1);
});

test("a '−' takes one copy away, never below none", () => {
  assert.deepEqual([3, 1, 0].map(removed), [2, 0, 0]);
});

test("a face is named by its card in words and the copies held", () => {
  assert.equal(faceName(cardFromText("AH"), 2), "Ace of hearts, 2 in hand");
  assert.equal(faceName(cardFromText("10S"), 0), "10 of spades, 0 in hand");
  assert.equal(spokenCard(cardFromText("JD")), "Jack of diamonds");
  assert.equal(spokenCard(cardFromText("9C")), "9 of clubs");
});

test("the cards held are the counts added up", () => {
  assert.equal(held([2, 0, 1, ...new Array(21).fill(0)]), 3);
});

// The double-deck hand of the deal form's tests, spades trump, on the small table (RULES.md's prices).
const COUNTED = ["AS", "10S", "KS", "QS", "JS", "QS", "JD", "JD", "AH", "AD", "AC", "KS"];

test("a hand's meld is written meld by meld, as the server writes it (store/describe.py)", () => {
  const result = bestMeld(handFromText(COUNTED, "double"), "S", "double-small");
  assert.equal(meldBreakdown(result), "run 15 + royal marriage 4 + 2 pinochle 30 + aces around 10 = 59 (♠ trump)");
  assert.equal(meldBreakdown(bestMeld(handFromText(["AS", "10H"], "double"), "H", "double-small")),
    "no meld = 0 (♥ trump)");
  assert.equal(meldLineText({ name: "aces_around", sets: 3, points: 0, class: 3, on_table: false }),
    "3 aces around not on this table");
});

test("a hand kept as its cards reads back as the counts and the trump it was priced with", () => {
  const counts = [...handFromText(COUNTED, "double").counts];
  const fact = cardsFact(counts, "double", "S");
  assert.deepEqual([...fact.cards].sort(), [...COUNTED].sort());
  assert.equal(fact.trump, "S");
  assert.deepEqual(cardsOfFact(JSON.stringify(fact), "double"), { counts, trump: "S" });
  assert.deepEqual(cardsOfFact('{"cards": "AS QS"}', "double").trump, null);  // the deal's trump prices it
  for (const other of ["", "12", '{"run": 1}', '{"cards": ["ZZ"]}', "{"]) assert.equal(cardsOfFact(other, "double"), null);
});
