// Who sits where, how many hands each side plays and who deals next: the twin of scorekeeper/rules/rotation.py,
// held to it by tests/vectors/dealers.json. The seats and the dealer read a match file's shape:
// `sides[].players`, `deals[].dealt_by`, `first_dealer`; the hands read a match (matchFromJson's), whose
// `auction` is settled even where the file leaves it out.

/** The players in their seats around the table: each side's first player, then each side's second…
 * @param {{players?: string[]}[]} sides @returns {string[]} */
export function seatOrder(sides) {
  const most = Math.max(0, ...sides.map((side) => (side.players || []).length));
  const seats = [];
  for (let seat = 0; seat < most; seat++) {
    for (const side of sides) if (seat < (side.players || []).length) seats.push(side.players[seat]);
  }
  return seats;
}

/** How many hands each side plays: one per player it names; a side that names none is a partnership of two in a
 * match of two sides with an auction (the four-handed games), else one hand.
 * @param {import("./match.js").Match} match @returns {number[]} */
export function sideHands(match) {
  const partnerships = match.sides.length === 2 && match.auction;
  return match.sides.map((side) => (side.players || []).length || (partnerships ? 2 : 1));
}

/** Who deals the next deal: the player after the last recorded dealer, else the seat the deal count reaches
 * from the match's first dealer (its first player unless it names another); null when the sides name no
 * players. @returns {string | null} */
export function nextDealer(file) {
  const seats = seatOrder(file.sides);
  if (!seats.length) return null;
  const deals = file.deals || [];
  for (let since = 0; since < deals.length; since++) {
    const dealer = deals[deals.length - 1 - since].dealt_by;  // a passed deal names no dealer, but the deal moved on
    if (seats.includes(dealer)) return seats[(seats.indexOf(dealer) + 1 + since) % seats.length];
  }
  const first = Math.max(0, seats.indexOf(file.first_dealer));
  return seats[(first + deals.length) % seats.length];
}
