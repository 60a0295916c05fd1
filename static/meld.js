// Meld calculator: tapping a card adds a copy (wrapping to none after the last copy) and the result
// is redrawn at once. Without this script the page works as a plain form.
(function () {
  "use strict";
  var busy = null;

  function form() { return document.querySelector("[data-meld-form]"); }

  function recount(f) {
    if (busy) { busy.abort(); }
    busy = new AbortController();
    fetch(f.action, { method: "POST", body: new FormData(f), signal: busy.signal })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("meld-calculator");
        var current = document.getElementById("meld-calculator");
        if (fresh && current) { current.replaceWith(fresh); }
      })
      .catch(function (error) { if (error.name !== "AbortError") { f.submit(); } });
  }

  document.addEventListener("click", function (event) {
    var face = event.target.closest("[data-card] .card-face");
    if (!face) { return; }
    event.preventDefault();
    var select = face.closest("[data-card]").querySelector("select");
    select.selectedIndex = (select.selectedIndex + 1) % select.options.length;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });

  document.addEventListener("change", function (event) {
    var f = form();
    if (f && f.contains(event.target)) { recount(f); }
  });

  document.addEventListener("submit", function (event) {
    if (event.target === form()) { event.preventDefault(); recount(event.target); }
  });
})();
