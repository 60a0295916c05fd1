// What a phone can do beyond the page: share a link, keep the screen on, show times in its own zone.
// Every page works without this file: the links can be copied by hand, times read in UTC.
"use strict";

// Share: the phone's share sheet where it has one, else copy the link, with a word that it worked.
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // A phone on the table's Wi-Fi reaches the app over plain http, where the clipboard API is missing.
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.className = "visually-hidden";
  document.body.append(field);
  field.select();
  const copied = document.execCommand("copy");
  field.remove();
  if (!copied) throw new Error("copy refused");
}

function setUpShare(box) {
  const button = box.querySelector("[data-share-url]");
  const done = box.querySelector("[data-share-done]");
  const url = new URL(button.dataset.shareUrl, location.href).href;
  const canShare = typeof navigator.share === "function";
  if (!canShare) button.textContent = button.textContent.replace(/^Share/, "Copy");
  const say = (text) => { done.textContent = text; };
  const copy = () => copyText(url).then(() => say("Copied"), () => say("Could not copy: press on the link above"));
  button.addEventListener("click", () => {
    say("");
    if (!canShare) { copy(); return; }
    navigator.share({ title: button.dataset.shareTitle, url }).then(
      () => say("Shared"),
      (error) => { if (error.name !== "AbortError") copy(); },
    );
  });
  box.hidden = false;
}

// Keep the screen on during a match: a Wake Lock while the box is ticked, taken again when the
// phone comes back to the page (the browser lets it go whenever the page is hidden).
const KEEP_AWAKE = "keep-screen-on";

function setUpWakeLock(box) {
  if (!("wakeLock" in navigator)) return;  // stays hidden
  const toggle = box.querySelector("[data-wake-lock-toggle]");
  let lock = null;
  const take = async () => {
    if (lock || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      box.dataset.locked = "true";
      lock.addEventListener("release", () => { lock = null; box.dataset.locked = "false"; });
    } catch {
      toggle.checked = false;  // refused (battery saver): the box says what is true
    }
  };
  toggle.addEventListener("change", () => {
    try { localStorage.setItem(KEEP_AWAKE, toggle.checked ? "1" : "0"); } catch { /* private mode */ }
    if (toggle.checked) take();
    else if (lock) lock.release();
  });
  document.addEventListener("visibilitychange", () => { if (toggle.checked) take(); });
  let wanted = false;
  try { wanted = localStorage.getItem(KEEP_AWAKE) === "1"; } catch { /* private mode */ }
  toggle.checked = wanted;
  if (wanted) take();
  box.hidden = false;
}

// Local time: a <time> written in UTC by the server is shown in the phone's zone.
function showLocalTime(element) {
  const moment = new Date(element.dateTime);
  if (Number.isNaN(moment.getTime())) return;
  element.textContent = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(moment);
  element.title = `${element.dateTime.replace("T", " ").replace("Z", "")} UTC`;
}

// New match: the phone's date names a match left without a name.
function fillLocalDate(field) {
  const now = new Date();
  const pad = (value) => String(value).padStart(2, "0");
  field.value = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

document.querySelectorAll("[data-share]").forEach(setUpShare);
document.querySelectorAll("[data-wake-lock]").forEach(setUpWakeLock);
document.querySelectorAll("time[data-local-time]").forEach(showLocalTime);
document.querySelectorAll("input[data-local-date]").forEach(fillLocalDate);
