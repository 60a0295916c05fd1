// What the classic page scripts leave on `window` for the modules (their top-level functions are globals there).

interface Window {
  /** The last pointer press on the page (app.js); static/js/second_tap.js tells a double tap's second tap by it. */
  lastPress?: PointerEvent;
  /** Set once static/js/second_tap.js guards the page. */
  secondTapsGuarded?: boolean;
  /** Puts the sheet's new live part (of entity tag `tag`) and its tag in place, unless it is older than the part
   * shown: false (phone.js). */
  swapLivePart?: (region: HTMLElement, html: string, tag?: string | null) => boolean;
  /** Gives a deal form its steppers and totals (app.js). */
  enhanceDealForm?: (form: Element) => void;
  /** Scrolls to and marks the row just changed (app.js). */
  showChangedRow?: () => void;
}

interface DocumentEventMap {
  /** A deal form put on screen (a page's or the entry panel's), for the scripts that enhance it. */
  "deal-form:ready": CustomEvent<{ form: HTMLFormElement }>;
}
