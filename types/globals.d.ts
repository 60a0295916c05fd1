// What the classic page scripts leave on `window` for the modules (their top-level functions are globals there).

interface Window {
  /** The last pointer press on the page (app.js); static/js/second_tap.js tells a double tap's second tap by it. */
  lastPress?: PointerEvent;
  /** Set once static/js/second_tap.js guards the page. */
  secondTapsGuarded?: boolean;
  /** Puts the sheet's new live part in place (phone.js). */
  swapLivePart?: (region: Element, html: string) => void;
  /** Gives a deal form its steppers and totals (app.js). */
  enhanceDealForm?: (form: Element) => void;
  /** Scrolls to and marks the row just changed (app.js). */
  showChangedRow?: () => void;
}

interface DocumentEventMap {
  /** A deal form put on screen (a page's or the entry panel's), for the scripts that enhance it. */
  "deal-form:ready": CustomEvent<{ form: HTMLFormElement }>;
}
