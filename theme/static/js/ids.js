// Identifiers as typed (12014000, 04.192.453/0001-18, out-000054) -> the record, from
// /busca/ids/<first two characters>.json (pipeline/site/identifiers.py; key() here is the same rule).
(function () {
  "use strict";
  function key(typed) {
    return (typed || "").normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toUpperCase().replace(/[^A-Z0-9]+/g, "");
  }
  window.portalIds = function (typed, base) {
    var k = key(typed);
    if (k.length < 4 || !/[0-9]/.test(k)) { return Promise.resolve(null); }
    return fetch((base || "") + "/busca/ids/" + k.slice(0, 2) + ".json").then(function (resp) {
      return resp.ok ? resp.json() : {};
    }).then(function (found) { return found[k] || null; }).catch(function () { return null; });
  };
  window.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-ids]");
    if (!box) { return; }
    // the site may live under a sub-path: a hidden form's action (/busca/, rewritten with the site) says which
    var form = document.querySelector("form[data-base-of-ids]");
    var base = form ? form.getAttribute("action").replace(/\/busca\/$/, "") : "";
    var q = new URLSearchParams(window.location.search).get("q");
    if (!q) { return; }
    window.portalIds(q, base).then(function (hit) {
      if (!hit) { return; }
      var p = document.createElement("p"), a = document.createElement("a");
      p.className = "registro-exato";
      p.appendChild(document.createTextNode("Registro com este identificador: "));
      a.href = base + hit[0]; a.textContent = hit[1];
      p.appendChild(a);
      box.appendChild(p);
    });
  });
}());
