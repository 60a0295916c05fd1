// The second tap of a double tap. A tap that opens or closes a panel or a dialog (the sheet's entry panel, the
// meld's card faces) changes what is under the finger, and the second tap of a double tap would then land on a
// control that was not there when the player aimed (a −10, "Save deal", a bidder). Such a tap is dropped (its
// click, and the focus it would give): one whose press began before the change (its click comes after it), or
// one within SECOND_TAP_MS of the change and a finger's width of the press that made it. The times are the events' own (when the finger
// touched, not when the busy page got to it), so a second tap queued behind the opening is told apart too. A
// deliberate tap elsewhere, any later one and the keys are taken at once.
// app.js keeps the last press (window.lastPress) from the page's start: the tap that loaded this module counts.

const SECOND_TAP_MS = 500;
const SECOND_TAP_REACH = 40;  // px, about a finger pad: a double tap's second touch lands this near the first

/** Drops the second tap of a double tap that opened or closed a dialog, on this page, from now on (once). */
export function guardSecondTaps() {
  if (window.secondTapsGuarded) return;
  window.secondTapsGuarded = true;
  let keyAt = -Infinity;
  let change = null;  // the last dialog opened or closed, and the press that did it
  addEventListener("keydown", (event) => { keyAt = event.timeStamp; }, { capture: true, passive: true });
  new MutationObserver((records) => {
    if (!records.some((record) => /** @type {Element} */ (record.target).localName === "dialog")) return;
    const press = window.lastPress;
    change = { at: performance.now(), by: press && press.timeStamp > keyAt ? press : null };
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["open"], subtree: true });
  const stray = (press) => {
    if (!change || !press) return false;
    if (press.timeStamp < change.at) return true;  // aimed at what was there before
    const { by } = change;
    return Boolean(by) && by !== press && press.timeStamp - change.at < SECOND_TAP_MS
      && Math.hypot(press.clientX - by.clientX, press.clientY - by.clientY) < SECOND_TAP_REACH;
  };
  const drop = (event) => {
    if (event.detail === 0 || !stray(window.lastPress)) return;  // detail 0: a key's click, or a script's
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  addEventListener("mousedown", drop, true);
  addEventListener("click", drop, true);
}
