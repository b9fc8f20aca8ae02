// Pagefind's search UI, in Portuguese, reading ?q= from the address (the home page's form sends it).
window.addEventListener("DOMContentLoaded", function () {
  if (typeof PagefindUI === "undefined") { return; }
  var ui = new PagefindUI({ element: "#busca", showSubResults: true, showImages: false,
    translations: { placeholder: "Buscar linha, cidade, transportadora ou ato" } });
  var input = document.querySelector("#busca input");
  if (input) { input.setAttribute("aria-label", "Buscar no portal"); }
  var q = new URLSearchParams(window.location.search).get("q");
  if (q) { ui.triggerSearch(q); }
});
