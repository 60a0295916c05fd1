// What scorekeeper/views/installable.py puts in front of static/sw.js when it serves it.

declare const SETTINGS: {
  /** One digest of every static file: names this release's cache. */
  release: string;
  /** The page shown for a navigation with neither network nor a kept copy. */
  offlinePage: string;
  /** Kept when the worker is installed: the offline page and what it links, the outbox and the twin. */
  keepFirst: string[];
  /** The scripts a sheet loads only when asked, kept with its kit. */
  kitScripts: string[];
};
