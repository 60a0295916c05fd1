// The outbox as one file: static/js/offline/main.js and the modules it imports. assets.py sends it bundled
// (one request); app.js loads it on a match's pages when it may be needed.
export * from "./js/offline/main.js";
