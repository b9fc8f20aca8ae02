// What the portal's scripts share (loaded before each of them): window.portal.el builds an element whose
// text is set as text, never parsed as HTML; window.portal.foldName folds a name as the build does;
// window.portal.base gives the sub-path the site is served under, from a form's action (/portal/busca/ ->
// /portal), which the build rewrites with the site; numero, reais and data write a number, an amount and a
// date as pipeline/contract/spelling.py does (its exemplos-formatos.json is run through both by the tests).
(function () {
  "use strict";
  var EMPTY = "\u2014";
  // 60250n with scale 5 and minPlaces 2 -> "0,6025": thousands grouped by dots, a decimal comma, trailing
  // zeros dropped down to minPlaces
  function decimal(units, scale, minPlaces) {
    var negative = units < BigInt(0), s = (negative ? -units : units).toString();
    while (s.length <= scale) { s = "0" + s; }
    var whole = s.slice(0, s.length - scale), fraction = s.slice(s.length - scale).replace(/0+$/, "");
    while (fraction.length < minPlaces) { fraction += "0"; }
    whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
    return (negative ? "-" : "") + (fraction ? whole + "," + fraction : whole);
  }
  // a number rounded to `places` decimals, half up from its shortest decimal spelling (2.675 -> 268n), as
  // Python's Decimal(repr(x)).quantize(ROUND_HALF_UP); null when it is no number
  function units(value, places) {
    if (value === null || value === undefined || value === "" || typeof value === "boolean") { return null; }
    var n = Number(value);
    if (!isFinite(n)) { return null; }
    var s = String(Math.abs(n));
    if (/e/.test(s)) { s = Math.abs(n).toFixed(Math.min(100, places + 20)); }
    var parts = s.split("."), fraction = parts[1] || "";
    var kept = (fraction + "0".repeat(places)).slice(0, places);
    var u = BigInt(parts[0] + kept) + (fraction.length > places && fraction.charAt(places) >= "5" ? BigInt(1) : BigInt(0));
    return n < 0 ? -u : u;
  }
  function numero(value, places) {
    places = places || 0;
    var u = units(value, places);
    return u === null ? EMPTY : decimal(u, places, places);
  }
  window.portal = {
    decimal: decimal,
    numero: numero,
    // 1234.5 -> "R$ 1.234,50"
    reais: function (value, places) {
      var text = numero(value, places === undefined ? 2 : places);
      return text === EMPTY ? text : "R$ " + text;
    },
    // "2026-03-06" -> "06/03/2026"; "2026-03-06T14:05:00-03:00" -> "06/03/2026 14:05"
    data: function (value) {
      var text = typeof value === "string" ? value : "";
      if (!/^\d{4}-\d{2}-\d{2}/.test(text)) { return EMPTY; }
      var spelled = text.slice(8, 10) + "/" + text.slice(5, 7) + "/" + text.slice(0, 4);
      return spelled + (text.length >= 16 && (text.charAt(10) === "T" || text.charAt(10) === " ") ? " " + text.slice(11, 16) : "");
    },
    el: function (tag, text, attrs) {
      var node = document.createElement(tag);
      if (text !== undefined && text !== null) { node.textContent = String(text); }
      Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
      return node;
    },
    // as pipeline/places fold_name(): accents, case and punctuation dropped ("São Paulo" -> "SAO PAULO")
    foldName: function (text) {
      return (text || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toUpperCase()
        .replace(/[^A-Z0-9]+/g, " ").trim();
    },
    base: function (form) {
      return (form.getAttribute("action") || "/").replace(/\/[^\/]*\/$/, "");
    }
  };
}());
