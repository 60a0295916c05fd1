// The score sheet with what is not sent yet: the live part of the sheet as the server drew it, with the
// totals, the deal count, the next deal's number, the dealer, the rows and the chart worked out by the rules
// core's twin over the entries kept on this phone, the deals not sent yet marked so. The server's rows are
// kept where a deal's line is as the server drew it (only its number and running totals move); the others are
// made of the parts of a row the server drew with its own row template (row_parts), filled with the twin's
// numbers; the chart is drawn here as sheet/chart_svg.py draws it, with the words of the kit's chart card. The
// sheet's words are messages.py's (words.js).

import { nextDealer } from "../rules/rotation.js";
import { tell } from "./words.js";

const MINUS = "\u2212";
/** A score as the sheets print it, with a true minus sign (sheet/view.py's points). */
export const points = (value) => (value < 0 ? `${MINUS}${-value}` : String(value));
const PROJECTED = "data-outbox-projected";  // on what this module put on the page

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== null && value !== false) node.setAttribute(name, value);
  node.append(...children.filter((child) => child !== null && child !== false));
  return node;
}

const served = new WeakMap();  // each live part's content as the server sent it

// Not sent yet has a look of its own, never a saved deal's green nor its mark: a dashed chip, and a dashed mark
// at the row's start, in the page's colours (light or dark); printed, the chip's dashed frame (in the page's
// stylesheets from the first draw: style-src 'self').
const LOOK = ".status-pending { background: var(--warn-soft); color: var(--warn); outline: 1px dashed; outline-offset: -1px; }"
  + " .sheet tr.row-pending > td:first-child {"
  + " background: repeating-linear-gradient(var(--warn) 0 6px, transparent 6px 10px) left / 4px 100% no-repeat; }";
let look = null;

function addLook() {
  if (look) return;
  look = new CSSStyleSheet();
  look.replaceSync(LOOK);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, look];
}

/** Show the server's live part in `region` again, as it came (the projection taken away). */
export function restore(region) {
  const copy = served.get(region);
  if (copy && region.querySelector(`[${PROJECTED}]`)) region.replaceChildren(copy.cloneNode(true));
}

/** Draw the sheet of `projected` (view.js's project: the file, its sheet and each deal's origin) in the live
 * part `region`, over the server's, whose own sheet is `base`; `names`: the sides' names as the pages show them;
 * `rowKit`: the parts of a row as the server draws them (none: the rows are left as they are). */
export function draw(region, { projected, base, rowKit, pending, names }) {
  addLook();
  if (!region.querySelector(`[${PROJECTED}]`)) served.set(region, fragmentOf(region));
  const page = served.get(region).cloneNode(true);
  const { file, sheet, track } = projected;
  const count = sheet.deals.length;
  const meta = page.querySelector(".match-meta");
  if (meta) meta.textContent = tell(count === 1 ? "sheet.playing_to.one" : "sheet.playing_to", { target: file.rules.target, deals: count });
  drawBanner(page, sheet, base, names);
  drawTotals(page, sheet, file, pending);
  const dealer = page.querySelector("[data-dealer]");
  const next = nextDealer(file);
  if (dealer && (next === null || sheet.winner !== null)) dealer.remove();
  else if (dealer) dealer.textContent = `${next} deals`;
  drawAddDeal(page, count, sheet.winner !== null);
  const parts = rowKit ? rowParts(rowKit) : null;
  drawRows(page, { file, sheet, track, base, names, parts });
  drawChart(page, sheet, names, file.rules.target, pending, parts);
  page.firstElementChild.setAttribute(PROJECTED, "");
  region.replaceChildren(page);
}

function fragmentOf(region) {
  const fragment = document.createDocumentFragment();
  for (const node of region.childNodes) fragment.append(node.cloneNode(true));
  return fragment;
}

// "+ Add deal N" as templates/matches/_sheet_live.html draws it: the main button, or once the match is decided
// a small link that says the deal will not count.
function drawAddDeal(page, count, decided) {
  const add = page.querySelector(".add-deal");
  if (!add) return;
  const href = add.getAttribute("href");
  const drawn = decided
    ? el("p", { class: "add-after-end" }, el("a", { class: "add-deal", href }, tell("sheet.add_after_end", { n: count + 1 })))
    : el("a", { class: "button primary big add-deal", href }, tell("sheet.add", { n: count + 1 }));
  (add.closest(".add-after-end") || add).replaceWith(drawn);
}

const pendingNote = (pending) => tell(pending === 1 ? "sheet.pending.one" : "sheet.pending", { n: pending });

function drawBanner(page, sheet, base, names) {
  const banner = page.querySelector(".banner");
  if (base && banner && sheet.winner === base.winner && sheet.ended_at === base.ended_at) return;  // as the server says
  if (banner) banner.remove();
  if (sheet.winner === null) return;
  const rank = sheet.rank.map((side, i) => `${i + 1}. ${names[side]} ${points(sheet.totals[side])}`).join(" · ");
  const drawn = el("div", { class: "banner", role: "status", [PROJECTED]: "" },
    el("p", {}, `★ ${tell("sheet.won", { name: names[sheet.winner], deal: sheet.ended_at })}`), el("p", { class: "rank" }, rank),
    el("p", { class: "rank" }, tell("sheet.pending_winner")));
  (page.querySelector(".totals") || page.firstChild).before(drawn);
}

function drawTotals(page, sheet, file, pending) {
  page.querySelectorAll(".totals .total").forEach((box, side) => {
    const total = sheet.totals[side];
    const shown = box.querySelector(".total-points");
    shown.textContent = points(total);
    shown.classList.toggle("negative", total < 0);
    box.classList.toggle("total-winner", sheet.winner === side);
    const toGo = file.rules.target - total;
    box.querySelector(".total-to-go").textContent = toGo > 0 ? tell("sheet.to_go", { points: toGo })
      : tell("sheet.reached", { target: file.rules.target });
  });
  const totals = page.querySelector(".totals");
  if (totals) totals.after(el("p", { class: "notice notice-warning small", [PROJECTED]: "" }, tell("sheet.pending_totals", { pending: pendingNote(pending) })));
}

const sameList = (a, b) => (a === null || b === null ? a === b : a.length === b.length && a.every((x, i) => x === b[i]));

function sameLine(a, b) {
  return Boolean(a) && a.status === b.status && a.after_end === b.after_end && a.bidder === b.bidder && a.bid === b.bid
    && sameList(a.scores, b.scores) && sameList(a.as_entered, b.as_entered)
    && sameList(a.lost_meld.map(String), b.lost_meld.map(String));
}

/** The parts of a row as the server draws them (sheet/row_parts.py, with the sheet's own cells; kept with
 * the match's kit): each is drawn for a stand-in line whose numbers are the marks in `data-fill`, which `fill`
 * replaces. @param {DocumentFragment} doc */
function rowParts(doc) {
  const template = /** @type {HTMLTemplateElement|null} */ (doc.querySelector("template[data-sheet-rows]"));
  if (!template) return null;
  const marks = JSON.parse(template.dataset.fill || "{}");
  /** @param {string} key @returns {Element[]} the part's rows, copied */
  const rows = (key) => [...template.content.querySelectorAll(`[data-part="${key}"] > tr`)]
    .map((row) => /** @type {Element} */ (row.cloneNode(true)));
  /** The part's cell (a bid cell, a side's cell …), copied. @param {string} key @returns {Element} */
  const cell = (key) => /** @type {Element} */ (rows(key)[0].firstElementChild);
  /** `node` with each mark of `values` replaced by its number. @template {Node} N @param {N} node
   * @param {Record<string, number|string>} values @returns {N} */
  const fill = (node, values) => {
    const swap = (text) => Object.entries(values).reduce((done, [key, value]) => done.replaceAll(String(marks[key]), String(value)), text);
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let at = /** @type {Node|null} */ (node); at; at = walker.nextNode()) {
      if (at.nodeType === Node.TEXT_NODE) at.nodeValue = swap(at.nodeValue || "");
      else for (const attr of /** @type {Element} */ (at).attributes) attr.value = swap(attr.value);
    }
    return node;
  };
  const table = /** @type {HTMLTemplateElement|null} */ (doc.querySelector("template[data-sheet-table]"));
  const chart = /** @type {HTMLTemplateElement|null} */ (doc.querySelector("template[data-sheet-chart]"));
  return { rows, cell, fill, table: () => /** @type {Element} */ (table.content.firstElementChild.cloneNode(true)),
    /** The chart's card as the server draws it for a stand-in chart (its target and a set deal are marks). */
    chart: () => (chart ? /** @type {Element} */ (chart.content.firstElementChild.cloneNode(true)) : null) };
}

/** The server's number cell of deal `number`. */
const numberCell = (parts, number) => parts.fill(parts.rows("row")[0].firstElementChild, { number });

/** A side's running total, as the server draws it. */
function running(parts, total) {
  const shown = parts.cell(total < 0 ? "negative" : "side-0-plain").querySelector(".running");
  return parts.fill(shown, { total: Math.abs(total) });
}

function drawRows(page, { file, sheet, track, base, names, parts }) {
  if (!parts) return;
  let body = page.querySelector(".match-sheet tbody");
  if (!body) body = newTable(page, parts);
  const server = new Map([...body.querySelectorAll("tr[id]")].map((row) => [row.id, row]));
  const lines = sheet.deals.flatMap((line, i) => {
    const { origin, entry } = track[i];
    const kept = origin !== null && base && sameLine(base.deals[origin], line) && server.get(`deal-${origin + 1}`);
    return kept ? reused(kept, line, parts) : drawn(line, file, names, parts, entry);
  });
  body.replaceChildren(...lines);
}

function newTable(page, parts) {
  const wrap = parts.table();
  wrap.setAttribute(PROJECTED, "");
  const empty = page.querySelector(".empty-sheet");
  if (empty) empty.replaceWith(wrap);
  else page.append(wrap);
  return wrap.querySelector("tbody");
}

// A server's row whose line is unchanged: renumbered (a deal before it may be deleted) with its running totals.
function reused(row, line, parts) {
  const copy = row.cloneNode(true);
  copy.id = `deal-${line.number}`;
  copy.classList.remove("row-changed");
  const number = copy.querySelector(".deal-number");
  if (number && number.querySelector("a")) number.replaceWith(numberCell(parts, line.number));
  copy.querySelectorAll(".running").forEach((shown, side) => { shown.replaceWith(running(parts, line.totals[side])); });
  const note = row.nextElementSibling;  // a match without an auction: the "after the end" line under the row
  return note && !note.id && note.classList.contains("after-end") ? [copy, note.cloneNode(true)] : [copy];
}

/** The key of a line's bid cell among the row parts. */
const bidKey = (line) => `bid-${line.status === "passed" ? "passed" : line.after_end ? "after" : line.status}`;

/** A side's cell of a line the twin worked out, from the server's cells. */
function sideCell(line, side, parts) {
  const setLook = ["set", "thrown_in"].includes(line.status) ? "bidder-set" : "bidder";
  const look = line.bidder === side ? setLook : "plain";
  const cell = parts.cell(`side-${side}-${look}${line.totals === null ? "-none" : ""}`);
  if (line.totals !== null) {
    const score = line.scores[side];
    cell.querySelector(".running").replaceWith(running(parts, line.totals[side]));
    if (score <= 0) cell.querySelector(".hand").replaceWith(parts.cell(score < 0 ? "negative" : "zero").querySelector(".hand"));
    if (line.as_entered.includes(side)) cell.querySelector(".hand").append(parts.cell("as-entered").querySelector(".mark"));
    for (const [lostSide, meld, reason] of line.lost_meld) {
      if (lostSide === side) cell.append(" ", parts.fill(parts.cell(`lost-${reason}`).querySelector(".lost-meld"), { meld }));
    }
  }
  return parts.fill(cell, { score: Math.abs(line.scores ? line.scores[side] : 0), bid: line.bid ?? "" });
}

// A line the twin worked out: a deal not sent yet, or one whose score moved with something not sent yet.
function drawn(line, file, names, parts, entry) {
  const auction = file.auction !== false;
  const deal = file.deals[line.number - 1];
  const [row, note] = parts.rows(line.after_end ? "row-after" : "row");
  row.replaceChildren(parts.fill(row, { number: line.number }).firstElementChild);  // its number cell
  row.setAttribute(PROJECTED, "");
  const mark = entry ? parts.cell("pending").firstElementChild : null;
  if (entry) row.classList.add("row-pending");
  if (entry && entry.kind === "add") row.querySelector(".deal-number a").href = `${entry.path}#fix=${encodeURIComponent(entry.key)}`;
  if (auction) {
    const cell = parts.fill(parts.cell(bidKey(line)), { bid: line.bid ?? "" });
    if (line.status !== "passed" && deal.forced) cell.append(" ", parts.cell("bid-forced").lastElementChild);
    if (line.status !== "passed" && deal.out) cell.append(" ", parts.cell("bid-out").lastElementChild);
    if (mark) cell.append(" ", mark);
    row.append(cell);
  } else if (mark) {
    row.firstElementChild.append(mark);
  }
  names.forEach((_, side) => row.append(sideCell(line, side, parts)));
  return note ? [row, parts.fill(note, { number: line.number })] : [row];
}

// The chart (sheet/chart.py and chart_svg.py): each side's running total after each deal.
const WIDTH = 360;
const HEIGHT = 200;
const LEFT = 40;
const RIGHT = 12;
const TOP = 14;
const BOTTOM = 24;
const PLOT_WIDTH = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
const MIN_LABEL_GAP = 14;
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

const tenths = (value) => Math.round(value * 10) / 10;

// The chart's words are those of the kit's chart card (none: the chart is left as it is).
function drawChart(page, sheet, names, target, pending, parts) {
  const card = parts && parts.chart();
  if (!card) return;
  const old = page.querySelector(".chart-card");
  const counted = sheet.deals.filter((line) => line.totals !== null);
  if (!counted.length) { if (old) old.remove(); return; }
  const setTitle = card.querySelector(".set-mark title");
  const setItem = card.querySelector(".legend > li:last-child");
  const rows = [names.map(() => 0), ...counted.map((line) => line.totals)];
  const values = rows.flat();
  const low = Math.min(0, ...values);
  const high = Math.max(target, ...values);
  const span = (high - low) || 1;
  const deals = sheet.deals.length;
  const x = (index) => tenths(LEFT + PLOT_WIDTH * index / Math.max(deals, 1));
  const y = (value) => tenths(TOP + PLOT_HEIGHT * (high - value) / span);
  const chart = svg("svg", { class: "chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-labelledby": "chart-title chart-desc" },
    parts.fill(card.querySelector("desc"), { total: target }));
  if (sheet.ended_at !== null && sheet.ended_at < deals) {
    chart.append(svg("rect", { class: "after-end-zone", x: x(sheet.ended_at), y: TOP, width: tenths(WIDTH - RIGHT - x(sheet.ended_at)),
      height: HEIGHT - BOTTOM - TOP }));
  }
  for (const value of [...new Set([low, 0])].sort((a, b) => a - b)) {
    if (value !== 0 && Math.abs(y(value) - y(0)) < MIN_LABEL_GAP) continue;
    chart.append(svg("line", { class: "axis", x1: LEFT, x2: WIDTH - RIGHT, y1: y(value), y2: y(value) }),
      svg("text", { class: "label", x: LEFT - 6, y: y(value) + 4, "text-anchor": "end" }, String(value)));
  }
  chart.append(svg("line", { class: "target", x1: LEFT, x2: WIDTH - RIGHT, y1: y(target), y2: y(target) }),
    svg("text", { class: "label", x: LEFT - 6, y: y(target) + 4, "text-anchor": "end" }, String(target)));
  const step = Math.max(1, Math.ceil(deals / 8));
  for (let n = step; n <= deals; n += step) {
    chart.append(svg("text", { class: "label", x: x(n), y: HEIGHT - 6, "text-anchor": "middle" }, String(n)));
  }
  // Each side's name just above its line's end, 12 apart from top to bottom (printed: sheet/chart.py's end labels).
  let below = -Infinity;
  const labelY = [];
  const end = rows.at(-1).map(y);
  names.map((_, side) => side).sort((a, b) => end[a] - end[b] || a - b).forEach((side) => {
    below = Math.max(tenths(end[side] - 6), tenths(below + 12));
    labelY[side] = below;
  });
  names.forEach((name, side) => {
    chart.append(svg("polyline", { class: `line series-${side % 4}`, points: rows.map((row, i) => `${x(i)},${y(row[side])}`).join(" ") }),
      svg("text", { class: `end-label series-${side % 4}`, x: x(rows.length - 1), y: labelY[side], "text-anchor": "end" }, name));
  });
  for (const line of counted) {
    if (line.status !== "set" || line.bidder === null) continue;
    chart.append(svg("circle", { class: `set-mark series-${line.bidder % 4}`, cx: x(line.number), cy: y(line.totals[line.bidder]), r: 5 },
      parts.fill(setTitle.cloneNode(true), { number: line.number })));
  }
  const legend = el("ul", { class: "legend" }, ...names.map((name, side) => el("li", { class: `series-${side % 4}` },
    el("span", { class: "legend-swatch" }), el("span", { class: "legend-name" }, name))),
  counted.some((line) => line.status === "set") ? setItem : null);
  card.setAttribute(PROJECTED, "");
  card.replaceChildren(card.querySelector("h2"), chart, legend,
    el("p", { class: "small muted" }, tell("sheet.pending_chart", { pending: pendingNote(pending) })));
  if (old) old.replaceWith(card);
  else page.querySelector(".match-sheet").after(card);
}
