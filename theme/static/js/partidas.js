// Filters of a pair's departures, by weekday and by service class: the table of the pair's page
// (theme/templates/_rota.html) and the one rotas.js render() builds from the pair's JSON. Each row says
// what it runs on: data-dias, a 0 or 1 per weekday (Monday first), and data-categoria, the class's label.
// The filters only hide rows; without JavaScript there are no filters and every row shows.
(function () {
  "use strict";
  var DIAS = ["Segunda-feira", "Terça-feira", "Quarta-feira", "Quinta-feira", "Sexta-feira", "Sábado", "Domingo"];

  var el = window.portal.el;

  function count(n) {
    return window.portal.numero(n) + (n === 1 ? " partida" : " partidas");
  }

  // <label>Dia da semana <select>…</select></label>: the label holds its control, so no id is needed
  function choice(label, first, options) {
    var wrap = el("label", null, { "class": "filtro" });
    wrap.appendChild(el("span", label));
    var select = wrap.appendChild(el("select"));
    select.appendChild(el("option", first, { value: "" }));
    options.forEach(function (o) { select.appendChild(el("option", o[1], { value: o[0] })); });
    return select;
  }

  function filters(table) {
    if (!table || !table.tBodies.length || table.hasAttribute("data-filtros")) { return; }
    table.setAttribute("data-filtros", "");
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var classes = [];
    rows.forEach(function (r) {
      var c = r.getAttribute("data-categoria");
      if (c && classes.indexOf(c) < 0) { classes.push(c); }
    });
    classes.sort(function (a, b) { return a.localeCompare(b, "pt-BR"); });
    var box = el("fieldset", null, { "class": "filtro-partidas" });
    box.appendChild(el("legend", "Filtrar as partidas"));
    var day = choice("Dia da semana", "Qualquer dia", DIAS.map(function (d, k) { return [String(k), d]; }));
    var kind = choice("Classe", "Todas as classes", classes.map(function (c) { return [c, c]; }));
    box.appendChild(el("p")).appendChild(day.parentNode);
    box.appendChild(el("p")).appendChild(kind.parentNode);
    var status = box.appendChild(el("p", count(rows.length) + " na tabela.", { role: "status", "class": "nota" }));

    function apply() {
      var d = day.value, c = kind.value, shown = 0;
      rows.forEach(function (r) {
        var on = (d === "" || (r.getAttribute("data-dias") || "").charAt(Number(d)) === "1") &&
          (c === "" || r.getAttribute("data-categoria") === c);
        r.hidden = !on;
        if (on) { shown += 1; }
      });
      status.textContent = d === "" && c === "" ? count(rows.length) + " na tabela." :
        shown ? "Mostrando " + count(shown) + " de " + window.portal.numero(rows.length) + "." :
          "Nenhuma partida com esse dia e essa classe (de " + count(rows.length) + ").";
    }
    day.addEventListener("change", apply);
    kind.addEventListener("change", apply);
    table.parentNode.insertBefore(box, table);
  }

  window.portal.partidas = filters;
  window.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table[data-partidas]"), filters);
  });
}());
