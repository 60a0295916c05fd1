// The card faces' counting (static/js/meld_faces.js): what a tap and a "−" do, and what a face is called.
import { test } from "node:test";
import assert from "node:assert/strict";
import { added, faceName, held, removed, spokenCard } from "../../static/js/meld_faces.js";
import { cardFromText } from "../../static/js/rules/cards.js";

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
