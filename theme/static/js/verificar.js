// /verificar/: the code typed -> /verificar/<first two hex digits>.json -> the record's page (art. 12).
// In a build with no act (data-sem-codigos on the form: why), no code can be found: the answer says why.
// The code's length and every answer come from the page (data-digitos, data-mensagens: pipeline/site/verification.py).
(function () {
  "use strict";
  window.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-verificar]");
    var out = document.getElementById("resultado-verificacao");
    if (!form || !out || !window.fetch) { return; }
    var base = window.portal.base(form);
    function say(text, href) {
      out.textContent = "";
      var p = document.createElement("p");
      p.setAttribute("role", "status");
      p.textContent = text;
      if (href) {
        var a = document.createElement("a");
        a.href = href; a.textContent = href;
        p.appendChild(document.createTextNode(" ")); p.appendChild(a);
      }
      out.appendChild(p);
    }
    var none = form.getAttribute("data-sem-codigos");
    var wanted = parseInt(form.getAttribute("data-digitos"), 10);
    var said = JSON.parse(form.getAttribute("data-mensagens"));
    function check(typed) {
      if (none) { return say(none); }
      var digits = typed.toLowerCase().replace(/[^0-9a-f]/g, "");
      if (digits.length !== wanted) { return say(said.tamanho); }
      fetch(base + "/verificar/" + digits.slice(0, 2) + ".json").then(function (resp) {
        if (resp.status === 404) { return {}; }
        if (!resp.ok) { throw new Error(resp.status); }
        return resp.json();
      }).then(function (codes) {
        if (codes[digits]) { say(said.valido, codes[digits]); }
        else { say(said.nao_encontrado); }
      }).catch(function (err) { say(said.falha + " (" + err.message + ")."); });
    }
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var url = new URL(window.location.href);
      url.searchParams.set("codigo", form.elements.codigo.value);
      window.history.replaceState(null, "", url.toString());
      check(form.elements.codigo.value);
    });
    var typed = new URLSearchParams(window.location.search).get("codigo");
    if (typed) { form.elements.codigo.value = typed; check(typed); }
  });
}());
