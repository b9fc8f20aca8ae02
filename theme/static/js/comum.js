// What the portal's scripts share (loaded before each of them): window.portal.el builds an element whose
// text is set as text, never parsed as HTML; window.portal.fold folds a name as the build does;
// window.portal.base gives the sub-path the site is served
// under, from a form's action (/portal/busca/ -> /portal), which the build rewrites with the site.
(function () {
  "use strict";
  window.portal = {
    el: function (tag, text, attrs) {
      var node = document.createElement(tag);
      if (text !== undefined && text !== null) { node.textContent = String(text); }
      Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
      return node;
    },
    // as pipeline/places fold(): accents, case and punctuation dropped ("São Paulo" -> "SAO PAULO")
    fold: function (text) {
      return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toUpperCase()
        .replace(/[^A-Z0-9]+/g, " ").trim();
    },
    base: function (form) {
      return (form.getAttribute("action") || "/").replace(/\/[^\/]*\/$/, "");
    }
  };
}());
