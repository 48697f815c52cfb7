// The score pad page: holds the sheet being entered and redraws the score table from
// /scorepad/score.json after every change. Names typed before are remembered on this phone,
// beside the players the box remembers; "Save" keeps the finished pad in the journal.
(function () {
  "use strict";
  var view = JSON.parse(document.getElementById("pad-data").textContent);
  var wonders = {};
  view.wonders.forEach(function (w) { wonders[w.id] = w; });
  var players = [];
  var current = 0;
  var pending = null;
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function known() {
    try { return JSON.parse(localStorage.getItem("scorepad-names") || "[]"); } catch (e) { return []; }
  }

  function remember(name) {
    var names = known().filter(function (n) { return n !== name; });
    names.unshift(name);
    try { localStorage.setItem("scorepad-names", JSON.stringify(names.slice(0, 30))); } catch (e) { /* private mode */ }
  }

  function freeWonder() {
    var used = players.map(function (p) { return p.wonder; });
    var free = view.wonders.filter(function (w) { return used.indexOf(w.id) < 0; });
    return free.length ? free[0].id : view.wonders[0].id;
  }

  function addPlayer() {
    if (players.length >= view.players.max) { return; }
    players.push({ name: "", wonder: freeWonder(), side: "A", stages: 0, cards: [], coins: 0, military: [] });
    drawSeats();
  }

  function drawSeats() {
    var seats = $("seats");
    seats.textContent = "";
    var list = $("known-names");
    list.textContent = "";
    known().concat(view.names).filter(function (n, k, all) { return all.indexOf(n) === k; })
      .forEach(function (n) { list.appendChild(el("option", { value: n })); });
    players.forEach(function (p, i) {
      var li = el("li", { "class": "sp-seat" });
      var name = el("input", { type: "text", list: "known-names", placeholder: "Name", "aria-label": "Name of player " + (i + 1) });
      name.value = p.name;
      name.addEventListener("change", function () { p.name = name.value.trim(); if (p.name) { remember(p.name); } changed(); });
      var wonder = el("select", { "class": "wonder", "aria-label": "Wonder of player " + (i + 1) });
      view.wonders.forEach(function (w) {
        var o = el("option", { value: w.id }, w.name.replace(/^The /, ""));
        if (w.id === p.wonder) { o.selected = true; }
        wonder.appendChild(o);
      });
      wonder.addEventListener("change", function () { p.wonder = wonder.value; p.stages = 0; changed(); });
      var side = el("select", { "aria-label": "Side of player " + (i + 1) });
      ["A", "B"].forEach(function (s) { var o = el("option", { value: s }, s); if (s === p.side) { o.selected = true; } side.appendChild(o); });
      side.addEventListener("change", function () { p.side = side.value; p.stages = 0; changed(); });
      var up = el("button", { type: "button", "class": "small", "aria-label": "Move up" }, "\u2191");
      up.disabled = i === 0;
      up.addEventListener("click", function () { players.splice(i - 1, 0, players.splice(i, 1)[0]); current = i - 1; drawSeats(); });
      var drop = el("button", { type: "button", "class": "small", "aria-label": "Remove" }, "\u2715");
      drop.addEventListener("click", function () { players.splice(i, 1); current = 0; drawSeats(); });
      [name, wonder, side, up, drop].forEach(function (n) { li.appendChild(n); });
      seats.appendChild(li);
    });
    $("add-player").disabled = players.length >= view.players.max;
    changed();
  }

  function drawCity() {
    var tabs = $("tabs");
    tabs.textContent = "";
    players.forEach(function (p, i) {
      var tab = el("button", { type: "button", role: "tab", "aria-selected": String(i === current) }, p.name || "Player " + (i + 1));
      tab.addEventListener("click", function () { current = i; drawCity(); });
      tabs.appendChild(tab);
    });
    var p = players[current];
    $("city").hidden = !p;
    if (!p) { return; }
    var stages = $("stages");
    stages.textContent = "";
    for (var n = 0; n <= wonders[p.wonder].stages[p.side]; n++) {
      var o = el("option", { value: String(n) }, String(n));
      if (n === p.stages) { o.selected = true; }
      stages.appendChild(o);
    }
    $("coins").value = String(p.coins);
    var taken = $("military");
    taken.textContent = "";
    p.military.forEach(function (t, k) {
      var b = el("button", { type: "button", "class": "small taken", "aria-label": "Remove token " + t }, (t > 0 ? "+" : "") + t);
      b.addEventListener("click", function () { p.military.splice(k, 1); changed(); });
      taken.appendChild(b);
    });
    document.querySelectorAll("#cards .card").forEach(function (b) {
      b.setAttribute("aria-pressed", String(p.cards.indexOf(b.dataset.card) >= 0));
    });
  }

  function sheet() {
    return { game: "7wonders", variant: "base", players: players.map(function (p, i) {
      return { name: p.name || "Player " + (i + 1), wonder: p.wonder, side: p.side, stages: p.stages,
               cards: p.cards, coins: p.coins, military: p.military };
    }) };
  }

  function changed() {
    drawCity();
    if (players.length < view.players.min) {
      $("winner").textContent = "Add " + (view.players.min - players.length) + " more player(s).";
      $("table").textContent = "";
      return;
    }
    if (pending) { pending.abort(); }
    pending = new AbortController();
    fetch("/scorepad/score.json", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(sheet()), signal: pending.signal })
      .then(function (r) { return r.json(); })
      .then(drawScores)
      .catch(function (e) { if (e.name !== "AbortError") { $("refusal").hidden = false; $("refusal").textContent = String(e); } });
  }

  function drawScores(data) {
    var refusal = $("refusal");
    refusal.hidden = !data.error;
    refusal.textContent = data.error || "";
    if (data.error) { return; }
    var names = data.players.map(function (p) { return p.name; });
    $("winner").textContent = (data.winners.length > 1 ? "Shared victory: " : "Winner: ") + data.winners.join(", ");
    var table = $("table");
    table.textContent = "";
    table.style.setProperty("--cols", String(names.length));
    var head = el("div", { "class": "sp-line pad-head" });
    head.appendChild(el("span"));
    names.forEach(function (n) { head.appendChild(el("span", { "class": "num" + (data.winners.indexOf(n) >= 0 ? " win" : "") }, n)); });
    table.appendChild(head);
    var reasons = {};
    data.reasons.forEach(function (r) { reasons[r.name] = r; });
    // The rulebook's order (the JSON object's keys come sorted).
    view.categories.filter(function (c) { return c.key in data.players[0].scores; }).forEach(function (category) {
      var key = category.key;
      var row = el("details", { "class": "pad-row sp-row row-" + key });
      var summary = el("summary", { "class": "sp-line" });
      summary.appendChild(el("span", { "class": "label" }, category.label));
      data.players.forEach(function (p) { summary.appendChild(el("span", { "class": "num" }, String(p.scores[key]))); });
      row.appendChild(summary);
      var sources = el("div", { "class": "sp-sources" });
      data.players.forEach(function (p) {
        var box = el("div");
        box.appendChild(el("h3", {}, p.name));
        var ul = el("ul");
        var line = reasons[p.name].lines[key];
        line.parts.forEach(function (part) {
          var li = el("li");
          li.appendChild(el("span", {}, part.reason));
          li.appendChild(el("b", {}, String(part.points)));
          ul.appendChild(li);
        });
        line.notes.forEach(function (note) { ul.appendChild(el("li", { "class": "note" }, note)); });
        if (!line.parts.length && !line.notes.length) { ul.appendChild(el("li", { "class": "none" }, "nothing")); }
        box.appendChild(ul);
        sources.appendChild(box);
      });
      row.appendChild(sources);
      table.appendChild(row);
    });
    var total = el("div", { "class": "sp-line pad-total", id: "totals" });
    total.appendChild(el("span", { "class": "label" }, "Total"));
    data.players.forEach(function (p) { total.appendChild(el("span", { "class": "num" + (data.winners.indexOf(p.name) >= 0 ? " win" : "") }, String(p.total))); });
    table.appendChild(total);
  }

  function save() {
    var error = $("save-error");
    error.hidden = true;
    fetch("/api/pads", { method: "POST", body: JSON.stringify(sheet()),
      headers: { "Content-Type": "application/json", "X-Pairing-Code": $("pairing").value.trim() } })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (answer) {
        if (answer.ok) { window.location.href = answer.body.url; return; }
        error.hidden = false;
        error.textContent = answer.body.error || "Not saved";
      });
  }

  // A photo of the city's cards: scaled down on the phone, read on the box, cards added.
  function scanned(file) {
    var note = $("scanned");
    var p = players[current];
    note.textContent = "Reading\u2026";
    // createImageBitmap reads the file itself: no blob: URL, which the pages' CSP refuses.
    createImageBitmap(file).then(function (image) {
      var scale = Math.min(1, 2400 / Math.max(image.width, image.height));
      var canvas = document.createElement("canvas");
      canvas.width = Math.round(image.width * scale);
      canvas.height = Math.round(image.height * scale);
      canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
      canvas.toBlob(function (blob) {
        var form = new FormData();
        form.append("photo", blob, "city.jpg");
        fetch("/scorepad/scan.json", { method: "POST", body: form })
          .then(function (r) { return r.json(); })
          .then(function (data) {
            if (data.error) { note.textContent = data.error; return; }
            var added = data.cards.filter(function (c) { return p.cards.indexOf(c) < 0; });
            added.forEach(function (c) { p.cards.push(c); });
            note.textContent = (p.name || "This city") + ": " + data.cards.length + " card(s) read" +
              (data.cards.length ? " (" + data.names.join(", ") + ")" : "") + ", " + added.length + " new.";
            changed();
          });
      }, "image/jpeg", 0.9);
    }, function () { note.textContent = "That file is not a photo."; });
  }

  $("photo").addEventListener("change", function () {
    if ($("photo").files.length) { scanned($("photo").files[0]); $("photo").value = ""; }
  });
  $("add-player").addEventListener("click", addPlayer);
  $("save-pad").addEventListener("click", save);
  $("stages").addEventListener("change", function () { players[current].stages = Number($("stages").value); changed(); });
  $("coins").addEventListener("change", function () { players[current].coins = Math.max(0, parseInt($("coins").value, 10) || 0); changed(); });
  document.querySelectorAll(".token").forEach(function (b) {
    b.addEventListener("click", function () { players[current].military.push(Number(b.dataset.token)); changed(); });
  });
  document.querySelectorAll("#cards .card").forEach(function (b) {
    b.addEventListener("click", function () {
      var cards = players[current].cards;
      var at = cards.indexOf(b.dataset.card);
      if (at >= 0) { cards.splice(at, 1); } else { cards.push(b.dataset.card); }
      changed();
    });
  });
  $("search").addEventListener("input", function () {
    var q = $("search").value.trim().toLowerCase();
    document.querySelectorAll("#cards .card").forEach(function (b) { b.hidden = q !== "" && b.textContent.toLowerCase().indexOf(q) < 0; });
    document.querySelectorAll("#cards fieldset").forEach(function (f) { f.hidden = !f.querySelector(".card:not([hidden])"); });
  });
  for (var i = 0; i < view.players.min; i++) { addPlayer(); }
}());
