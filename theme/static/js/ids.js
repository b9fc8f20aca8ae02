// Identifiers as typed (12014000, 04.192.453/0001-18, out-000054) -> the record, from
// /busca/ids/<first two characters>.json (pipeline/site/identifiers.py; key() here is the same rule).
// The search page (busca.js) and the 404 page call window.portalIds(typed, base).
(function () {
  "use strict";
  function key(typed) { return window.portal.foldName(typed).replace(/ /g, ""); }
  window.portalIds = function (typed, base) {
    var k = key(typed);
    if (k.length < 4 || !/[0-9]/.test(k)) { return Promise.resolve(null); }
    return fetch((base || "") + "/busca/ids/" + k.slice(0, 2) + ".json").then(function (resp) {
      return resp.ok ? resp.json() : {};
    }).then(function (found) { return found[k] || null; }).catch(function () { return null; });
  };
}());
