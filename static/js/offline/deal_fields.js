// A kept form's fields as the match file's facts, so that the twin can work out the sheet before the
// server has them: the deal form as forms/deals.py reads it, the house rules as forms/house_rules.py
// does. Anything unreadable gives null: the server reads it when it is sent and says what to fix.

import { tell } from "./words.js";

function whole(text) {
  const trimmed = (text ?? "").trim();
  return /^[0-9]{1,9}$/.test(trimmed) ? Number(trimmed) : null;
}

function readJson(text) {
  try { return JSON.parse(text); } catch { return undefined; }
}

/** The deal in a kept deal form of the match whose file is `file` (its sides, players, auction and rules),
 * or null when a field cannot be read here. As on the server, a player tapped under "Who bid?" (`bidder`
 * "side:player", or `bid_by` alone) bids for that player's side, and a forced bid left empty is the minimum,
 * taken by the dealer's side. */
export function dealFromFields(pairs, file) {
  const sideCount = file.sides.length;
  const auction = file.auction !== false;
  const f = new Map();
  for (const [name, value] of pairs) if (!f.has(name)) f.set(name, value);
  const get = (name) => f.get(name) ?? "";
  if (get("passed")) return { passed: true };
  const sideOf = new Map(file.sides.flatMap((side, index) => (side.players || []).map((name) => [name, index])));
  const deal = { bidder: null };
  const tapped = /^([0-9]+):(.+)$/s.exec(get("bidder"));
  const bidBy = tapped ? tapped[2] : get("bid_by");
  if (auction) {
    let bidder = whole(tapped ? tapped[1] : get("bidder"));
    let bid = whole(get("bid"));
    if (bidder === null && !get("bidder").trim() && sideOf.has(bidBy)) bidder = sideOf.get(bidBy);
    if (get("forced")) {
      if (bidder === null && !get("bidder").trim() && sideOf.has(get("dealt_by"))) bidder = sideOf.get(get("dealt_by"));
      if (bid === null && !get("bid").trim()) bid = file.rules.min_bid || null;  // a match file always writes it
    }
    if (bidder === null || bidder >= sideCount || bid === null) return null;
    deal.bidder = bidder;
    deal.bid = bid;
    if (bidBy && sideOf.size) deal.bid_by = bidBy;
  }
  if (get("dealt_by") && sideOf.size) deal.dealt_by = get("dealt_by");
  if (get("trump")) deal.trump = get("trump");
  if (get("thrown_in")) deal.thrown_in = true;
  if (auction && get("out")) deal.out = true;
  if (auction && get("forced")) deal.forced = true;
  const quick = get("mode") !== "detail";
  deal.sides = [];
  for (let i = 0; i < sideCount; i++) {
    const conceded = deal.thrown_in && deal.bidder === i;  // the bidders' one number does not count: empty is 0
    const side = quick ? sideTotal(get, i, conceded) : sideDetail(get, i, f);
    if (side === null) return null;
    deal.sides.push(side);
  }
  return deal;
}

function sideTotal(get, i, conceded) {
  const typed = get(`sides-${i}-total`);
  const total = conceded && !typed.trim() ? 0 : whole(typed);
  return total === null ? null : { total };
}

function sideDetail(get, i, f) {
  const side = {};
  const hands = [];
  for (let j = 0; f.has(`sides-${i}-hands-${j}-meld`) || f.has(`sides-${i}-hands-${j}-kept`); j++) {
    const hand = handMeld(get, f, `sides-${i}-hands-${j}-`);
    if (hand === null) return null;
    hands.push(hand);
  }
  while (hands.length && hands[hands.length - 1] === undefined) hands.pop();
  if (hands.length) {
    const melds = hands.map((hand) => (hand === undefined ? 0 : hand));
    side.meld = melds.length > 1 ? melds : melds[0];
  }
  const took = get(`sides-${i}-took`) || "points";
  const tricks = get(`sides-${i}-tricks`).trim();
  if (tricks) {
    side.tricks = whole(tricks);
    if (side.tricks === null) return null;
  } else if (get(`sides-${i}-kept_tricks`)) {
    side.tricks = readJson(get(`sides-${i}-kept_tricks`));
    if (side.tricks === undefined) return null;
  } else if (took === "no_points") {
    side.tricks = 0;
  }
  if (get("last_trick") === String(i)) side.last_trick = true;
  if (took === "none") side.took_trick = false;
  else if (took === "no_points") side.took_trick = true;
  return side;
}

// One meld line: undefined when empty, null when unreadable.
function handMeld(get, f, prefix) {
  const typed = get(`${prefix}meld`).trim();
  const sets = {};
  for (const [name, value] of f) {
    if (!name.startsWith(`${prefix}sets-`)) continue;
    const key = name.slice(prefix.length + 5);
    const raw = value.trim();
    if (!raw) continue;
    const count = whole(raw);
    if (count === null) return null;
    if (count) sets[key] = count;
  }
  const counted = Object.keys(sets).length > 0;
  if (typed && counted) return null;
  if (counted) return sets;
  if (typed) return whole(typed);
  if (get(`${prefix}kept`)) return readJson(get(`${prefix}kept`)) ?? null;
  return undefined;
}

/** The house rules in a kept rules form, as the match file's `rules`. */
export function rulesFromFields(pairs, specs) {
  const f = new Map(pairs);
  const rules = {};
  for (const spec of specs) {
    const raw = f.get(`rules-${spec.key}`);
    if (raw === undefined) continue;
    else rules[spec.key] = spec.kind === "number" ? whole(raw) : raw;
  }
  return rules;
}

/** The table's own meld prices in a kept meld prices form, as the match file's `meld_prices`: each
 * combination's four groups as typed (empty or "not priced": null), or the prices its preview showed. */
export function meldPricesFromFields(pairs) {
  const f = new Map(pairs);
  if (f.get("confirm") === "yes") return readJson(f.get("chosen") || "{}") ?? {};
  const prices = {};
  for (const [name, value] of pairs) {
    const found = /^([a-z_]+)-([1-4])$/.exec(name);
    if (!found) continue;
    const price = f.has(`${name}-off`) || !value.trim() ? null : whole(value);
    if (price === null && value.trim() && !f.has(`${name}-off`)) throw new Error("unreadable");
    (prices[found[1]] ??= [null, null, null, null])[Number(found[2]) - 1] = price;
  }
  return prices;
}

/** A deal's keys that are not a form field of their own name. */
const DRAWN_APART = new Set(["passed", "bidder", "bid_by", "sides", "entered_under"]);

/** The fields of a recorded deal (match file form) as the server fills a correction form in
 * (forms/deals.py, deal_form_data): the reverse of dealFromFields. */
export function fieldsFromDeal(deal) {
  if (deal.passed) return [["passed", "y"], ["mode", "quick"]];
  const sides = deal.sides || [];
  const pairs = [["mode", sides.every((side) => "total" in side) ? "quick" : "detail"]];
  const put = (name, value) => { if (value !== undefined && value !== null && value !== "") pairs.push([name, String(value)]); };
  // A noted bidder is their button under "Who bid?" ("side:player"), as the server draws it.
  put("bidder", deal.bid_by ? `${deal.bidder}:${deal.bid_by}` : deal.bidder);
  // Every other fact of the deal but its sides is the field of its name; a flag that is set is ticked.
  for (const [key, value] of Object.entries(deal)) {
    if (!DRAWN_APART.has(key)) put(key, value === true ? "y" : value === false ? null : value);
  }
  sides.forEach((side, i) => {
    const noPoints = side.took_trick === true && !side.tricks;
    put(`sides-${i}-took`, side.took_trick === false ? "none" : noPoints ? "no_points" : "points");
    if (side.last_trick) put("last_trick", i);
    if ("total" in side) { put(`sides-${i}-total`, side.total); return; }
    const hands = Array.isArray(side.meld) ? side.meld : side.meld === undefined ? [] : [side.meld];
    hands.forEach((hand, j) => {  // each line has its meld and kept fields, as in the form
      const prefix = `sides-${i}-hands-${j}-`;
      const sets = hand && typeof hand === "object" && !Array.isArray(hand) && !("cards" in hand);
      pairs.push([`${prefix}meld`, typeof hand === "number" ? String(hand) : ""],
        [`${prefix}kept`, typeof hand === "number" || sets ? "" : JSON.stringify(hand)]);
      if (sets) for (const [key, count] of Object.entries(hand)) put(`${prefix}sets-${key}`, count);
    });
    if (typeof side.tricks === "number") put(`sides-${i}-tricks`, side.tricks);
    else if (side.tricks !== undefined && side.tricks !== null) put(`sides-${i}-kept_tricks`, JSON.stringify(side.tricks));
  });
  return pairs;
}

/** Put `pairs` into a form's fields, but for those named in `skip` (a field not among the pairs is emptied, or
 * unchecked). */
export function fillForm(form, pairs, skip = ["csrf_token", "version", "write_key"]) {
  const values = new Map();
  for (const [name, value] of pairs) values.set(name, [...(values.get(name) || []), value]);
  for (const field of form.querySelectorAll("input[name], select[name], textarea[name]")) {
    if (skip.includes(field.name)) continue;
    const typed = values.get(field.name) || [];
    if (field.type === "radio" || field.type === "checkbox") field.checked = typed.includes(field.value);
    else field.value = typed.length ? typed[0] : "";
  }
}

/** A deal in a few words: "We bid 60 · We 67, They 20". */
export function describeDeal(deal, names) {
  if (!deal) return tell("deal.none");
  if (deal.passed) return tell("deal.passed");
  const parts = [];
  if (deal.bidder !== null && deal.bidder !== undefined) {
    const bid = tell("deal.bid", { side: names[deal.bidder], bid: deal.bid });
    parts.push(deal.thrown_in ? tell("deal.thrown_in", { bid }) : bid);
  }
  parts.push((deal.sides || []).map((side, i) => {
    if ("total" in side) return `${names[i]} ${side.total}`;
    return `${names[i]} meld ${describeFact(side.meld)}, tricks ${describeFact(side.tricks)}`;
  }).join(", "));
  return parts.join(" · ");
}

function describeFact(value) {
  if (value === undefined || value === null) return "0";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return value.map(describeFact).join(" + ");
  if (typeof value === "object" && "cards" in value) return "cards";
  if (typeof value === "object") return Object.entries(value).map(([k, n]) => `${n} ${k.replaceAll("_", " ")}`).join(", ");
  return String(value);
}

/** Whether two deals in match file form hold the same facts (key order aside). */
export function sameDeal(a, b) {
  return canonical(a) === canonical(b);
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).filter((k) => k !== "entered_under").sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The meld the calculator sends back (?side=…&player=…&sets=run:1,…&trump=H) in its hand's line of the deal
 * form, as the server puts it there. With no network the form is the service worker's copy of the form
 * without that query, so the server did not; on a form the server filled in this changes nothing. */
export function takeMeldFromQuery(form) {
  const query = new URLSearchParams(location.search);
  const side = query.get("side");
  if (side === null || !query.get("sets")) return;
  const hand = `sides-${side}-hands-${query.get("player") || "0"}-`;
  const counts = new Map(query.get("sets").split(",").map((part) => /** @type {[string, string]} */ (part.split(":"))));
  const sets = [...form.querySelectorAll(`input[name^="${hand}sets-"]`)];
  if (!sets.length || sets.every((input) => input.value === String(whole(counts.get(input.name.slice(hand.length + 5))) || 0))) return;
  for (const input of sets) input.value = String(whole(counts.get(input.name.slice(hand.length + 5))) || 0);
  for (const name of [`${hand}meld`, `${hand}kept`]) form.querySelectorAll(`[name="${name}"]`).forEach((input) => { input.value = ""; });
  const check = (name, value) => {
    const radio = form.querySelector(`input[name="${name}"][value="${value}"]`);
    if (radio) radio.checked = true;
  };
  check("mode", "detail");
  if (/^[SHDC]$/.test(query.get("trump") || "")) check("trump", query.get("trump"));
  const fold = sets[0].closest("details");
  if (fold && sets.some((input) => input.value !== "0")) fold.open = true;
  form.dispatchEvent(new Event("input", { bubbles: true }));  // the bid warning and the preview look again
}
