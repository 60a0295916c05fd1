// Sending the outbox: the match's facts first (with a fresh form token, and which keys the server has
// already done), then each entry in order, each with its own key, so that a retry is never a second
// write. An entry the player must look at (refused, or changed on another phone) holds back the ones
// after it; a network error or a server error leaves everything for the next try.

const TIMEOUT_MS = 15000;

export class Offline extends Error {}

async function call(url, options = {}) {
  let response;
  try {
    response = await fetch(url, { cache: "no-store", credentials: "same-origin", signal: AbortSignal.timeout(TIMEOUT_MS),
      ...options, headers: { Accept: "application/json", ...(options.headers || {}) } });
  } catch {
    throw new Offline(url);  // no network
  }
  let body = null;
  try { body = await response.json(); } catch { /* not JSON: a proxy's page, an error page */ }
  return { status: response.status, body };
}

/** The match as the server has it now; stores it as the last confirmed facts. */
export async function fetchFacts(ctx, keys = []) {
  const answer = await call(`${ctx.config.api}?keys=${encodeURIComponent(keys.join(","))}`);
  if (answer.status !== 200 || !answer.body) throw new Offline(`answer ${answer.status}`);
  ctx.token = answer.body.csrf_token;
  await ctx.db.putFacts(ctx.config.match, answer.body.version, answer.body.match);
  return answer.body;
}

/** Send a kept form to its own address, as its page would, asking for JSON (views/replay.py): with the
 * version the player chose to apply it on, when they did. */
function post(ctx, entry) {
  const chosen = entry.useVersion !== undefined;
  const fields = entry.fields.filter(([name]) => !chosen || name !== "version");
  if (chosen) fields.push(["version", String(entry.useVersion)]);
  return call(entry.path, {
    method: "POST", body: new URLSearchParams(fields),
    headers: { "X-CSRFToken": ctx.token || "", "Idempotency-Key": entry.key },
  });
}

/** Send what is kept for the match. Returns how many entries went, and whether some wait for the player. */
export async function syncMatch(ctx) {
  const { db, fields } = ctx;
  const match = ctx.config.match;
  let entries = await db.entriesOf(match);
  const facts = await fetchFacts(ctx, entries.map((entry) => entry.key));
  const done = new Set(facts.done);
  let sent = 0;
  for (const entry of entries.filter((each) => done.has(each.key))) {
    ctx.markDone(entry.key);
    await db.removeEntry(entry);  // the form reached the server before (its answer may have been lost)
    if (entry.state !== "in_flight") sent += 1;  // a form sent from its page: the page after it showed it
  }
  entries = entries.filter((each) => !done.has(each.key));
  const mine = new Set();  // deals this phone added in this run
  for (const entry of entries) {
    if (["conflict", "refused", "editing"].includes(entry.state)) return { sent, waiting: true };
    let answer = await post(ctx, entry);
    if (answer.status === 400) {
      await fetchFacts(ctx);  // the form token expired: a fresh one, once
      answer = await post(ctx, entry);
    }
    const stale = answer.status === 409 && answer.body && answer.body.error && answer.body.error.code === "stale";
    if ((stale || answer.status === 404) && entry.base !== undefined && entry.number !== null) {
      // The match moved on since the entry was made (its deal gone from its number: a deal before it deleted).
      const now = stale ? answer.body : await fetchFacts(ctx);
      const at = stale && fields.sameDeal(now.theirs, entry.base) ? entry.number : movedTo(now.match, entry, fields);
      if (at !== null) {  // but not this deal: apply on the match as it is, where the deal now is
        Object.assign(entry, { useVersion: now.version, number: at,
          path: entry.path.replace(/\/deals\/\d+\//, `/deals/${at}/`) });
        answer = await post(ctx, entry);
      }
    }
    const body = answer.body || {};
    if (answer.status === 200 || answer.status === 201) {
      await db.putFacts(match, body.version, body.match);
      if (entry.kind === "add" && body.number) {
        mine.add(body.number);
        await flagDuplicate(ctx, entry, body, mine);
      }
      ctx.markDone(entry.key);
      await db.removeEntry(entry);
      sent += 1;
      continue;
    }
    if (answer.status === 409 && body.error && body.error.code === "stale") {
      Object.assign(entry, { state: "conflict", message: body.error.message, theirs: body.theirs ?? null,
        theirVersion: body.version });
      await db.putFacts(match, body.version, body.match);
      await db.putEntry(entry);
      return { sent, waiting: true };
    }
    if ([400, 403, 404, 409, 422].includes(answer.status) && body.error) {  // 409: a closed table, kept refused
      Object.assign(entry, { state: "refused", message: body.error.message });
      await db.putEntry(entry);
      return { sent, waiting: true };
    }
    throw new Offline(`answer ${answer.status}`);  // a server error: tried again later
  }
  return { sent, waiting: false };
}

// The number the deal an entry changes now has, when a deal before it was deleted or put back since (the match has
// fewer or more deals than when the entry was made): the one deal of the match as it now is with the facts the
// player saw (`base`); null when none or several have them, or no deal came or went.
function movedTo(match, entry, fields) {
  if (!match || entry.baseCount === undefined || match.deals.length === entry.baseCount) return null;
  const found = match.deals.flatMap((deal, at) => (fields.sameDeal(deal, entry.base) ? [at + 1] : []));
  return found.length === 1 ? found[0] : null;
}

// An added deal with the same facts as one another phone added since this phone last heard from the server.
async function flagDuplicate(ctx, entry, body, mine) {
  const deals = body.match.deals;
  const added = deals[body.number - 1];
  for (let number = (entry.baseCount ?? deals.length) + 1; number < body.number; number++) {
    if (!mine.has(number) && ctx.fields.sameDeal(deals[number - 1], added)) {
      await ctx.db.putNote({ key: `duplicate:${entry.key}`, match: entry.match, kind: "duplicate",
        number: body.number, of: number, deal: added });
      return;
    }
  }
}
