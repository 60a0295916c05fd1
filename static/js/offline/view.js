// What the phone shows of its outbox: on the sheet, the entries not sent yet (worked into the sheet by
// the rules core's twin, from the server's last confirmed facts: sheet.js), refused entries with what to fix,
// conflicts with both versions, likely duplicates; on the match's other pages, a line that some wait.

import { tell } from "./words.js";
import * as sheetView from "./sheet.js";

export { nextDealer } from "../rules/rotation.js";
export { tell };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

/** The sides' names as the server's pages show them (the twin's shownSideName: "Ann & Bob" for a side still
 * called "We"), or as stored when the twin is not at hand. */
export const sideNames = (file, twin) => file.sides.map((side) => (twin ? twin.shownSideName(side) : side.name));

export const link = (href, text, attrs = {}) => el("a", { ...attrs, href }, text);

/** A deal's delete page as templates/deals/delete.html draws it, from a kept deal form (its token) served in
 * its place: what to put where the form was. */
export function deleteForm(kept, description, number, page) {
  const hidden = (name) => el("input", { type: "hidden", name, value: kept.querySelector(`input[name="${name}"]`).value });
  return [
    el("section", { class: "card" }, el("p", {}, description),
      el("p", { class: "muted" }, tell("deal_page.after_delete"))),
    el("form", { method: "post", class: "actions", "data-outbox": "delete", "data-outbox-deal": number }, hidden("csrf_token"), hidden("write_key"),
      hidden("version"), el("button", { type: "submit", class: "danger primary big", "data-submit-once": "Deleting…" },
        tell("deal_page.delete_button", { n: number }))),
    el("p", {}, link(`${page}/edit`, tell("deal_page.keep"), { class: "button quiet" })),
  ];
}

const choiceButton = (key, choice, text, kind = "quiet") =>
  el("button", { type: "button", class: `button ${kind}`, "data-outbox-choice": choice, "data-key": key }, text);

/** The twin's sheet from the confirmed facts with each entry applied in order (those it can apply).
 * `track`: for each deal of the file, the confirmed deal it is (`origin`, its index) or the entry that made
 * or changed it. */
export function project(facts, entries, twin, fields) {
  let file = structuredClone(facts.file);
  let track = file.deals.map((_, origin) => ({ origin, entry: null }));
  const rows = [];
  let unknown = false;  // after a rescale or an undo the twin does not work out, nothing more is
  for (const entry of entries) {
    const row = { entry, applied: false, number: entry.number, deal: null };
    rows.push(row);
    if (UNWORKED.includes(entry.kind) && !["refused", "editing"].includes(entry.state)) unknown = true;
    if (unknown || ["conflict", "refused", "editing"].includes(entry.state)) continue;
    const next = structuredClone(file);
    const nextTrack = [...track];
    try {
      applyEntry(next, nextTrack, entry, row, twin, fields);
      twin.scoreMatch(twin.matchFromJson(next, { stored: true }));
      file = next;
      track = nextTrack;
      row.applied = true;
    } catch { /* the server reads it when it is sent */ }
  }
  return { rows, file, track, unknown, sheet: twin.scoreMatch(twin.matchFromJson(file, { stored: true })) };
}

const UNWORKED = ["rescale", "undo"];

function applyEntry(file, track, entry, row, twin, fields) {
  const at = entry.number - 1;
  if (entry.kind === "rules") {
    file.rules = { ...file.rules, ...fields.rulesFromFields(entry.fields, twin.RULE_SPECS) };
    return;
  }
  if (entry.kind === "meld_prices") {
    file.rules = { ...file.rules, meld_prices: fields.meldPricesFromFields(entry.fields) };
    return;
  }
  if (entry.kind !== "add" && !file.deals[at]) throw new RangeError(`deal ${entry.number}`);  // worked out when sent
  if (entry.kind === "add" || entry.kind === "edit") {
    row.deal = fields.dealFromFields(entry.fields, file);
    if (!row.deal) throw new Error("unreadable");
    if (entry.kind === "add") {
      file.deals.push(row.deal);
      track.push({ origin: null, entry });
      row.number = file.deals.length;
    } else {
      if (file.deals[at].entered_under && !row.deal.entered_under) row.deal.entered_under = file.deals[at].entered_under;
      file.deals[at] = row.deal;
      track[at] = { origin: null, entry };
    }
  } else if (entry.kind === "delete") {
    row.deal = file.deals[at];
    file.deals.splice(at, 1);
    track.splice(at, 1);
  } else if (entry.kind === "throw_in") {
    const deal = file.deals[at];
    deal.thrown_in = true;
    deal.sides = deal.sides.map((side) => ("meld" in side ? { meld: side.meld } : "total" in side ? side : { meld: 0 }));
    row.deal = deal;
    track[at] = { origin: null, entry };
  }
}

// Without the twin at hand: the entries as a list, new deals numbered after the confirmed ones.
function unworked(entries, facts) {
  let count = facts ? facts.file.deals.length : null;
  return entries.map((entry) => {
    if (count !== null && entry.kind === "add" && entry.state !== "refused" && entry.state !== "editing") count += 1;
    else if (count !== null && entry.kind === "delete") count -= 1;
    return { entry, applied: false, number: entry.kind === "add" ? count : entry.number };
  });
}

function totalsText(names, totals) {
  return names.map((name, i) => `${name} ${totals[i]}`).join(" · ");
}

/** The outbox's words for a change it keeps (messages.py WORDS, `change.…`), `{n}` filled in with `n`. */
const word = (key, n = "") => tell(`change.${key}`, { n });

function entryTitle(row) {
  const { entry } = row;
  switch (entry.kind) {
    case "add":
      return row.number && !["refused", "editing"].includes(entry.state) ? word("new_numbered", row.number) : word("new");
    case "edit": case "delete": case "throw_in": return word(entry.kind, entry.number);
    case "rules": case "meld_prices": case "undo": return word(entry.kind);
    case "rescale": return word("rescale", new Map(entry.fields).get("factor") === "down" ? "÷10" : "×10");
    default: return word("other");
  }
}

function entryFacts(row, names, fields, file) {
  const { entry } = row;
  let deal = row.deal || (entry.kind === "delete" ? entry.base : null);
  if (!deal && file && (entry.kind === "add" || entry.kind === "edit")) deal = fields.dealFromFields(entry.fields, file);
  return deal && names.length ? `: ${fields.describeDeal(deal, names)}` : "";
}

function entryItem(row, names, fields, sheet, file) {
  const { entry } = row;
  const item = el("li", { class: "outbox-entry", "data-state": entry.state });
  const line = row.applied && row.number && sheet.deals[row.number - 1] && entry.kind !== "delete"
    ? sheet.deals[row.number - 1] : null;
  item.append(el("p", {}, el("strong", {}, entryTitle(row)), entryFacts(row, names, fields, file),
    line && line.totals ? el("span", { class: "muted" }, ` → ${totalsText(names, line.totals)}`) : null));
  if (entry.state === "refused") {
    item.append(el("p", { class: "field-error", role: "alert" }, tell("outbox.refused", { message: entry.message })),
      el("p", { class: "row" },
        CHANGEABLE.includes(entry.kind)
          ? fixLink(entry, tell("outbox.refused.fix")) : null,
        choiceButton(entry.key, "discard", tell("outbox.discard"))));
  } else if (entry.state === "conflict") {
    item.append(conflict(entry, names, fields, file));
  } else if (entry.state === "editing") {
    item.append(el("p", { class: "small muted" }, tell("outbox.editing")),
      el("p", { class: "row" }, fixLink(entry, tell("outbox.editing.go_on")), choiceButton(entry.key, "resume", tell("outbox.editing.send_as_it_was"))));
  } else {
    item.append(el("p", { class: "small muted" }, tell(row.applied ? "outbox.not_sent_yet" : "outbox.not_sent_yet.unchecked")),
      ...(CHANGEABLE.includes(entry.kind) ? [el("p", {}, fixLink(entry, tell("outbox.change"), "quiet"))] : []));
  }
  return item;
}

const CHANGEABLE = ["add", "edit", "rules", "meld_prices"];

function fixLink(entry, text, kind = "") {
  return el("a", { class: `button ${kind}`.trim(), href: `${entry.path}#fix=${encodeURIComponent(entry.key)}`,
    "data-outbox-fix": true }, text);
}

function conflict(entry, names, fields, file) {
  const mine = entry.kind === "delete" ? tell("outbox.conflict.delete_it")
    : entry.kind === "throw_in" ? word("thrown_in")
      : fields.describeDeal(file && fields.dealFromFields(entry.fields, file), names);
  const theirs = entry.theirs ? fields.describeDeal(entry.theirs, names) : tell("outbox.conflict.deleted");
  const gone = entry.theirs === null;
  return el("div", { class: "outbox-conflict" },
    el("p", {}, tell("outbox.conflict", { n: entry.number })),
    el("dl", { class: "compare" },
      el("dt", {}, tell("outbox.conflict.theirs")), el("dd", {}, theirs),
      el("dt", {}, tell("outbox.conflict.yours")), el("dd", {}, mine)),
    el("p", { class: "row" },
      choiceButton(entry.key, "theirs", tell("outbox.conflict.keep_theirs")),
      gone ? null : choiceButton(entry.key, "mine", tell(entry.kind === "delete" ? "outbox.conflict.delete_anyway" : "outbox.conflict.use_mine"), "primary")));
}

function duplicateItem(note) {
  return el("li", { class: "outbox-entry", "data-state": "duplicate" },
    el("p", {}, el("strong", {}, tell("outbox.duplicate", { n: note.number }))),
    el("p", { class: "small" }, tell("outbox.duplicate.same_facts", { of: note.of })),
    el("p", { class: "row" },
      choiceButton(note.key, "keep-both", tell("outbox.duplicate.keep_both")),
      choiceButton(note.key, "delete-mine", tell("outbox.duplicate.delete_mine", { n: note.number }), "danger")));
}

// An entry refused, in conflict or being changed holds back every entry after it (sync.js): nothing is sent then.
const HOLDS_BACK = ["conflict", "refused", "editing"];

function statusText(entries) {
  if (!navigator.onLine) return tell("outbox.status.offline");
  const held = entries.some((entry) => HOLDS_BACK.includes(entry.state))
    || !entries.some((entry) => entry.state === "pending" || entry.state === "in_flight");
  return tell(held ? "outbox.status.choose" : "outbox.status.sending");
}

/** Draw the outbox on the page (or take it away when nothing is kept); on the sheet, the sheet with the
 * entries not sent yet worked in. */
export function render({ config, entries, notes, facts, twin, rowKit, fields, onSheet, replacePage }) {
  document.querySelectorAll("[data-outbox-view]").forEach((old) => old.remove());
  const live = document.querySelector(".live-sheet");
  if (live) sheetView.restore(live);
  if (!entries.length && !notes.length) return;
  const main = document.querySelector("main") || document.body;
  if (!onSheet && !replacePage) {
    main.prepend(el("p", { class: "notice", "data-outbox-view": true, role: "status" },
      `${entries.length === 1 ? tell("outbox.kept.one") : tell("outbox.kept", { n: entries.length })} `,
      el("a", { href: config.sheet }, tell("outbox.see_them"))));
    return;
  }
  const names = facts ? sideNames(facts.file, twin) : [];
  let projected = null;
  if (twin && facts) {
    try { projected = project(facts, entries, twin, fields); } catch { projected = null; }
  }
  const rows = projected ? projected.rows : unworked(entries, facts);
  const section = el("section", { class: "card outbox", "data-outbox-view": true, "aria-labelledby": "outbox-title" },
    el("h2", { id: "outbox-title" }, tell(entries.length ? "outbox.not_sent_yet" : "outbox.check_these")),
    entries.length ? el("p", { class: "small muted", "data-outbox-status": true },
      statusText(entries)) : null,
    projected && projected.unknown && entries.length ? el("p", { class: "small muted", "data-outbox-totals": true },
      tell("outbox.totals_unknown")) : null,
    projected && !projected.unknown && entries.length ? el("p", { class: "outbox-totals", "data-outbox-totals": true },
      el("strong", {}, `${tell("outbox.with_them")} `), totalsText(names, projected.sheet.totals),
      projected.sheet.winner !== null ? ` · ${tell("outbox.winner", { name: names[projected.sheet.winner] })}` : "") : null,
    el("ol", { class: "stack outbox-list" },
      rows.map((row) => entryItem(row, names, fields, projected ? projected.sheet : { deals: [] }, facts && facts.file)),
      notes.map(duplicateItem)),
    replacePage ? el("p", {}, el("a", { class: "button", href: config.sheet }, word("sheet"))) : null);
  if (replacePage) {
    main.replaceChildren(section);
    return;
  }
  const pending = projected && !projected.unknown ? projected.rows.filter((row) => row.applied).length : 0;
  if (live && pending) {
    let base = null;
    try { base = twin.scoreMatch(twin.matchFromJson(facts.file, { stored: true })); } catch { /* contradicted: all drawn anew */ }
    sheetView.draw(live, { projected, base, rowKit, pending, names });
  }
  // Worked into the sheet and waiting for nothing but the network, the entries come after it: the totals stay at
  // the top of the screen. What the player must look at (refused, in conflict, a likely duplicate) comes first.
  const waiting = !notes.length && entries.every((entry) => ["pending", "in_flight"].includes(entry.state));
  if (live && pending && waiting) live.after(section);
  else if (live) live.before(section);
  else main.prepend(section);
}
