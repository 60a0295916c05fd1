// The live score sheet: while the sheet is on screen, ask every few seconds whether the match changed
// (the server answers 304, with nothing, while it has not) and swap in the new totals and rows, marking
// the ones that changed. Without this script the sheet is the same page, brought up to date by a reload.
"use strict";

const LIVE_EVERY_MS = 1500;
const LIVE_LONGEST_WAIT_MS = 30000;

function bareTag(header) {
  const found = /"([^"]*)"/.exec(header || "");
  return found ? found[1] : null;
}

function clockTime(date) {
  return date.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// Put the new live part in place of the old one; mark the rows and totals whose text changed.
function swapLivePart(region, html) {
  const before = new Map();
  region.querySelectorAll("tr[id]").forEach((row) => before.set(row.id, row.textContent));
  const totalsBefore = [...region.querySelectorAll(".total")].map((total) => total.textContent);
  const incoming = document.createElement("template");
  incoming.innerHTML = html;
  incoming.content.querySelectorAll("tr[id]").forEach((row) => {
    if (before.get(row.id) !== row.textContent) row.classList.add("row-changed");
  });
  incoming.content.querySelectorAll(".total").forEach((total, index) => {
    if (totalsBefore[index] !== total.textContent) total.classList.add("row-changed");
  });
  region.replaceChildren(incoming.content);
}

function followSheet(region) {
  const status = document.querySelector("[data-live-status]");
  let etag = region.dataset.etag;
  let timer = null;
  let failures = 0;
  let heardAt = new Date();

  const say = (text, warning) => {
    if (!status) return;
    status.hidden = false;
    status.textContent = text;
    status.classList.toggle("notice-warning", warning);
  };
  const schedule = (delay) => {
    clearTimeout(timer);
    timer = setTimeout(look, delay);
  };

  async function look() {
    if (document.visibilityState !== "visible") return;  // looked at again when the page shows
    try {
      const answer = await fetch(region.dataset.liveUrl, {
        headers: { "If-None-Match": `W/"${etag}"` },
        cache: "no-store",
        credentials: "same-origin",
      });
      if (answer.status === 404) {
        say("This match is no longer on the server.", true);
        return;  // nothing more to follow
      }
      if (answer.status === 200) {
        swapLivePart(region, await answer.text());
        etag = bareTag(answer.headers.get("ETag")) ?? etag;
      } else if (answer.status !== 304) {
        throw new Error(`status ${answer.status}`);
      }
      failures = 0;
      heardAt = new Date();
      say(`Live: up to date at ${clockTime(heardAt)}`, false);
    } catch {
      failures += 1;
      say(`No connection since ${clockTime(heardAt)}: the sheet may be out of date. It catches up by itself.`, true);
    }
    schedule(Math.min(LIVE_EVERY_MS * 2 ** failures, LIVE_LONGEST_WAIT_MS));
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") schedule(0);
  });
  window.addEventListener("online", () => schedule(0));
  schedule(LIVE_EVERY_MS);
}

document.querySelectorAll(".live-sheet[data-live-url]").forEach(followSheet);
