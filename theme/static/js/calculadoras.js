// The calculators of /direitos/, by the rules of Decreto nº 952/1993 (revoked by Decreto nº 2.521/1998): every
// answer says "pelas regras de 1993" and cites its article. The decree's numbers come from the forms' data
// attributes (rendered from pipeline/legal/passageiros.py through the global `lei`), never from this file.
// This script is the browser's side of passageiros.py: it reads what is typed as parse_reais, parse_kg and
// parse_age do, refuses with the same MESSAGES (handed over by the page), and computes as excess_baggage_account does, exactly (BigInt
// centavos and grams), rounding the total to the centavo with half a centavo going up. The answers are
// passageiros.WORKED_EXAMPLES word for word: tests/test_calculadoras.py types them into this page.
// A result always matches the fields: editing or emptying a field clears it until the form is submitted.
(function () {
  "use strict";

  if (typeof BigInt !== "function") { return; }  // the page states every rule in words without the calculators

  // the refusals and the grammar of a number, as pipeline/legal/passageiros.py states them (BROWSER), from the page
  var rules = document.querySelector("section.calculadoras");
  if (!rules) { return; }
  var MESSAGES = JSON.parse(rules.getAttribute("data-mensagens"));
  var NUMBER = new RegExp("^(?:" + rules.getAttribute("data-numero") + ")$");
  var DOT_DECIMAL = new RegExp("^(?:" + rules.getAttribute("data-ponto-decimal") + ")$");
  var ZERO = BigInt(0), THOUSAND = BigInt(1000), HALF_CENT = BigInt(500000), CENT = BigInt(1000000);

  function Refused(key, values) {
    this.message = MESSAGES[key].replace(/\{(\w+)\}/g, function (all, name) { return values[name]; });
  }

  // "1.234,56" with places 2 -> 123456n (the number in units of 10^-places); refusals as passageiros._number
  function scaled(body, places, values, keys) {
    var negative = body.charAt(0) === "-", digits = negative ? body.slice(1) : body;
    if (DOT_DECIMAL.test(digits)) { values.fixed = body.replace(".", ","); throw new Refused(keys.dot, values); }
    var m = NUMBER.exec(digits);
    if (!m) { throw new Refused(keys.other, values); }
    var fraction = m[2] || "";
    if (fraction.length > places) { throw new Refused(keys.precision, values); }
    while (fraction.length < places) { fraction += "0"; }
    var value = BigInt(m[1].replace(/\./g, "") + fraction);
    return negative ? -value : value;
  }

  function reais(typed) {  // -> centavos
    var text = String(typed).trim();
    var body = text.slice(0, 2).toUpperCase() === "R$" ? text.slice(2).trim() : text;
    var values = { typed: text };
    var cents = scaled(body, 2, values, { dot: "reais_ponto", other: "reais", precision: "reais_centavos" });
    if (cents <= ZERO) { throw new Refused("reais_positivo", values); }
    return cents;
  }

  function grams(typed, where) {  // -> grams
    var text = String(typed).trim();
    var body = text.slice(-2).toLowerCase() === "kg" ? text.slice(0, -2).trim() : text;
    var values = { typed: text, where: where };
    var g = scaled(body, 3, values, { dot: "kg_ponto", other: "kg", precision: "kg_gramas" });
    if (g < ZERO) { throw new Refused("kg_negativo", values); }
    return g;
  }

  var decimal = window.portal.decimal;  // exact: 60250n with scale 5 -> "0,6025" (pipeline/contract/spelling.py)
  function money(units, scale) { return "R$ " + decimal(units, scale, 2); }
  function kg(g) { return decimal(g, 3, 0) + " kg"; }
  function positive(v) { return v > ZERO ? v : ZERO; }

  function setup(id, compute) {
    var form = document.getElementById(id);
    if (!form) { return; }
    var out = form.querySelector("output");
    function show(sentences, refused) {
      out.textContent = "";
      sentences.forEach(function (text, i) {
        var line = document.createElement("span");
        line.className = "linha";
        line.textContent = text;
        if (i > 0) { out.appendChild(document.createTextNode(" ")); }  // sentences apart when read as one text
        out.appendChild(line);
      });
      out.classList.toggle("recusa", !!refused);
    }
    function clear() { show([], false); }
    form.addEventListener("input", clear);   // typing, emptying a field, picking a date
    form.addEventListener("change", clear);  // the check box
    form.addEventListener("reset", clear);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var empty = Array.prototype.some.call(form.elements, function (el) {
        return el.required && String(el.value).trim() === "";
      });
      if (empty) { clear(); return; }
      try { show(compute(form), false); } catch (err) {
        if (!(err instanceof Refused)) { throw err; }
        show([err.message], true);
      }
    });
  }

  setup("calc-bagagem", function (form) {
    var d = form.dataset;
    var holdFree = BigInt(d.franquiaBagageiro) * THOUSAND, cabinFree = BigInt(d.franquiaPortaEmbrulhos) * THOUSAND;
    var perMille = BigInt(d.excessoMilesimos);
    var fare = reais(form.elements.preco.value);
    var hold = grams(form.elements.bagageiro.value, "no bagageiro");
    var cabin = grams(form.elements.porta_embrulhos.value, "no porta-embrulhos");
    var overHold = positive(hold - holdFree), overCabin = positive(cabin - cabinFree), over = overHold + overCabin;
    if (over === ZERO) {
      return ["Pelas regras de 1993 (art. 65, incisos I e II), não haveria nada a pagar pela bagagem: " + kg(hold) +
        " no bagageiro e " + kg(cabin) + " no porta-embrulhos caberiam na franquia (até " + kg(holdFree) + " e " +
        kg(cabinFree) + ")."];
    }
    var perKg = fare * perMille;         // in units of R$ 0,00001: fare (centavos) x rate (per mille)
    var product = perKg * over;          // in units of R$ 0,00000001: x kilograms (grams)
    var cents = (product + HALF_CENT) / CENT;  // to the centavo, half up (BigInt division truncates)
    var parts = [];
    if (overHold > ZERO) { parts.push(kg(overHold) + " no bagageiro (" + kg(hold) + " − " + kg(holdFree) + " de franquia)"); }
    if (overCabin > ZERO) {
      parts.push(kg(overCabin) + " no porta-embrulhos (" + kg(cabin) + " − " + kg(cabinFree) + " de franquia)");
    }
    var account = "Conta: " + kg(over) + " × " + money(perKg, 5) + " por quilo (" + decimal(perMille, 1, 0) + "% de " +
      money(fare, 2) + ") = " + money(product, 8);
    account += product % CENT === ZERO ? ", sem arredondamento."
      : "; arredondado ao centavo (meio centavo ou mais, para cima): " + money(cents, 2) + ".";
    return [
      "Pelas regras de 1993 (art. 65, parágrafo único), a empresa poderia cobrar no máximo " + money(cents, 2) +
        " pelo excesso de bagagem.",
      "Excesso: " + parts.join(" + ") + (parts.length > 1 ? " = " + kg(over) : "") + ".",
      account
    ];
  });

  // "2026-12-24T22:00" -> milliseconds of that wall-clock time, as if in UTC: no daylight saving in between,
  // like the naive datetimes of passageiros.refund_deadline
  var LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
  function wallClock(value) {
    var m = LOCAL.exec(value);
    return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0)) : NaN;
  }
  function dateTime(ms) { return window.portal.data(new Date(ms).toISOString()); }  // the wall clock, as UTC

  setup("calc-desistencia", function (form) {
    var hours = Number(form.dataset.horas);
    var departure = wallClock(form.elements.partida.value), asked = wallClock(form.elements.pedido.value);
    if (isNaN(departure) || isNaN(asked)) { throw new Refused("datas", {}); }
    if (asked > departure) { throw new Refused("aviso_depois", {}); }
    var limit = departure - hours * 3600 * 1000, when = dateTime(limit);
    return [asked <= limit
      ? "No prazo, pelas regras de 1993 (art. 64): o aviso podia ser dado até " + when + ", " + hours +
        " horas antes da partida, com direito à devolução do valor pago ou à remarcação da viagem."
      : "Fora do prazo: o aviso devia ser feito até " + when + ", " + hours + " horas antes da partida, pelas " +
        "regras de 1993 (art. 64); depois disso, o decreto não garantia devolução nem remarcação."];
  });

  var AGE = new RegExp("^(?:" + rules.getAttribute("data-idade") + ")$", "i");
  setup("calc-crianca", function (form) {
    var m = AGE.exec(String(form.elements.idade.value).trim()), limit = Number(form.dataset.idade);
    if (!m || Number(m[1]) > 130) { throw new Refused("idade", {}); }
    var age = Number(m[1]), cite = "Pelas regras de 1993 (art. 32, inciso XVII), ";
    if (age > limit) { return [cite + "pagaria passagem: a gratuidade valia até " + limit + " anos."]; }
    if (form.elements.poltrona.checked) {
      return [cite + "pagaria passagem: a gratuidade valia só para a criança que não ocupasse poltrona."];
    }
    return [cite + "a criança viajaria sem pagar, desde que não ocupasse poltrona."];
  });
}());
