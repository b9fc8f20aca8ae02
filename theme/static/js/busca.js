// The search page (/busca/). Pagefind's index through its JavaScript API, with, before its results, the
// records whose name or identifier is what was typed (/busca/nomes/ and /busca/ids/:
// pipeline/site/names.py and identifiers.py) and the record of a notice number (/busca/autos/:
// pipeline/site/notices.py). The query and the filters live in the address (?q=goiania&uf=GO). Text from
// the data is only ever set as text.
(function () {
  "use strict";
  var PAGE = 10;

  var el = window.portal.el;

  var foldName = window.portal.foldName;
  function getJSON(url) {
    return fetch(url).then(function (resp) { return resp.ok ? resp.json() : null; }).catch(function () { return null; });
  }
  var numero = window.portal.numero, reais = window.portal.reais, dataBr = window.portal.data;

  var nomes = window.portal.nomes;

  // the names whose words match what was typed (pipeline/site/names.py rank(): the rule of nomes.js)
  function rankNames(typed, candidates, rules) {
    var words = foldName(typed).split(" ").filter(Boolean);
    if (!words.length) { return { items: [], typo: false }; }
    var found = nomes.rank(words, candidates.map(function (c) { return { busca: [c[0]], linhas: c[4] || 0, entry: c }; }), rules);
    var seen = {}, out = [];
    found.items.forEach(function (h) { if (!seen[h.entry[2]]) { seen[h.entry[2]] = true; out.push(h.entry); } });
    return { items: out.slice(0, 5), typo: found.level === 2 };
  }

  function placeLabel(p) { return p.nome + " (" + p.uf + ")"; }

  // a journey ("sao paulo rio de janeiro", "de BH a Rio"): its answer first; a place: its page first;
  // {items, answered}: answered when something matched as typed, not as a typing error
  // (pipeline/index/lookups.py first(): the same order and guesses)
  function places(q, data, ranked) {
    var out = [], list = data.places, rules = data.rules;
    // a name matched as typed (the carrier VIAÇÃO CAIÇARA) outranks a place guessed from a typo
    var guesses = !ranked.items.length || ranked.typo;
    var journey = nomes.findJourney(list, q, rules);
    if (journey) {
      var de = journey[0].items[0], para = journey[1].items[0];
      var linked = de.destinos.indexOf(list.indexOf(para)) >= 0;
      var typo = journey[0].level === 2 || journey[1].level === 2;
      // where no line links them, the journeys with one change (nomes.js oneChange): the origin's page answers with them
      var changes = linked ? [] : nomes.oneChange(list, list.indexOf(de), list.indexOf(para));
      var asked = "?de=" + encodeURIComponent(placeLabel(de)) + "&para=" + encodeURIComponent(placeLabel(para));
      out.push({ kind: "Ligação", title: "De " + placeLabel(de) + " para " + placeLabel(para),
                 url: linked ? nomes.answerUrl(list, de, para) : de.url + (changes.length ? asked : ""),
                 text: linked ? "Linhas, partidas e o que as fontes dizem desta ligação" :
                   [nomes.noLine(de, para, rules)].concat([de.nota, para.nota].filter(Boolean)).join(" ") +
                   (de.nota ? " A página é a da linha de teste." : changes.length ?
                     " " + rules.mensagens.baldeacao.replace("{n}", numero(changes.length) + (changes.length === 1 ? " caminho" : " caminhos")) +
                     " A página de " + de.nome + " os mostra, o primeiro por " + placeLabel(list[changes[0].via]) + "." :
                     " A página leva aos destinos a partir de " + de.nome + "."),
                 typo: typo });
      // what Pagefind is asked for: the two places' names, without the words that joined them ("para", "x",
      // "de … a"), which the pages' indexed text does not hold (Pagefind finds the pages holding every word)
      return { items: out, answered: !typo, journey: foldName(de.nome) + " " + foldName(para.nome) };
    }
    var found = nomes.findPlace(list, q, rules);
    var shown = found.items.length && (found.level === 0 || found.unique) && (guesses || found.level !== 2);
    // a place matched by a later word of its name only (itapemirim: Cachoeiro de Itapemirim) keeps its
    // place among the names matched as typed (the carrier VIAÇÃO ITAPEMIRIM)
    if (shown && !found.initial && ranked.items.length && !ranked.typo) { shown = false; }
    if (shown) {
      found.items.slice(0, found.unique ? 1 : 3).forEach(function (p, k) {
        var part = k === 0 ? nomes.part(found, rules) : "";
        out.push({ kind: "Cidade", title: placeLabel(p), url: p.url, typo: found.level === 2,
                   text: p.nota || (part ? part + ": as linhas estão na página de " + p.nome + "." : "Linhas e destinos a partir desta cidade") });
      });
    }
    return { items: out, answered: !!shown && found.level !== 2 };
  }

  // the text of an escaped fragment, its spaces kept (a document parser drops the leading ones, which glued
  // "CAMPINA<mark>GRANDE</mark>"): a textarea's content is parsed as text, entities decoded, no tag made
  var decoder = document.createElement("textarea");
  function unescaped(fragment) { decoder.innerHTML = fragment; return decoder.value; }

  function excerpt(html) {
    // Pagefind's excerpt: the page's own text, escaped, with <mark> around the words found
    var p = el("p", null, { "class": "trecho" });
    html.split(/(<mark>|<\/mark>)/).reduce(function (marked, part) {
      if (part === "<mark>") { return true; }
      if (part === "</mark>") { return false; }
      var text = unescaped(part);
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
    var noticesCovered = form.getAttribute("data-autos-cobertos") === "sim";
    // what a notice number looks like, reduced (pipeline/site/notices.py NOTICE_SHAPE)
    var noticeShape = new RegExp(form.getAttribute("data-autos-forma") || "^[0-9]{4,}$");
    // the files that exist (no request for one that does not)
    var nameFiles = (form.getAttribute("data-nomes") || "").split(" "), idFiles = (form.getAttribute("data-ids") || "").split(" ");
    var input = form.querySelector("input[name=q]");
    var selects = Array.prototype.slice.call(form.querySelectorAll("select[data-filtro]"));
    var status = document.getElementById("estado-busca");
    var list = document.getElementById("resultados");
    var more = document.getElementById("mais-resultados");
    var noticeBox = document.getElementById("auto-encontrado");
    var params = new URLSearchParams(window.location.search);
    // a longer query than the box takes (its maxlength, pipeline/index/query.py MAX_QUERY) is cut as the box would
    input.value = (params.get("q") || "").slice(0, input.maxLength > 0 ? input.maxLength : undefined);
    var pagefind = null, pending = [], exactUrls = {}, run = 0, rulesLoaded = null;

    function item(kind, title, url, text) {
      var li = list.appendChild(el("li"));
      li.appendChild(el("p", kind, { "class": "tipo-registro" }));
      li.appendChild(el("h2")).appendChild(el("a", title, { href: url }));
      if (text) { li.appendChild(typeof text === "string" ? el("p", text, { "class": "trecho" }) : text); }
      li.appendChild(el("p", url, { "class": "url" }));
    }

    // a notice's row, its cells named by the form's data-autos-campos (pipeline/site/notices.py FIELDS)
    var noticeFields = JSON.parse(form.getAttribute("data-autos-campos") || "[]");
    function showNotice(r) {
      var n = {};
      noticeFields.forEach(function (name, i) { n[name] = r[i]; });
      var section = noticeBox.appendChild(el("section", null, { "class": "auto", "aria-labelledby": "auto-titulo" }));
      section.appendChild(el("h2", "Auto de infração nº " + n.numero, { id: "auto-titulo" }));
      var dl = section.appendChild(el("dl", null, { "class": "ficha" }));
      function row(label, value, href) {
        dl.appendChild(el("dt", label));
        var dd = dl.appendChild(el("dd"));
        if (href) { dd.appendChild(el("a", value, { href: href })); } else { dd.textContent = value; }
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
      var words = foldName(q).split(" ").sort(function (a, b) { return b.length - a.length; });
      var names = words[0] && nameFiles.indexOf(words[0].slice(0, 2)) >= 0 ? getJSON(base + "/busca/nomes/" + words[0].slice(0, 2) + ".json") : Promise.resolve(null);
      var k = foldName(q).replace(/ /g, "");
      // notice numbers are digits: their files are named by the last digits, every one written
      var notice = k.length >= 4 && /^[0-9]+$/.test(k.slice(-digits)) ? getJSON(base + "/busca/autos/" + k.slice(-digits) + ".json") : Promise.resolve(null);
      var ident = window.portalIds && idFiles.indexOf(k.slice(0, 2)) >= 0 ? window.portalIds(q, base) : Promise.resolve(null);
      var lists = nomes.load(base).catch(function () { return null; });
      return Promise.all([names, ident, notice, lists]).then(function (r) {
        var rules = r[3] ? r[3].rules : null;
        rulesLoaded = rules;
        var ranked = rules ? rankNames(q, r[0] || [], rules) : { items: [], typo: false };
        var placed = r[3] ? places(q, r[3], ranked) : { items: [], answered: false };
        // names guessed from a typing error only where nothing matched as typed (Floripa: not Florínea)
        var guessesOnly = ranked.typo && (placed.answered || !!r[1]);
        return { names: guessesOnly ? [] : ranked.items, typoNames: ranked.typo && !guessesOnly, ident: r[1],
                 notice: r[2] ? r[2][k] || null : null, places: placed.items, looksLikeNotice: noticeShape.test(k),
                 journey: placed.journey || null };
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
      var looked = q ? lookups(q) : Promise.resolve(null);
      var found = looked.then(function (l) {  // a journey typed: its two places' names (places() above)
        return pagefind ? pagefind.search((l && l.journey) || q || null, { filters: filters }) : null;
      });
      Promise.all([looked, found]).then(function (r) {
        if (mine !== run) { return; }
        var exact = [], guessed = null;
        if (r[0] && !filtered) {
          if (r[0].ident) { exact.push([r[0].ident[2] || "Registro", r[0].ident[1], r[0].ident[0]]); }
          r[0].places.forEach(function (p) {
            exact.push([p.kind, p.title, p.url, p.text]);
            if (p.typo && !guessed) { guessed = p.title; }
          });
          r[0].names.forEach(function (n) { exact.push([n[3], n[1], n[2]]); });
          if (r[0].typoNames && !guessed && r[0].names.length) { guessed = r[0].names[0][1]; }
        }
        if (r[0] && r[0].notice) { showNotice(r[0].notice); }
        exact.forEach(function (e) {
          if (exactUrls[e[2]]) { return; }
          exactUrls[e[2]] = true;
          item(e[0], e[1], e[2], e[3] || "Registro com este nome ou identificador");
        });
        pending = r[1] ? r[1].results.slice() : [];
        var total = pending.length;
        var parts = [];
        if (guessed && rulesLoaded) { parts.push(rulesLoaded.mensagens.quis_dizer.replace("{nome}", guessed)); }
        if (r[0] && r[0].notice) { parts.push("1 auto de infração com este número"); }
        // a notice's shape, where no source has notices, and no record of that identifier (a line prefix
        // "12-0140-00" is digits too): said, rather than a bare count
        if (r[0] && !r[0].notice && !r[0].ident && r[0].looksLikeNotice && !noticesCovered) {
          parts.push("nenhuma fonte deste site traz autos de infração: um número de auto não é encontrado aqui");
        }
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
