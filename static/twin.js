// The rules core's twin as one file: everything static/js/rules/index.js exports. assets.py sends it
// bundled (one request); a page script that needs only part of the twin imports that part itself.
export * from "./js/rules/index.js";
