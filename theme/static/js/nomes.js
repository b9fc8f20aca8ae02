// Names as people type them, matched to what they mean: a place, a journey between two, a carrier.
// The twin of pipeline/places/matching.py, applying its constants (/busca/regras.json) to /cidades/index.json;
// the same worked examples (pipeline/places/exemplos-busca.json) test both (tests/test_matching.py).
// Needs comum.js (window.portal.foldName).
(function () {
  "use strict";
  var foldName = window.portal.foldName;
  var EXACT = 0, PREFIX = 1, TYPO = 2;

  function allowedEdits(word, rules) {
    var allowed = 0;
    rules.edicoes.forEach(function (e) { if (word.length >= e[0]) { allowed = e[1]; } });
    return allowed;
  }

  // optimal string alignment distance, or limit + 1 as soon as it must exceed limit
  function distance(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit) { return limit + 1; }
    var prev2 = null, prev = [], i, j;
    for (j = 0; j <= b.length; j++) { prev.push(j); }
    for (i = 1; i <= a.length; i++) {
      var row = [i];
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) { row[j] = Math.min(row[j], prev2[j - 2] + 1); }
      }
      if (Math.min.apply(null, row) > limit) { return limit + 1; }
      prev2 = prev; prev = row;
    }
    return prev[b.length] <= limit ? prev[b.length] : limit + 1;
  }

  // [level, errors, rank within them], or null: as pipeline/places/matching.py compare()
  function compare(typed, spelling, rules) {
    var words = spelling.split(" ");
    if (typed.join(" ") === spelling) { return [EXACT, 0, 0]; }
    var errors = 0;
    for (var k = 0; k < typed.length; k++) {
      var w = typed[k];
      if (words.some(function (n) { return n.indexOf(w) === 0; })) { continue; }
      var allowed = allowedEdits(w, rules), best = allowed + 1;
      if (allowed) { words.forEach(function (n) { best = Math.min(best, distance(w, n, allowed)); }); }
      if (best > allowed) { return null; }
      errors += best;
    }
    if (errors > rules.max_edicoes) { return null; }
    if (errors) { return [TYPO, errors, Math.max(words.length - typed.length, 0)]; }
    return [PREFIX, 0, spelling.indexOf(typed.join(" ")) === 0 ? 0 : 1];
  }

  function less(a, b, n) {  // a < b on their first n numbers
    for (var k = 0; k < n; k++) { if (a[k] !== b[k]) { return a[k] < b[k]; } }
    return false;
  }

  // {items, level, unique, spelling, uf, initial}: as pipeline/places/matching.py rank()
  function rank(typed, candidates, rules, uf) {
    var nickname = rules.apelidos[typed.join(" ")], scored = [];
    candidates.forEach(function (c, position) {
      var best = null;
      c.busca.forEach(function (spelling) {
        var key = compare(typed, spelling, rules);
        if (key && (!best || less(key, best[0], 3))) { best = [key, spelling]; }
      });
      if (nickname !== undefined && c.chave === nickname && (!best || best[0][0] > EXACT)) { best = [[EXACT, 0, 0], c.busca[0]]; }
      if (best) { scored.push({ key: best[0].concat([-(c.linhas || 0), position]), spelling: best[1], item: c }); }
    });
    scored.sort(function (a, b) { return less(a.key, b.key, 5) ? -1 : less(b.key, a.key, 5) ? 1 : 0; });
    if (scored.length && scored[0].key[0] < TYPO) {  // a mistyped name only when nothing else matches
      scored = scored.filter(function (s) { return s.key[0] < TYPO; });
    }
    if (!scored.length) { return { items: [], level: null, unique: false, spelling: "", uf: uf || null, initial: false }; }
    var first = scored[0].key, unique = scored.length === 1 || less(first, scored[1].key, 3);
    return { items: scored.map(function (s) { return s.item; }), level: first[0], unique: unique,
             spelling: scored[0].spelling, uf: uf || null, initial: first[0] === EXACT || (first[0] === PREFIX && first[2] === 0) };
  }

  function findPlace(places, typed, rules) {
    var words = foldName(typed).split(" ").filter(Boolean);
    if (!words.length) { return { items: [], level: null, unique: false, spelling: "", uf: null, initial: false }; }
    var found = rank(words, places, rules);
    var last = words[words.length - 1];
    if (words.length > 1 && rules.ufs.indexOf(last) >= 0) {
      var inUf = rank(words.slice(0, -1), places.filter(function (p) { return p.uf === last; }), rules, last);
      if (inUf.items.length && (!found.items.length || inUf.level <= found.level)) { return inUf; }
    }
    return found;
  }

  function escape(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function plain(text) {  // accented letters replaced one for one by their base letter
    return text.split("").map(function (ch) { return ch.normalize("NFKD").charAt(0) || ch; }).join("");
  }

  // [[left, right]...], and whether the person marked the division: as pipeline/places/matching.py _splits()
  function splits(text, rules) {
    var folded = foldName(text), out = [];
    var leadingDe = folded.indexOf("DE ") === 0 && folded.split(" ").length > 2;
    if (leadingDe) { text = text.replace(/^\s*de\s+/i, ""); }
    var signs = rules.sinais_entre_lugares.slice().sort(function (a, b) { return b.length - a.length; }).map(escape).join("|");
    var words = rules.palavras_entre_lugares.join("|") + (leadingDe ? "|A" : "");
    var pattern = new RegExp("\\s+(?:" + signs + ")\\s+|\\s+(?:" + words + ")\\s+", "gi");
    var p = plain(text), m;
    while ((m = pattern.exec(p)) !== null) { out.push([text.slice(0, m.index), text.slice(m.index + m[0].length)]); }
    if (out.length) { return { splits: out, explicit: true }; }
    var parts = text.trim().split(/\s+/);
    for (var k = 1; k < parts.length; k++) { out.push([parts.slice(0, k).join(" "), parts.slice(k).join(" ")]); }
    return { splits: out, explicit: leadingDe };
  }

  function unarticled(side, rules) {  // one end of a journey without the article before it ("o Rio")
    var words = side.trim().split(/\s+/);
    return words.length > 1 && rules.artigos.indexOf(foldName(words[0])) >= 0 ? words.slice(1).join(" ") : side;
  }

  // [origin, destination] when typed is a journey, else null: as pipeline/places/matching.py find_journey()
  function findJourney(places, typed, rules) {
    var whole = findPlace(places, typed, rules);
    if (whole.items.length && whole.level === EXACT) { return null; }
    var divided = splits(typed, rules), explicit = divided.explicit;
    var best = null;
    divided.splits.forEach(function (s) {
      var a = findPlace(places, unarticled(s[0], rules), rules), b = findPlace(places, unarticled(s[1], rules), rules);
      if (!a.items.length || !b.items.length) { return; }
      if (!explicit && Math.max(a.level, b.level) > EXACT) { return; }
      if (a.items[0] === b.items[0] && a.unique && b.unique) { return; }
      var score = [a.level + b.level, a.unique && b.unique ? 0 : 1];
      if (!best || less(score, best[0], 2)) { best = [score, a, b]; }
    });
    return best ? [best[1], best[2]] : null;
  }

  // the part of a municipality a spelling names ("Taguatinga (DF), região administrativa de Brasília"), or ""
  function part(found, rules) {
    return found.items.length ? rules.partes[found.items[0].uf + "/" + found.spelling] || "" : "";
  }

  // what to say where no line links two places, a same-state trip saying whose service it is: as
  // pipeline/places/matching.py no_line()
  // a message naming two places and the first one's state ({de}, {para}, {estado}), as the Python side's format()
  function fill(text, de, para, rules) {
    return text.replace(/\{de\}/g, de.nome + " (" + de.uf + ")").replace(/\{para\}/g, para.nome + " (" + para.uf + ")")
      .replace(/\{estado\}/g, rules.estados[de.uf] || de.uf);
  }
  function noLine(de, para, rules) {
    return fill(rules.mensagens.sem_linha, de, para, rules) +
      (de.uf === para.uf ? " " + fill(rules.mensagens.mesmo_estado, de, para, rules) : "");
  }

  // the journeys with one change of bus from places[de] to places[para], best first: as
  // pipeline/places/journeys.py one_change(), tested on the same worked examples (tests/fixtures/baldeacoes.json)
  function leg(place, to) {  // [weekly departures, km or null, no departures in the sources] or null: journeys.py leg()
    var k = place.destinos.indexOf(to), w = k < 0 ? null : place.partidas[k];
    if (w === null || w === undefined) { return null; }
    return [w, place.km ? place.km[k] : null, lacks(place, "horarios", to)];  // journeys.py untimed
  }
  function length(j) {  // both legs' length where the sources give both, else after every known length
    return j.km[0] !== null && j.km[1] !== null ? j.km[0] + j.km[1] : Infinity;
  }
  function oneChange(places, de, para) {
    var start = places[de];
    if (de === para || start.destinos.indexOf(para) >= 0) { return []; }
    var found = [];
    start.destinos.forEach(function (via) {
      var first = leg(start, via), second = leg(places[via], para);
      if (first && second && via !== para) {
        found.push({ via: via, partidas: [first[0], second[0]], km: [first[1], second[1]],
                     sem_horarios: [first[2], second[2]] });
      }
    });
    found.sort(function (a, b) {
      var la = length(a), lb = length(b);
      return (Math.min(b.partidas[0], b.partidas[1]) - Math.min(a.partidas[0], a.partidas[1])) ||
        (b.partidas[0] + b.partidas[1] - a.partidas[0] - a.partidas[1]) ||
        (la === lb ? 0 : la < lb ? -1 : 1) || (a.via - b.via);
    });
    return found;
  }

  // where the answer from ``de`` to ``para`` (a place of ``places`` it has an answer for) is read without
  // JavaScript: its own page, or de's row of destinations when the pair has none (pipeline/site/cities.py
  // own_page, answer_url: the index lists those in ``sem_pagina``, or the others in ``com_pagina``)
  function inRow(places, de, para) { return lacks(de, "pagina", places.indexOf(para)); }

  // whether place's destination at position k is without name (its departures, "horarios"; its page, "pagina"):
  // index.json lists the fewer of those (sem_<name>) or of the others (com_<name>) (journeys.py lacks)
  function lacks(place, name, k) {
    var others = place["com_" + name];
    return others ? others.indexOf(k) < 0 : (place["sem_" + name] || []).indexOf(k) >= 0;
  }
  function answerUrl(places, de, para) {
    var other = para.chave.replace("/", "-");
    return inRow(places, de, para) ? de.url + "#para-" + other : de.url + "para/" + other + "/";
  }

  var loaded = {};
  function load(base) {  // the places and the rule's constants, fetched once
    if (!loaded[base]) {
      var get = function (url) {
        return fetch(url).then(function (r) { if (!r.ok) { throw new Error(url + ": " + r.status); } return r.json(); });
      };
      loaded[base] = Promise.all([get(base + "/cidades/index.json"), get(base + "/busca/regras.json")])
        .then(function (r) { return { places: r[0], rules: r[1] }; });
    }
    return loaded[base];
  }

  window.portal.nomes = { rank: rank, findPlace: findPlace, findJourney: findJourney, part: part, noLine: noLine, load: load,
                          oneChange: oneChange, fill: fill, answerUrl: answerUrl, inRow: inRow,
                          compare: compare, distance: distance };
}());
