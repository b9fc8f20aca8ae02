// "De ... Para ...": answers in the page from /cidades/index.json and the pair's own small JSON
// (pipeline/site/cities.py). Names match without accents or case. Every value is set as text, never as HTML.
(function () {
  "use strict";
  var DIAS = ["Seg", "Ter", "Qua", "Qui", "Sex", "Sáb", "Dom"];

  var fold = window.portal.fold;
  var el = window.portal.el;

  // the site may be served from a sub-path: the form's action (/cidades/, rewritten with the site) says which
  var base = "";
  function link(text, href) { return el("a", text, { href: base + href }); }

  function reais(v) {
    return "R$ " + Number(v).toLocaleString("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }

  // "São Paulo (SP)", "sao paulo", "SAO PAULO/SP": the places whose name (or a source spelling) matches
  function find(places, typed) {
    var m = /^(.*\S)[\s(\/-]+([A-Za-z]{2,3})\)?\s*$/.exec(typed.trim());
    var name = fold(typed), uf = null;
    var hits = places.filter(function (p) { return p.busca.indexOf(name) >= 0; });
    if (!hits.length && m && m[2]) {
      name = fold(m[1]); uf = m[2].toUpperCase();
      hits = places.filter(function (p) { return p.uf === uf && p.busca.indexOf(name) >= 0; });
    }
    return hits;
  }

  // a table of the answer: the first cell of a row is its header; ``opts.attrs`` the table's attributes,
  // ``opts.rowAttrs[k]`` those of row k
  function table(caption, head, rows, opts) {
    opts = opts || {};
    var t = el("table", null, opts.attrs || {}), thead = el("thead"), tr = el("tr"), tbody = el("tbody");
    t.appendChild(el("caption", caption));
    head.forEach(function (h) { tr.appendChild(el("th", h, { scope: "col" })); });
    thead.appendChild(tr); t.appendChild(thead);
    rows.forEach(function (cells, r) {
      var row = el("tr", null, (opts.rowAttrs || [])[r] || {});
      cells.forEach(function (c, k) {
        var cell = el(k === 0 ? "th" : "td", null, k === 0 ? { scope: "row" } : {});
        (Array.isArray(c) ? c : [c]).forEach(function (part, n) {
          if (n) { cell.appendChild(document.createTextNode(", ")); }
          cell.appendChild(part instanceof Node ? part : document.createTextNode(String(part)));
        });
        row.appendChild(cell);
      });
      tbody.appendChild(row);
    });
    t.appendChild(tbody);
    return t;
  }

  function number(n) { return n.toLocaleString("pt-BR"); }

  // the same words as pipeline/site/cities.py sources_sentence(): the answer's sources, and what it cannot consider
  function sourcesSentence(r) {
    var text = r.fonte ? "Fonte: " + r.fonte + "." : "Fonte: nenhuma fonte cobre estas tabelas.";
    var missing = r.nao_cobertas || [];
    if (missing.length) {
      text += " Esta resposta não considera " + (missing.length === 1 ? missing[0]
        : missing.slice(0, -1).join(", ") + " nem " + missing[missing.length - 1]) + ": as fontes deste site não os incluem.";
    }
    return text;
  }

  // "Seg, Qua, Sex", "todos os dias" (theme/templates/_rota.html)
  function days(flags) {
    var on = DIAS.filter(function (d, k) { return flags[k]; });
    return on.length === DIAS.length ? "todos os dias" : on.length ? on.join(", ") : "nenhum dia marcado na fonte";
  }

  // what a line's row says of how it links the pair, and of a terminal filed under a municipality
  function linkText(l, de, para) {
    var text = l.ligacao + (l.por_paradas ? "; para em " + de.nome + " e depois em " + para.nome + " no seu esquema operacional"
      : l.por_secao ? "; para em " + de.nome + " por uma seção (art. 3º XXI)" : "");
    (l.notas || []).forEach(function (n) { text += "; " + n; });
    return text;
  }

  function weekly(l) {
    if (l.partidas_semana === null) { return "sem horários desta parada na fonte"; }
    return l.sem_horario ? number(l.partidas_sem_horario) + ", não contadas: " + l.nota : number(l.partidas_semana);
  }

  // one row per line and time (pipeline/site/cities.py), filtered by theme/static/js/partidas.js
  function departures(de, r) {
    var caption = "Partidas de " + de.nome + " para " + r.para.nome + ": " + number(r.partidas_semana) + " por semana" +
      (r.partidas_sem_horario ? ", mais " + number(r.partidas_sem_horario) + " sem horário informado pela fonte, não contadas" : "") +
      "; uma por linha e horário";
    return table(caption, ["Horário", "Linha", "Transportadora", "Classe", "Dias", "Meses"],
      r.partidas.map(function (p) {
        return [p.sem_horario ? p.nota : p.horario, link(p.linha, p.url),
          p.transportadora ? link(p.transportadora.nome, p.transportadora.url) : "—", p.categoria, days(p.dias),
          p.meses === null ? "o ano todo" : "só em " + p.meses.join(", ")];
      }), {
        attrs: { "class": "partidas cartoes", "data-partidas": "" },
        rowAttrs: r.partidas.map(function (p) {
          return { "data-dias": p.dias.map(function (on) { return on ? "1" : "0"; }).join(""), "data-categoria": p.categoria };
        })
      });
  }

  function render(out, de, dest) {
    out.textContent = "";
    var r = dest;
    var h = el("h2", "De " + de.nome + " (" + de.uf + ") para " + r.para.nome + " (" + r.para.uf + ")", { tabindex: "-1" });
    out.appendChild(h);
    if (r.paralisadas && r.paralisadas.length) {  // said, never offered (pipeline/site/cities.py)
      var stop = out.appendChild(el("div", null, { "class": "aviso", role: "note" }));
      stop.appendChild(el("p", "Paralisado: segundo o regulador, o trecho de " + de.nome + " para " + r.para.nome +
        " está paralisado nas linhas abaixo, que por isso não são oferecidas aqui, nem suas partidas:"));
      var ul = stop.appendChild(el("ul"));
      r.paralisadas.forEach(function (x) {
        var li = ul.appendChild(el("li"));
        li.appendChild(link(x.prefixo, x.url));
        li.appendChild(document.createTextNode(", linha " + x.ligacao + ": trecho paralisado desde " + x.desde_texto));
      });
    }
    out.appendChild(el("p", r.linhas.length + (r.linhas.length === 1 ? " linha" : " linhas") +
      (r.partidas_semana ? ", " + number(r.partidas_semana) + (r.partidas_semana === 1 ? " partida" : " partidas") +
        " por semana a partir de " + de.nome : "") +
      (r.partidas_sem_horario ? "; " + number(r.partidas_sem_horario) + (r.partidas_sem_horario === 1 ? " partida" : " partidas") +
        " por semana de linhas sem horário informado pela fonte (00:00 na exportação), não contadas" : "") + "."));
    out.appendChild(el("p", sourcesSentence(r), { "class": "fonte" }));
    if (r.linhas.length) {
      out.appendChild(table("Linhas de " + de.nome + " (" + de.uf + ") para " + r.para.nome + " (" + r.para.uf + ")",
        ["Linha", "Ligação", "Transportadoras", "Partidas por semana"],
        r.linhas.map(function (l) {
          return [link(l.prefixo, l.url), linkText(l, de, r.para),
            l.transportadoras.length ? l.transportadoras.map(function (c) { return link(c.nome, c.url); }) : "—", weekly(l)];
        }), { attrs: { "class": "rota-linhas cartoes" } }));
    }
    var stopped = r.paralisadas && r.paralisadas.length;
    if (r.partidas.length) {
      var grid = out.appendChild(departures(de, r));
      if (window.portal.partidas) { window.portal.partidas(grid); }
    } else if (stopped && !r.linhas.length) {
      out.appendChild(el("p", "Nenhuma partida oferecida de " + de.nome + " para " + r.para.nome +
        ": o trecho está paralisado em todas as linhas que o servem.", { "class": "vazio" }));
    } else if ((r.nao_cobertas || []).indexOf("quadros de horários") < 0) {  // a source covers the timetable
      out.appendChild(el("p", "Nenhuma partida de " + de.nome + " para " + r.para.nome + " nos quadros de horários das fontes" +
        (stopped ? ", além das linhas paralisadas para este trecho" : "") + ".", { "class": "vazio" }));
    }
    var fares = [];
    r.linhas.forEach(function (l) {
      l.tarifas.forEach(function (f) { fares.push([f.categoria, f.trecho, link(l.prefixo, l.url), reais(f.valor)]); });
    });
    if (fares.length) {
      out.appendChild(table("Tarifas máximas em vigor", ["Categoria", "Trecho", "Linha", "Tarifa máxima"], fares));
    }
    if (r.bilhetes && r.bilhetes.length) {  // Monitriip: the same table as the pair's page
      out.appendChild(table("Bilhetes vendidos por mês da viagem (Monitriip)", ["Mês da viagem", "Bilhetes", "Pagos", "Valor médio pago"],
        r.bilhetes.map(function (m) {
          return [m.mes_texto, number(m.bilhetes), number(m.pagos),
            m.valor_medio_pago === null ? "—" : reais(m.valor_medio_pago)];
        })));
    }
    out.appendChild(el("p")).appendChild(link("Todos os destinos a partir de " + de.nome, de.url));
    h.focus();
  }

  function say(out, text, choices) {
    out.textContent = "";
    out.appendChild(el("p", text, { role: "status" }));
    if (choices && choices.length) {
      var ul = el("ul");
      choices.slice(0, 20).forEach(function (p) { ul.appendChild(el("li")).appendChild(link(p.nome + " (" + p.uf + ")", p.url)); });
      out.appendChild(ul);
    }
  }

  function getJSON(url) {
    return fetch(url).then(function (resp) {
      if (!resp.ok) { throw new Error(url + ": " + resp.status); }
      return resp.json();
    });
  }

  window.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form[data-rotas]");
    var out = document.getElementById("resposta");
    if (!form || !out || !window.fetch) { return; }
    base = window.portal.base(form);
    var places = getJSON(base + "/cidades/index.json");
    places.then(function (list) {
      var datalist = document.getElementById("lista-cidades");
      list.forEach(function (p) { datalist.appendChild(el("option", null, { value: p.nome + " (" + p.uf + ")" })); });
    });
    function answer(deText, paraText, push) {
      places.then(function (list) {
        var de = find(list, deText), para = paraText ? find(list, paraText) : [];
        if (!de.length) { return say(out, "Nenhuma cidade encontrada para “" + deText + "”."); }
        if (de.length > 1) { return say(out, "Mais de uma cidade corresponde a “" + deText + "”: escolha uma (acrescente a UF, por exemplo “" + de[0].nome + " (" + de[0].uf + ")”).", de); }
        if (!paraText) { window.location.href = base + de[0].url; return; }
        if (!para.length) { return say(out, "Nenhuma cidade encontrada para “" + paraText + "”."); }
        if (para.length > 1) { return say(out, "Mais de uma cidade corresponde a “" + paraText + "”: acrescente a UF, por exemplo “" + para[0].nome + " (" + para[0].uf + ")”.", para); }
        if (push) {
          var url = new URL(window.location.href);
          url.searchParams.set("de", deText); url.searchParams.set("para", paraText);
          window.history.replaceState(null, "", url.toString());
        }
        if (de[0].destinos.indexOf(list.indexOf(para[0])) < 0) {
          return say(out, "Nenhuma linha das fontes liga " + de[0].nome + " (" + de[0].uf + ") a " + para[0].nome + " (" + para[0].uf + ").", []);
        }
        return getJSON(base + de[0].url + "para/" + para[0].chave.replace("/", "-") + ".json").then(function (hit) {
          render(out, hit.de, hit);
        });
      }).catch(function (err) { say(out, "Não foi possível carregar os dados das cidades (" + err.message + ")."); });
    }
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      answer(form.elements.de.value, form.elements.para.value, true);
    });
    var params = new URLSearchParams(window.location.search);
    if (params.get("de")) {
      form.elements.de.value = params.get("de");
      form.elements.para.value = params.get("para") || "";
      if (params.get("para")) { answer(params.get("de"), params.get("para"), false); }
    }
  });
}());
