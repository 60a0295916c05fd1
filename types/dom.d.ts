// Our scripts look up the elements of our own HTML pages: a selector that names no tag finds an HTMLElement
// (the DOM library's default, Element, would have every page script cast what it finds). A tag's name still
// finds that tag's element ("select": HTMLSelectElement).

interface ParentNode {
  querySelector<K extends keyof HTMLElementTagNameMap>(selectors: K): HTMLElementTagNameMap[K] | null;
  querySelector<E extends Element = HTMLElement>(selectors: string): E | null;
  querySelectorAll<K extends keyof HTMLElementTagNameMap>(selectors: K): NodeListOf<HTMLElementTagNameMap[K]>;
  querySelectorAll<E extends Element = HTMLElement>(selectors: string): NodeListOf<E>;
}

interface Element {
  closest<K extends keyof HTMLElementTagNameMap>(selectors: K): HTMLElementTagNameMap[K] | null;
  closest<E extends Element = HTMLElement>(selectors: string): E | null;
}

interface HTMLFormControlsCollection {
  /** A field of our own form by its name (`form.elements.deck`): an input, a select or a radio group. */
  [name: string]: any;
}
