// The search page (/busca/). Pagefind's index through its JavaScript API, with, before its results, the
// records whose name or identifier is what was typed (/busca/nomes/ and /busca/ids/:
// pipeline/site/names.py and identifiers.py) and the record of a notice number (/busca/autos/:
// pipeline/site/notices.py). The query and the filters live in the address (?q=goiania&uf=GO). Text from
// the data is only ever set as text.
(function () {
  "use strict";
  var PAGE = 10;

  var el = window.portal.el;

  var fold = window.portal.fold;
  function getJSON(url) {
    return fetch(url).then(function (resp) { return resp.ok ? resp.json() : null; }).catch(function () { return null; });
  }
  function numero(n) { return Number(n).toLocaleString("pt-BR"); }
  function reais(v) {
    return v === null || v === undefined ? "—" : "R$ " + Number(v).toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  function dataBr(iso) {
    if (!iso) { return "—"; }
    var d = iso.slice(0, 10).split("-");
    return d[2] + "/" + d[1] + "/" + d[0] + (iso.length > 10 ? " " + iso.slice(11, 16) : "");
  }

  // the rule of pipeline/site/names.py rank(): every word typed begins a word of the name; the name
  // itself first, then names that begin with what was typed, then the rest; places before carriers
  function rankNames(typed, candidates) {
    var query = fold(typed), words = query.split(" ").filter(Boolean);
    if (!words.length) { return []; }
    var hits = [];
    candidates.forEach(function (c) {
      var nameWords = c[0].split(" ");
      var every = words.every(function (w) { return nameWords.some(function (n) { return n.indexOf(w) === 0; }); });
      if (every) { hits.push([c[0] === query ? 0 : c[0].indexOf(query) === 0 ? 1 : 2, c[3] === "Cidade" ? 0 : 1, c]); }
    });
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || (a[2][0] < b[2][0] ? -1 : a[2][0] > b[2][0] ? 1 : 0); });
    var seen = {}, out = [];
    hits.forEach(function (h) { if (!seen[h[2][2]]) { seen[h[2][2]] = true; out.push(h[2]); } });
    return out.slice(0, 5);
  }

  function excerpt(html) {
    // Pagefind's excerpt: the page's own text, escaped, with <mark> around the words found
    var p = el("p", null, { "class": "trecho" });
    html.split(/(<mark>|<\/mark>)/).reduce(function (marked, part) {
      if (part === "<mark>") { return true; }
      if (part === "</mark>") { return false; }
      var text = new DOMParser().parseFromString(part, "text/html").documentElement.textContent;
      p.appendChild(marked ? el("mark", text) : document.createTextNode(text));
      return marked;
    }, false);
    return p;
  }

  window.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("form-busca");
    if (!form) { return; }
    var base = window.portal.base(form);
    var digits = Number(form.getAttribute("data-autos-digitos")) || 1;
    // the files that exist (no request for one that does not)
    var nameFiles = (form.getAttribute("data-nomes") || "").split(" "), idFiles = (form.getAttribute("data-ids") || "").split(" ");
    var input = form.querySelector("input[name=q]");
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-filtro]"));
    var status = document.getElementById("estado-busca");
    var list = document.getElementById("resultados");
    var more = document.getElementById("mais-resultados");
    var noticeBox = document.getElementById("auto-encontrado");
    var params = new URLSearchParams(window.location.search);
    // a longer query than the box takes (its maxlength, pipeline/query.py MAX_QUERY) is cut as the box would
    input.value = (params.get("q") || "").slice(0, input.maxLength > 0 ? input.maxLength : undefined);
    var pagefind = null, pending = [], exactUrls = {}, run = 0;

    function item(kind, title, url, text) {
      var li = list.appendChild(el("li"));
      li.appendChild(el("p", kind, { "class": "tipo-registro" }));
      li.appendChild(el("h2")).appendChild(el("a", title, { href: url }));
      if (text) { li.appendChild(typeof text === "string" ? el("p", text, { "class": "trecho" }) : text); }
      li.appendChild(el("p", url, { "class": "url" }));
    }

    // a notice's row, in the order of pipeline/site/notices.py FIELDS
    function showNotice(r) {
      var n = { numero: r[0], transportadora: r[1], transportadora_url: r[2], linha: r[3], linha_url: r[4],
                data_hora: r[5], local: r[6], enquadramento: r[7], enquadramento_url: r[8], grupo: r[9],
                penalidade: r[10], valor: r[11], situacao: r[12], prazo_defesa: r[13], prazo_recurso: r[14] };
      var section = noticeBox.appendChild(el("section", null, { "class": "auto", "aria-labelledby": "auto-titulo" }));
      section.appendChild(el("h2", "Auto de infração nº " + n.numero, { id: "auto-titulo" }));
      var dl = section.appendChild(el("dl", null, { "class": "ficha" }));
      function row(label, value, href) {
        dl.appendChild(el("dt", label));
        var dd = dl.appendChild(el("dd"));
        if (href) { dd.appendChild(el("a", value, { href: base + href })); } else { dd.textContent = value; }
        return dd;
      }
      row("Transportadora", n.transportadora, n.transportadora_url);
      row("Linha", n.linha || "—", n.linha_url);
      row("Data e hora", dataBr(n.data_hora));
      row("Local", n.local || "—");
      row("Enquadramento", n.enquadramento, n.enquadramento_url)
        .appendChild(document.createTextNode(n.grupo ? " (grupo " + n.grupo + " do art. 78)" : ""));
      row("Penalidade", n.penalidade);
      row("Valor", reais(n.valor));
      row("Situação", n.situacao);
      row("Prazo de defesa", dataBr(n.prazo_defesa));
      row("Prazo de recurso", dataBr(n.prazo_recurso));
    }

    function lookups(q) {
      var words = fold(q).split(" ").sort(function (a, b) { return b.length - a.length; });
      var names = words[0] && nameFiles.indexOf(words[0].slice(0, 2)) >= 0 ? getJSON(base + "/busca/nomes/" + words[0].slice(0, 2) + ".json") : Promise.resolve(null);
      var k = fold(q).replace(/ /g, "");
      // notice numbers are digits: their files are named by the last digits, every one written
      var notice = k.length >= 4 && /^[0-9]+$/.test(k.slice(-digits)) ? getJSON(base + "/busca/autos/" + k.slice(-digits) + ".json") : Promise.resolve(null);
      var ident = window.portalIds && idFiles.indexOf(k.slice(0, 2)) >= 0 ? window.portalIds(q, base) : Promise.resolve(null);
      return Promise.all([names, ident, notice]).then(function (r) {
        return { names: rankNames(q, r[0] || []), ident: r[1], notice: r[2] ? r[2][k] || null : null };
      });
    }

    function showMore(mine) {
      var batch = pending.splice(0, PAGE);
      more.hidden = true;
      return Promise.all(batch.map(function (r) { return r.data(); })).then(function (data) {
        if (mine !== run) { return; }
        data.forEach(function (d) {
          if (exactUrls[d.url]) { return; }
          var kind = d.filters && d.filters.tipo ? d.filters.tipo[0] : "Página";
          item(kind, (d.meta && d.meta.title) || d.url, d.url, d.excerpt ? excerpt(d.excerpt) : null);
        });
        more.hidden = pending.length === 0;
      });
    }

    function search() {
      var mine = ++run;
      var q = input.value.trim(), filters = {}, address = new URLSearchParams();
      if (q) { address.set("q", q); }
      selects.forEach(function (s) { if (s.value) { filters[s.name] = s.value; address.set(s.name, s.value); } });
      var query = address.toString();
      window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : ""));
      list.textContent = ""; noticeBox.textContent = ""; more.hidden = true; pending = []; exactUrls = {};
      if (!q && !Object.keys(filters).length) { status.textContent = ""; return; }
      status.textContent = "Buscando…";
      var filtered = Object.keys(filters).length > 0;
      var found = pagefind ? pagefind.search(q || null, { filters: filters }) : Promise.resolve(null);
      Promise.all([q ? lookups(q) : Promise.resolve(null), found]).then(function (r) {
        if (mine !== run) { return; }
        var exact = [];
        if (r[0] && !filtered) {
          if (r[0].ident) { exact.push([r[0].ident[2] || "Registro", r[0].ident[1], base + r[0].ident[0]]); }
          r[0].names.forEach(function (n) { exact.push([n[3], n[1], base + n[2]]); });
        }
        if (r[0] && r[0].notice) { showNotice(r[0].notice); }
        exact.forEach(function (e) {
          if (exactUrls[e[2]]) { return; }
          exactUrls[e[2]] = true;
          item(e[0], e[1], e[2], "Registro com este nome ou identificador");
        });
        pending = r[1] ? r[1].results.slice() : [];
        var total = pending.length;
        var parts = [];
        if (r[0] && r[0].notice) { parts.push("1 auto de infração com este número"); }
        if (Object.keys(exactUrls).length) { parts.push(numero(Object.keys(exactUrls).length) + " registro(s) com este nome ou identificador"); }
        parts.push(pagefind ? numero(total) + (total === 1 ? " página encontrada" : " páginas encontradas") + " na busca por texto"
                            : "a busca por texto não está disponível nesta cópia do site: use os índices abaixo");
        status.textContent = parts.join("; ") + ".";
        return showMore(mine);
      });
    }

    function fillFilters(available) {
      selects.forEach(function (s) {
        var values = Object.keys(available[s.name] || {}).sort(function (a, b) { return a.localeCompare(b, "pt-BR"); });
        values.forEach(function (v) { s.appendChild(el("option", v + " (" + numero(available[s.name][v]) + ")", { value: v })); });
        if (params.get(s.name)) { s.value = params.get(s.name); }
        s.addEventListener("change", search);
      });
    }

    // the filters' values (with counts) load when the box is opened, or at once when the address names one
    var filtersBox = document.getElementById("filtros-busca"), filtersLoaded = null;
    function loadFilters() {
      if (!filtersLoaded) { filtersLoaded = pagefind.filters().then(fillFilters); }
      return filtersLoaded;
    }

    form.addEventListener("submit", function (ev) { ev.preventDefault(); search(); });
    more.addEventListener("click", function () { showMore(run); });
    import(base + "/pagefind/pagefind.js").then(function (pf) {
      pagefind = pf;
      return pf.options({ baseUrl: base + "/" }).then(function () {
        filtersBox.hidden = false;
        filtersBox.addEventListener("toggle", function () { if (filtersBox.open) { loadFilters(); } });
        if (selects.some(function (s) { return params.get(s.name); })) {
          filtersBox.open = true;
          return loadFilters();
        }
      });
    }).catch(function () { pagefind = null; }).then(search);
  });
}());
