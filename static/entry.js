// The score sheet's deal entry panel as one file: static/js/entry/panel.js and what it imports. assets.py sends
// it bundled; phone.js loads it on the first tap of "+ Add deal" or a deal's number.
export * from "./js/entry/panel.js";
