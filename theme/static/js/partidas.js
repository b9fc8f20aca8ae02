// Filters of a pair's departures, by weekday and by service class: the table of the pair's page
// (theme/templates/_rota.html) and the one rotas.js render() builds from the pair's JSON. Each row says
// what it runs on: data-dias, a 0 or 1 per weekday (Monday first), data-categoria, the class's label, and
// for a seasonal one data-meses, its months' names (the table's data-meses-do-ano names the twelve).
// A long table first shows the next departures from now, the rest on demand ("Ver todas"). The script only
// hides and orders rows; without JavaScript there are no filters and every row shows, by time.
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

  // how many departures show before "Ver todas": on a phone, a pair such as São Paulo - Rio de Janeiro has
  // 86, some 18,000 px of cards
  var FIRST = 8;

  // minutes from now until the row's next departure, by the browser's clock: today later, or on the next
  // weekday it runs (data-dias), in a month it runs (data-meses, the months' names of data-meses-do-ano);
  // Infinity for a row with no time (a placeholder of the source) or no day marked
  function untilNext(row, now, months) {
    var time = /^([01][0-9]|2[0-3]):([0-5][0-9])$/.exec((row.cells[0].textContent || "").trim());
    var days = row.getAttribute("data-dias") || "", only = row.getAttribute("data-meses");
    if (!time) { return Infinity; }
    var at = Number(time[1]) * 60 + Number(time[2]), today = (now.getDay() + 6) % 7;
    var minutes = now.getHours() * 60 + now.getMinutes();
    for (var k = 0; k <= 7; k++) {
      if (days.charAt((today + k) % 7) !== "1" || (k === 0 && at < minutes)) { continue; }
      var when = new Date(now.getFullYear(), now.getMonth(), now.getDate() + k);
      if (only && months.length === 12 && (" " + only + " ").indexOf(" " + months[when.getMonth()] + " ") < 0) { continue; }
      return k * 1440 + at - minutes;
    }
    return Infinity;
  }

  function filters(table) {
    if (!table || !table.tBodies.length || table.hasAttribute("data-filtros")) { return; }
    table.setAttribute("data-filtros", "");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var months = (table.getAttribute("data-meses-do-ano") || "").split(" ").filter(Boolean);
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
    var status = box.appendChild(el("p", "", { role: "status", "class": "nota" }));
    // the next departures first, the rest on demand; "todas": every row, by time, as the page gives them
    var all = rows.length <= FIRST;
    var more = el("button", "", { type: "button", "class": "mais-partidas" });

    function apply() {
      var d = day.value, c = kind.value, now = new Date();
      var matched = rows.filter(function (r) {
        return (d === "" || (r.getAttribute("data-dias") || "").charAt(Number(d)) === "1") &&
          (c === "" || r.getAttribute("data-categoria") === c);
      });
      var order = rows;
      if (!all) {  // the matched rows by how soon they leave, the others after them, hidden
        var soon = matched.map(function (r, k) { return [untilNext(r, now, months), k, r]; });
        soon.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
        order = soon.map(function (x) { return x[2]; });
        order = order.concat(rows.filter(function (r) { return matched.indexOf(r) < 0; }));
      }
      order.forEach(function (r) { body.appendChild(r); });
      var shown = 0;
      order.forEach(function (r) {
        var on = matched.indexOf(r) >= 0 && (all || shown < FIRST);
        r.hidden = !on;
        if (on) { shown += 1; }
      });
      var filtered = d !== "" || c !== "";
      var total = filtered ? matched.length : rows.length;
      status.textContent = !matched.length ? "Nenhuma partida com esse dia e essa classe (de " + count(rows.length) + ")." :
        !all && total > shown ? "As " + window.portal.numero(shown) + " próximas partidas a partir de agora (" +
          String(now.getHours()).padStart(2, "0") + ":" + String(now.getMinutes()).padStart(2, "0") + "), de " + count(total) +
          (filtered ? " com esse filtro" : "") + "." :
        filtered ? "Mostrando " + count(shown) + " de " + window.portal.numero(rows.length) + "." :
          count(rows.length) + " na tabela.";
      more.hidden = rows.length <= FIRST || (!all && total <= shown);
      more.textContent = all ? "Ver só as próximas partidas" : "Ver todas as " + count(total) + ", por horário";
    }
    more.addEventListener("click", function () { all = !all; apply(); });
    day.addEventListener("change", apply);
    kind.addEventListener("change", apply);
    table.parentNode.insertBefore(box, table);
    table.parentNode.insertBefore(more, table.nextSibling);
    apply();
  }

  window.portal.partidas = filters;
  window.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table[data-partidas]"), filters);
  });
}());
