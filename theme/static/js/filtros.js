// Filters of /linhas/ (UF, âmbito, category, carrier), their state in the address (?uf=SP&ambito=...):
// the rows come from /linhas/uf/<uf>/linhas.json (pipeline/site/indexes.py). Values are set as text only.
(function () {
  "use strict";
  var MAX_ROWS = 500;

  var el = window.portal.el;

  window.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-filtros-linhas]");
    var out = document.getElementById("resultado-filtros");
    if (!form || !out || !window.fetch) { return; }
    var base = window.portal.base(form);
    var names = ["uf", "ambito", "categoria", "transportadora"];
    var fields = JSON.parse(form.getAttribute("data-linhas-campos") || "[]");

    function show(state) {
      out.textContent = "";
      var option = form.elements.uf.querySelector('option[value="' + CSS.escape(state.uf) + '"]');
      if (!option || !state.uf) { return; }
      fetch(base + option.getAttribute("data-url") + "linhas.json").then(function (resp) {
        if (!resp.ok) { throw new Error(resp.status); }
        return resp.json();
      }).then(function (cells) {
        // each row's cells named by the form's data-linhas-campos (pipeline/site/indexes.py LINE_FIELDS)
        var rows = cells.map(function (r) {
          var line = {};
          fields.forEach(function (name, i) { line[name] = r[i]; });
          return line;
        });
        var categories = Array.prototype.map.call(form.elements.categoria.options, function (o) { return o.value; }).slice(1);
        var scopes = {};
        Array.prototype.forEach.call(form.elements.ambito.options, function (o) { scopes[o.value] = o.textContent; });
        var wanted = categories.indexOf(state.categoria);
        var hits = rows.filter(function (r) {
          return (!state.ambito || r.ambito === state.ambito) && (!state.categoria || r.categorias.indexOf(wanted) >= 0) &&
            (!state.transportadora || r.transportadoras.indexOf(state.transportadora) >= 0);
        });
        var total = window.portal.numero(hits.length);
        out.appendChild(el("p", hits.length > MAX_ROWS
          ? total + " linhas; mostrando as " + MAX_ROWS + " primeiras: refine os filtros."
          : total + (hits.length === 1 ? " linha encontrada." : " linhas encontradas."), { role: "status" }));
        if (!hits.length) { return; }
        var table = el("table", null, { "class": "indice" });
        table.appendChild(el("caption", "Linhas filtradas"));
        var head = el("tr");
        ["Prefixo", "Ligação", "Âmbito", "Transportadoras"].forEach(function (h) { head.appendChild(el("th", h, { scope: "col" })); });
        table.appendChild(el("thead")).appendChild(head);
        var body = table.appendChild(el("tbody"));
        hits.slice(0, MAX_ROWS).forEach(function (r) {
          var tr = body.appendChild(el("tr"));
          tr.appendChild(el("th", null, { scope: "row" })).appendChild(el("a", r.prefixo, { href: r.url }));
          tr.appendChild(el("td", r.ligacao));
          tr.appendChild(el("td", scopes[r.ambito] || r.ambito));
          tr.appendChild(el("td", window.portal.numero(r.transportadoras.length)));
        });
        out.appendChild(table);
      }).catch(function (err) {
        out.appendChild(el("p", "Não foi possível carregar as linhas (" + err.message + ")."));
      });
    }

    function state() {
      var s = {};
      names.forEach(function (n) { s[n] = form.elements[n].value; });
      return s;
    }

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var s = state(), url = new URL(window.location.href);
      names.forEach(function (n) { if (s[n]) { url.searchParams.set(n, s[n]); } else { url.searchParams.delete(n); } });
      window.history.replaceState(null, "", url.toString());
      show(s);
    });
    var params = new URLSearchParams(window.location.search);
    names.forEach(function (n) { if (params.get(n)) { form.elements[n].value = params.get(n); } });
    if (params.get("uf")) { show(state()); }
  });
}());
