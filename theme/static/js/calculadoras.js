// The calculators of /direitos/: the decree's numbers come from the forms' data attributes (rendered from
// pipeline/legal/passageiros.py), never from this file. Impossible input gets a message, never NaN.
(function () {
  "use strict";

  function number(text) {
    var t = String(text || "").trim().replace(/\s/g, "");
    if (/^\d{1,3}(\.\d{3})*(,\d+)?$/.test(t)) { t = t.replace(/\./g, "").replace(",", "."); }
    else { t = t.replace(",", "."); }
    if (!/^-?\d+(\.\d+)?$/.test(t)) { return NaN; }
    return Number(t);
  }

  function reais(v) {
    return "R$ " + v.toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }

  function kg(v) { return v.toLocaleString("pt-BR", { maximumFractionDigits: 3 }) + " kg"; }

  function setup(id, compute) {
    var form = document.getElementById(id);
    if (!form) { return; }
    var out = form.querySelector("output");
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var message;
      try { message = compute(form); } catch (err) { message = err.message; }
      out.textContent = message;
    });
  }

  setup("calc-bagagem", function (form) {
    var hold = Number(form.dataset.franquiaBagageiro), cabin = Number(form.dataset.franquiaPortaEmbrulhos);
    var rate = Number(form.dataset.excessoMilesimos) / 1000;
    var fare = number(form.elements.preco.value);
    var inHold = number(form.elements.bagageiro.value), inCabin = number(form.elements.porta_embrulhos.value);
    if (!(fare > 0)) { throw new Error("Informe o preço da passagem convencional, maior que zero (por exemplo 120,50)."); }
    if (!(inHold >= 0) || !(inCabin >= 0)) { throw new Error("Informe os pesos em quilos, zero ou mais (por exemplo 32,5)."); }
    var over = Math.max(0, inHold - hold) + Math.max(0, inCabin - cabin);
    if (over === 0) { return "Dentro da franquia: nada a pagar pela bagagem."; }
    var perKg = Math.round(fare * rate * 100) / 100;
    var maximum = Math.round(fare * rate * over * 100 + 1e-9) / 100;
    return "Excesso de " + kg(over) + ": a empresa pode cobrar no máximo " + reais(maximum) +
      " (" + reais(perKg) + " por quilo).";
  });

  setup("calc-desistencia", function (form) {
    var hours = Number(form.dataset.horas);
    var dep = new Date(form.elements.partida.value), asked = new Date(form.elements.pedido.value);
    if (isNaN(dep.getTime()) || isNaN(asked.getTime())) { throw new Error("Informe a data e a hora da partida e do aviso."); }
    if (asked > dep) { throw new Error("O aviso é depois da partida: o art. 64 vale para quem avisa antes."); }
    var limit = new Date(dep.getTime() - hours * 3600 * 1000);
    var when = limit.toLocaleString("pt-BR", { dateStyle: "short", timeStyle: "short" });
    return asked <= limit
      ? "No prazo: você pode desistir com devolução do valor pago ou remarcar (avisando até " + when + ")."
      : "Fora do prazo: o aviso devia ser feito até " + when + ", " + hours + " horas antes da partida.";
  });

  setup("calc-crianca", function (form) {
    var age = number(form.elements.idade.value), limit = Number(form.dataset.idade);
    if (!(age >= 0) || age > 130 || Math.floor(age) !== age) { throw new Error("Informe a idade em anos completos (por exemplo 4)."); }
    if (age <= limit && !form.elements.poltrona.checked) { return "Viaja sem pagar, no colo, sem ocupar poltrona."; }
    if (age <= limit) { return "Paga passagem: ocupa uma poltrona."; }
    return "Paga passagem: tem mais de " + limit + " anos.";
  });
}());
