// "De ... Para ...": answers in the page from /cidades/index.json and the pair's own small JSON
// (pipeline/site/cities.py). Places are found however typed by the rule of nomes.js (pipeline/places/matching.py):
// accents, nicknames, "cidade uf", typing errors ("Você quis dizer"), a journey typed in "De" alone.
// Every value is set as text, never as HTML.
(function () {
  "use strict";
  var DIAS = ["Seg", "Ter", "Qua", "Qui", "Sex", "Sáb", "Dom"];

  var el = window.portal.el;

  // the site may be served from a sub-path: the form's action (/cidades/, rewritten with the site) says which
  var base = "";
  function link(text, href) { return el("a", text, { href: href }); }

  var reais = window.portal.reais;

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

  var number = window.portal.numero;

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

  // an attribute of the form, as the build wrote it ("" when absent)
  function asked(name) {
    var form = document.querySelector("form[data-rotas]");
    return form ? form.getAttribute(name) || "" : "";
  }

  // one row per line and time (pipeline/site/cities.py), filtered by theme/static/js/partidas.js
  function departures(de, r) {
    var caption = "Partidas de " + de.nome + " para " + r.para.nome + ": " + number(r.partidas_semana) + " por semana" +
      (r.epoca ? " (" + r.epoca + ")" : "") + (r.partidas_sem_horario ? ", mais " + number(r.partidas_sem_horario) + " sem horário informado pela fonte, não contadas" : "") +
      "; uma por linha e horário";
    return table(caption, ["Horário", "Linha", "Transportadora", "Classe", "Dias", "Meses"],
      r.partidas.map(function (p) {
        return [p.sem_horario ? p.nota : p.horario, link(p.linha, p.url),
          p.transportadora ? link(p.transportadora.nome, p.transportadora.url) : "—", p.categoria, days(p.dias),
          p.meses === null ? "o ano todo" : "só em " + p.meses.join(", ")];
      }), {
        attrs: { "class": "partidas cartoes", "data-partidas": "", "data-meses-do-ano": asked("data-meses-do-ano") },
        rowAttrs: r.partidas.map(function (p) {
          var row = { "data-dias": p.dias.map(function (on) { return on ? "1" : "0"; }).join(""), "data-categoria": p.categoria };
          if (p.meses !== null) { row["data-meses"] = p.meses.join(" "); }
          return row;
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
        " por semana a partir de " + de.nome + (r.epoca ? " (" + r.epoca + ")" : "") : "") +
      (r.partidas_sem_horario ? "; " + number(r.partidas_sem_horario) + (r.partidas_sem_horario === 1 ? " partida" : " partidas") +
        " por semana de linhas sem horário informado pela fonte (00:00 na exportação), não contadas" : "") + "."));
    out.appendChild(el("p", r.frase_fonte, { "class": "fonte" }));  // cities.py sources_sentence(), as the page
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
    if (r.linhas.length) {
      var lines = table("Linhas de " + de.nome + " (" + de.uf + ") para " + r.para.nome + " (" + r.para.uf + ")",
        ["Linha", "Ligação", "Transportadoras", "Partidas por semana"],
        r.linhas.map(function (l) {
          return [link(l.prefixo, l.url), linkText(l, de, r.para),
            l.transportadoras.length ? l.transportadoras.map(function (c) { return link(c.nome, c.url); }) : "—", weekly(l)];
        }), { attrs: { "class": "rota-linhas cartoes" } });
      if (r.linhas.length > Number(asked("data-linhas-abertas") || Infinity)) {  // as the page: _rota.html
        var more = out.appendChild(el("details", null, { "class": "rota-linhas" }));
        more.appendChild(el("summary", r.linhas.length + " linhas de " + de.nome + " para " + r.para.nome +
          ": ligação, transportadoras e partidas por semana de cada uma"));
        more.appendChild(lines);
      } else {
        out.appendChild(lines);
      }
    }
    var fares = [];
    r.linhas.forEach(function (l) {
      l.tarifas.forEach(function (f) { fares.push([f.categoria, f.trecho, link(l.prefixo, l.url), reais(f.valor)]); });
    });
    if (fares.length) {
      // the rule of 1993 named as the pages name it (the form's data-pelas-regras: pipeline/read/provenance.py)
      out.appendChild(table("Tarifas máximas vigentes " + asked("data-pelas-regras"),
                            ["Categoria", "Trecho", "Linha", "Tarifa máxima"], fares));
    }
    if (r.contradicao) {  // the tickets against the other publications, as the page says it (cities.py contradiction)
      var note = out.appendChild(el("p", null, { "class": "aviso", role: "note" }));
      note.appendChild(el("strong", "Publicações que se contradizem:"));
      note.appendChild(document.createTextNode(" " + r.contradicao));
    }
    if (r.bilhetes && r.bilhetes.length) {  // Monitriip: the same table as the pair's page
      // the mean price paid beside the month, in view on a phone's narrow screen (as the page)
      out.appendChild(table("Bilhetes vendidos por mês da viagem (Monitriip)", ["Mês da viagem", "Valor médio pago", "Bilhetes", "Pagos"],
        r.bilhetes.map(function (m) {
          return [m.mes_texto, m.valor_medio_pago === null ? "—" : reais(m.valor_medio_pago), number(m.bilhetes), number(m.pagos)];
        })));
    }
    out.appendChild(el("p")).appendChild(link("Todos os destinos a partir de " + de.nome, de.url));
    h.focus();
  }

  function label(p) { return p.nome + " (" + p.uf + ")"; }

  // a message; ``choices``: [text, href] links (a place to choose keeps the other end of the trip)
  function say(out, text, choices) {
    out.textContent = "";
    out.appendChild(el("p", text, { role: "status" }));
    if (choices && choices.length) {
      var ul = el("ul", null, { "class": "escolhas" });
      choices.slice(0, 20).forEach(function (c) { ul.appendChild(el("li")).appendChild(el("a", c[0], { href: c[1] })); });
      out.appendChild(ul);
    }
  }

  function count(n, one, many) { return number(n) + " " + (n === 1 ? one : many); }

  // a leg of a journey with one change: its lines and carriers, then its departures (days, months), as the pair's answer
  function leg(box, hit, rules) {
    var de = hit.de, para = hit.para;
    if (de.uf === para.uf) {  // pipeline/places/journeys.py MESSAGES
      box.appendChild(el("p", window.portal.nomes.fill(rules.mensagens.trecho_mesmo_estado, de, para, rules),
        { "class": "nota", role: "note" }));
    }
    var ul = box.appendChild(el("ul", null, { "class": "trecho-linhas" }));
    hit.linhas.forEach(function (l) {
      var li = ul.appendChild(el("li"));
      li.appendChild(link(l.prefixo, l.url));
      li.appendChild(document.createTextNode(" " + linkText(l, de, para) + ": "));
      l.transportadoras.forEach(function (c, k) {
        if (k) { li.appendChild(document.createTextNode(", ")); }
        li.appendChild(link(c.nome, c.url));
      });
      li.appendChild(document.createTextNode("; " + (l.partidas_semana === null || l.sem_horario ? weekly(l)
        : count(l.partidas_semana, "partida", "partidas") + " por semana")));
    });
    if (hit.partidas.length) {
      var grid = box.appendChild(departures(de, hit));
      if (window.portal.partidas) { window.portal.partidas(grid); }
    } else if ((hit.nao_cobertas || []).indexOf("quadros de horários") < 0) {
      box.appendChild(el("p", "Nenhuma partida de " + de.nome + " para " + para.nome + " nos quadros de horários das fontes.",
        { "class": "vazio" }));
    }
    box.appendChild(el("p")).appendChild(link("A resposta de " + label(de) + " para " + label(para), hit.url));
  }

  // where no line links two places: the journeys with one change (nomes.js oneChange), each leg's answer fetched
  function changes(out, list, rules, de, para) {
    var found = window.portal.nomes.oneChange(list, list.indexOf(de), list.indexOf(para));
    if (!found.length) { return; }
    var m = rules.mensagens, shown = found.slice(0, rules.baldeacoes_mostradas);
    var box = out.appendChild(el("section", null, { "class": "baldeacoes", "aria-labelledby": "baldeacoes-titulo" }));
    box.appendChild(el("h2", "Com uma baldeação", { id: "baldeacoes-titulo" }));
    box.appendChild(el("p", m.baldeacao.replace("{n}", count(found.length, "caminho", "caminhos")) +
      (found.length > 1 ? " " + m.baldeacao_ordem : "")));
    box.appendChild(el("p", m.baldeacao_aviso, { "class": "aviso", role: "note" }));
    var ol = box.appendChild(el("ol", null, { "class": "baldeacoes" }));
    shown.forEach(function (j) {
      var via = list[j.via], li = ol.appendChild(el("li"));
      var km = j.km[0] !== null && j.km[1] !== null ? "; " + number(j.km[0] + j.km[1], 1) +
        " km pelas extensões das fontes" : "";
      function often(k) {  // a leg's weekly departures, or that no source gives them (journeys.py MESSAGES)
        return j.sem_horarios[k] ? m.trecho_sem_horarios : count(j.partidas[k], "partida", "partidas") + " por semana";
      }
      li.appendChild(el("h3", "Por " + label(via) + ": trecho 1, " + often(0) + "; trecho 2, " + often(1) + km));
      [[de, via], [via, para]].forEach(function (ends, k) {
        var details = li.appendChild(el("details", null, { "class": "trecho" }));
        details.appendChild(el("summary", "Trecho " + (k + 1) + ": de " + label(ends[0]) + " para " + label(ends[1]) + ", " +
          often(k)));
        answerOf(list, ends[0], ends[1])
          .then(function (hit) { leg(details, hit, rules); })
          .catch(function (err) { details.appendChild(el("p", "Não foi possível carregar este trecho (" + err.message + ").")); });
      });
    });
    if (found.length > shown.length) {
      box.appendChild(el("p", m.baldeacao_mais.replace("{n}", number(found.length - shown.length)).replace("{m}", shown.length)));
    }
  }

  // a pair's answer: its own file, or, for a pair answered in its origin's row (nomes.js inRow), the origin's
  // file of those answers (pipeline/site/cities.py answers_json), with what every answer says of its sources
  // (/cidades/fontes.json); the shared files fetched once
  var once = {};
  function shared(url) {
    if (!once[url]) {
      once[url] = getJSON(url);
      once[url].catch(function () { delete once[url]; });
    }
    return once[url];
  }
  function answerOf(list, de, para) {
    var other = para.chave.replace("/", "-");
    var answer = window.portal.nomes.inRow(list, de, para) ?
      shared(de.url + "destinos.json").then(function (rows) {
        if (!rows.respostas[other]) { throw new Error(de.url + "destinos.json: " + other); }
        return Object.assign({ de: rows.de }, rows.respostas[other]);  // a copy: the file's answers stay as read
      }) : getJSON(de.url + "para/" + other + ".json");
    return Promise.all([answer, shared(base + "/cidades/fontes.json")]).then(function (both) {
      var hit = both[0], f = both[1];
      hit.fonte = f.fonte; hit.nao_cobertas = f.nao_cobertas; hit.frase_fonte = f.frase;
      return hit;
    });
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
    var nomes = window.portal.nomes;
    // the places (/cidades/index.json) are fetched when the form is first used, not with the page
    var pending = null;
    function places() {
      if (!pending) {
        pending = nomes.load(base);
        pending.then(function (data) {
          var datalist = document.getElementById("lista-cidades");
          data.places.forEach(function (p) { if (!p.nota) { datalist.appendChild(el("option", null, { value: label(p) })); } });
        }).catch(function () { pending = null; });
      }
      return pending;
    }
    form.addEventListener("focusin", function () { places(); });
    form.addEventListener("input", function () { places(); });

    // this page with the two ends in its address: a choice, a shared answer and a reload give the same
    function here(de, para) {
      var url = new URL(window.location.href);
      url.searchParams.set("de", de);
      if (para) { url.searchParams.set("para", para); } else { url.searchParams.delete("para"); }
      url.hash = "";
      return url.pathname + url.search;
    }

    // a place typed: null when it is settled, else what to say (none found, or which to choose)
    function unsettled(found, typed, end, other) {
      if (!found.items.length) { return ["Nenhuma cidade encontrada para “" + typed + "”. Confira o nome ou escolha na lista de cidades.", [["Lista de cidades", base + "/cidades/"]]]; }
      // a town the sources name only in the test company's lines: why it has no answer (cities.py TEST_ONLY)
      if (found.items[0].nota && (found.unique || found.level === 0)) {
        return [found.items[0].nota, [["Página da linha", found.items[0].url]]];
      }
      if (found.unique) { return null; }
      return ["Mais de uma cidade corresponde a “" + typed + "”: escolha uma.",
        found.items.slice(0, 20).map(function (p) {
          return [label(p), end === "de" ? here(label(p), other) : here(other, label(p))];
        })];
    }

    function notesOf(found, rules) {
      var notes = [], part = nomes.part(found, rules);
      if (found.level === 2) { notes.push(rules.mensagens.quis_dizer.replace("{nome}", label(found.items[0]))); }
      if (part) { notes.push(part + ": as linhas estão na resposta de " + found.items[0].nome + "."); }
      return notes;
    }

    function answer(deText, paraText, push) {
      places().then(function (data) {
        var list = data.places, rules = data.rules, deFound, paraFound;
        if (!paraText.trim()) {
          var journey = nomes.findJourney(list, deText, rules);
          if (!journey) {  // the origin alone: stay in the form and ask for the destination
            var only = nomes.findPlace(list, deText, rules), problem = unsettled(only, deText, "de", "");
            if (problem) { return say(out, problem[0], problem[1]); }
            say(out, "De " + label(only.items[0]) + " para onde? Escreva o destino, ou veja todos os destinos a partir de " +
              only.items[0].nome + ".", [["Destinos a partir de " + label(only.items[0]), only.items[0].url]]);
            form.elements.para.focus();
            return;
          }
          deFound = journey[0]; paraFound = journey[1];
          // both ends were typed in "De": each choice keeps the other end by its name
          deText = deFound.unique ? label(deFound.items[0]) : deText;
          paraText = paraFound.unique ? label(paraFound.items[0]) : label(paraFound.items[0]);
          form.elements.de.value = deText; form.elements.para.value = paraText;
        } else {
          deFound = nomes.findPlace(list, deText, rules); paraFound = nomes.findPlace(list, paraText, rules);
        }
        var problem = unsettled(deFound, deText, "de", paraText) || unsettled(paraFound, paraText, "para", deText);
        if (problem) { return say(out, problem[0], problem[1]); }
        var de = deFound.items[0], para = paraFound.items[0];
        var notes = notesOf(deFound, rules).concat(notesOf(paraFound, rules));
        if (push) { window.history.replaceState(null, "", here(deText, paraText)); }
        if (de === para) {
          return say(out, "Origem e destino são a mesma cidade, " + label(de) + ". Escolha outro destino.",
            [["Destinos a partir de " + label(de), de.url]]);
        }
        if (de.destinos.indexOf(list.indexOf(para)) < 0) {
          say(out, notes.concat([nomes.noLine(de, para, rules)]).join(" "),
            [["Destinos a partir de " + label(de), de.url]]);
          changes(out, list, rules, de, para);
          return;
        }
        return answerOf(list, de, para).then(function (hit) {
          render(out, hit.de, hit);
          var heading = out.querySelector("h2");
          notes.slice().reverse().forEach(function (n) {
            out.insertBefore(el("p", n, { "class": "nota", role: "status" }), heading ? heading.nextSibling : out.firstChild);
          });
        });
      }).catch(function (err) { say(out, "Não foi possível carregar os dados das cidades (" + err.message + ")."); });
    }
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      answer(form.elements.de.value, form.elements.para.value, true);
    });
    out.addEventListener("click", function (ev) {  // a choice of place: answered here, the other end kept
      var a = ev.target.closest ? ev.target.closest("ul.escolhas a") : null;
      if (!a || a.getAttribute("href").indexOf("?") < 0) { return; }
      ev.preventDefault();
      var params = new URL(a.href).searchParams;
      form.elements.de.value = params.get("de") || "";
      form.elements.para.value = params.get("para") || "";
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
