// The score pad page: holds the sheet being entered and, after every change, shows the
// winner line and the score table the box draws for it (/scorepad/scores). The pad being
// filled in is kept on this phone until it is saved or cleared, so a reload or a locked
// phone loses nothing; names typed before are remembered too, beside the players the box
// remembers. "Save" keeps the finished pad in the journal.
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

  // The pad being filled in, kept on this phone across reloads until saved or cleared.
  var DRAFT = "scorepad-draft";
  function keepDraft() {
    var draft = { game: $("game").value, edifice: $("edifice-on").checked, current: current,
                  players: players, projects: projectInputs() };
    try { localStorage.setItem(DRAFT, JSON.stringify(draft)); } catch (e) { /* private mode */ }
  }
  function dropDraft() { try { localStorage.removeItem(DRAFT); } catch (e) { /* private mode */ } }
  function restoreDraft() {
    var draft = null;
    try { draft = JSON.parse(localStorage.getItem(DRAFT) || "null"); } catch (e) { draft = null; }
    if (!draft || !Array.isArray(draft.players)) { return; }
    if (view.games.some(function (g) { return g.id === draft.game; })) { $("game").value = draft.game; }
    $("edifice-on").checked = draft.edifice === true;
    draft.players.forEach(function (kept) {
      var p = newPlayer();
      Object.keys(p).forEach(function (k) { if (kept && kept[k] !== undefined) { p[k] = kept[k]; } });
      if (!wonders[p.wonder]) { p.wonder = freeWonder(); }
      players.push(p);
    });
    current = Math.max(0, Math.min(Number(draft.current) || 0, players.length - 1));
    (draft.projects || []).forEach(function (kept, k) {
      var row = document.querySelectorAll(".ed-project")[k];
      if (!row || !kept) { return; }
      row.querySelector(".ed-built").checked = kept.built === true;
      row.querySelector(".ed-reward").value = String(kept.reward || 0);
      row.querySelector(".ed-penalty").value = String(kept.penalty || 0);
    });
  }
  function clearPad() {
    dropDraft();
    players = [];
    current = 0;
    $("game").value = view.games[0].id;
    $("edifice-on").checked = false;
    document.querySelectorAll(".ed-project").forEach(function (row) {
      row.querySelector(".ed-built").checked = false;
      row.querySelector(".ed-reward").value = "0";
      row.querySelector(".ed-penalty").value = "0";
    });
    gameChanged();
  }

  function freeWonder() {
    var used = players.map(function (p) { return p.wonder; });
    var free = view.wonders.filter(function (w) { return used.indexOf(w.id) < 0; });
    return free.length ? free[0].id : view.wonders[0].id;
  }

  // The game entered: the base game, its two-player variant (a Free City among 3 seats) or
  // Dice; Edifice adds its projects to the base game.
  function game() { return view.games.filter(function (g) { return g.id === $("game").value; })[0]; }
  function edifice() { return game().id === "base" && $("edifice-on").checked; }

  function newPlayer() {
    var dice = { barracks: [], agora_first: false };
    view.dice.forEach(function (f) { dice[f.key] = 0; });
    return { name: "", wonder: freeWonder(), side: "A", stages: 0, cards: [], coins: 0, military: [],
             free_city: false, pawns: [], debts: [], dice: dice };
  }

  function addPlayer() {
    if (players.length >= game().max) { return; }
    players.push(newPlayer());
    drawSeats();
  }

  function gameChanged() {
    var g = game();
    while (players.length > g.max) { players.pop(); }
    while (players.length < g.min) { addPlayer(); }
    if (g.id === "two-player" && !players.some(function (p) { return p.free_city; })) {
      players[2].free_city = true;
      if (!players[2].name) { players[2].name = "Free City"; }
    }
    $("edifice-choice").hidden = g.id !== "base";
    $("game-name").textContent = g.name;
    $("seat-hint").textContent = g.hint;
    $("edifice").hidden = !edifice();
    current = Math.min(current, players.length - 1);
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
        var o = el("option", { value: w.id, title: w.name }, w.city);
        if (w.id === p.wonder) { o.selected = true; }
        wonder.appendChild(o);
      });
      wonder.addEventListener("change", function () { p.wonder = wonder.value; p.stages = 0; changed(); });
      var side = el("select", { "class": "side", "aria-label": "Side of player " + (i + 1) });
      ["A", "B"].forEach(function (s) { var o = el("option", { value: s }, s); if (s === p.side) { o.selected = true; } side.appendChild(o); });
      side.addEventListener("change", function () { p.side = side.value; p.stages = 0; changed(); });
      var up = el("button", { type: "button", "class": "small up", "aria-label": "Move up" }, "\u2191");
      up.disabled = i === 0;
      up.addEventListener("click", function () { players.splice(i - 1, 0, players.splice(i, 1)[0]); current = i - 1; drawSeats(); });
      var drop = el("button", { type: "button", "class": "small drop", "aria-label": "Remove" }, "\u2715");
      drop.addEventListener("click", function () { players.splice(i, 1); current = 0; drawSeats(); });
      drop.disabled = players.length <= game().min;
      var parts = game().id === "dice" ? [name, up, drop] : [name, wonder, side, up, drop];
      if (game().id === "two-player") {
        var free = el("label", { "class": "sp-free" });
        var radio = el("input", { type: "radio", name: "free-city", "aria-label": "Free City: seat " + (i + 1) });
        radio.checked = p.free_city;
        radio.addEventListener("change", function () { players.forEach(function (q) { q.free_city = q === p; }); changed(); });
        free.appendChild(radio);
        free.appendChild(document.createTextNode(" Free City"));
        parts.push(free);
      }
      parts.forEach(function (n) { li.appendChild(n); });
      seats.appendChild(li);
    });
    $("add-player").disabled = players.length >= game().max;
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
    var dice = game().id === "dice";
    $("dice-city").hidden = !dice;
    $("base-city").hidden = dice;
    $("player-edifice").hidden = !edifice();
    if (dice) { drawDice(p); return; }
    document.querySelectorAll(".ed-pawn").forEach(function (b) { b.checked = p.pawns.indexOf(Number(b.dataset.age)) >= 0; });
    document.querySelectorAll(".ed-debt").forEach(function (b) { b.checked = p.debts.indexOf(Number(b.dataset.age)) >= 0; });
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

  function drawDice(p) {
    document.querySelectorAll("input.dice").forEach(function (b) { b.value = String(p.dice[b.dataset.key]); });
    $("agora-first").checked = p.dice.agora_first;
    var attacks = $("attacks");
    attacks.textContent = "";
    p.dice.barracks.forEach(function (a, k) {
      var b = el("button", { type: "button", "class": "small taken", "aria-label": "Remove attack " + (k + 1) }, a[0] + " \u2212 " + a[1]);
      b.addEventListener("click", function () { p.dice.barracks.splice(k, 1); changed(); });
      attacks.appendChild(b);
    });
  }

  function projectInputs() {
    return Array.prototype.map.call(document.querySelectorAll(".ed-project"), function (row) {
      var number = function (cls) { return Math.max(0, parseInt(row.querySelector(cls).value, 10) || 0); };
      return { age: Number(row.dataset.age), built: row.querySelector(".ed-built").checked,
               reward: number(".ed-reward"), penalty: number(".ed-penalty") };
    });
  }

  function projects() {
    return projectInputs().map(function (p) {
      var project = { age: p.age, built: p.built };
      if (p.built) { project.reward_points = p.reward; } else { project.penalty_points = p.penalty; }
      return project;
    });
  }

  function sheet() {
    var g = game().id;
    if (g === "dice") {
      return { game: "7wonders-dice", players: players.map(function (p, i) {
        return Object.assign({ name: nameOf(p, i) }, p.dice);
      }) };
    }
    var entered = { game: "7wonders", variant: g, players: players.map(function (p, i) {
      var city = { name: nameOf(p, i), wonder: p.wonder, side: p.side, stages: p.stages,
                   cards: p.cards, coins: p.coins, military: p.military };
      if (g === "two-player") { city.free_city = p.free_city; }
      if (edifice()) { city.edifice = { pawns: p.pawns, debts: p.debts }; }
      return city;
    }) };
    if (edifice()) { entered.expansions = ["edifice"]; entered.edifice = { projects: projects() }; }
    return entered;
  }

  function changed() {
    var clear = $("clear-pad");
    if (clear.dataset.armed) { delete clear.dataset.armed; clear.textContent = "Clear the pad"; }  // any change disarms it
    drawCity();
    keepDraft();
    if (players.length < game().min) {
      $("scores").textContent = "";
      $("scores").appendChild(el("p", { "class": "winner", id: "winner" }, "Add " + (game().min - players.length) + " more player(s)."));
      return;
    }
    if (pending) { pending.abort(); }
    pending = new AbortController();
    // The winner line and the table come drawn from the box: one drawing, for this page and
    // the saved pad's page alike. A sheet that cannot be a real game yet comes back as its
    // refusal, in place of both.
    fetch("/scorepad/scores", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(sheet()), signal: pending.signal })
      .then(function (r) { return r.text(); })
      .then(function (html) { $("scores").innerHTML = html; })
      .catch(function (e) {
        if (e.name === "AbortError") { return; }
        $("scores").textContent = "";
        $("scores").appendChild(el("p", { "class": "error", id: "refusal" }, "The box did not answer: " + String(e)));
      });
  }

  function save() {
    var error = $("save-error");
    error.hidden = true;
    fetch("/api/pads", { method: "POST", body: JSON.stringify(sheet()),
      headers: { "Content-Type": "application/json", "X-Pairing-Code": $("pairing").value.trim() } })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (answer) {
        if (answer.ok) { dropDraft(); window.location.href = answer.body.url; return; }
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

  // Reading the cities with the box's camera: the box keeps the cities read so far (and says
  // on its screen whose city it reads); the page polls them and fills in each player's cards.
  var fromBox = {};  // name -> the cards the box had read at the last poll
  var polling = null;
  function nameOf(p, i) { return p.name || "Player " + (i + 1); }

  function boxAnswer(data) {
    var line = $("box-line");
    if (data.error) { line.textContent = data.error; boxPolling(false); return; }
    var touched = false;
    data.players.forEach(function (city) {
      var at = players.map(nameOf).indexOf(city.name);
      if (at < 0) { return; }
      var cards = players[at].cards;
      (fromBox[city.name] || []).forEach(function (c) {  // taken back on the box (long press)
        if (city.cards.indexOf(c) < 0 && cards.indexOf(c) >= 0) { cards.splice(cards.indexOf(c), 1); touched = true; }
      });
      city.cards.forEach(function (c) { if (cards.indexOf(c) < 0) { cards.push(c); touched = true; } });
      fromBox[city.name] = city.cards.slice();
    });
    if (data.current !== null) {
      var reading = players.map(nameOf).indexOf(data.players[data.current].name);
      if (reading >= 0 && reading !== current) { current = reading; touched = true; }
    }
    line.textContent = data.reading ? data.line + (data.notice ? " \u2014 " + data.notice : "") : "Not reading.";
    if (!data.reading) { boxPolling(false); }
    if (touched) { changed(); }
  }

  function boxPolling(on) {
    if (polling) { clearInterval(polling); polling = null; }
    $("box-read").hidden = on;
    $("box-stop").hidden = !on;
    if (on) {
      polling = setInterval(function () {
        fetch("/scorepad/box.json").then(function (r) { return r.json(); }).then(boxAnswer);
      }, 1000);
    }
  }

  function boxAsk(method, body) {
    var code = $("pairing").value.trim();
    if (!code) { $("box-line").textContent = "Enter the pairing code shown on the box (under \u201cGame over?\u201d) first."; $("pairing").focus(); return null; }
    var init = { method: method, headers: { "X-Pairing-Code": code } };
    if (body) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    return fetch("/scorepad/box.json", init).then(function (r) { return r.json(); });
  }

  $("box-read").addEventListener("click", function () {
    var asked = boxAsk("POST", { players: players.map(nameOf) });
    if (asked) { asked.then(function (data) { fromBox = {}; boxAnswer(data); if (!data.error) { boxPolling(true); } }); }
  });
  $("box-stop").addEventListener("click", function () {
    var asked = boxAsk("DELETE");
    if (asked) { asked.then(function (data) { boxPolling(false); $("box-line").textContent = data.error || "Reading stopped; the cards read stay."; }); }
  });

  $("photo").addEventListener("change", function () {
    if ($("photo").files.length) { scanned($("photo").files[0]); $("photo").value = ""; }
  });
  $("add-player").addEventListener("click", addPlayer);
  $("game").addEventListener("change", gameChanged);
  $("edifice-on").addEventListener("change", gameChanged);
  document.querySelectorAll(".ed-project input").forEach(function (b) { b.addEventListener("change", function () { changed(); }); });
  [["ed-pawn", "pawns"], ["ed-debt", "debts"]].forEach(function (kind) {
    document.querySelectorAll("." + kind[0]).forEach(function (b) {
      b.addEventListener("change", function () {
        var ages = players[current][kind[1]];
        var age = Number(b.dataset.age);
        if (b.checked && ages.indexOf(age) < 0) { ages.push(age); }
        if (!b.checked && ages.indexOf(age) >= 0) { ages.splice(ages.indexOf(age), 1); }
        changed();
      });
    });
  });
  document.querySelectorAll("input.dice").forEach(function (b) {
    b.addEventListener("change", function () { players[current].dice[b.dataset.key] = Math.max(0, parseInt(b.value, 10) || 0); changed(); });
  });
  $("agora-first").addEventListener("change", function () {
    // one player at most is first to complete the Agora
    players.forEach(function (q, k) { q.dice.agora_first = k === current && $("agora-first").checked; });
    changed();
  });
  $("add-attack").addEventListener("click", function () {
    var points = Math.max(0, parseInt($("attack-points").value, 10) || 0);
    players[current].dice.barracks.push([points, Number($("attack-defence").value)]);
    changed();
  });
  $("save-pad").addEventListener("click", save);
  $("clear-pad").addEventListener("click", function () {
    var button = $("clear-pad");
    if (button.dataset.armed) { delete button.dataset.armed; button.textContent = "Clear the pad"; clearPad(); return; }
    button.dataset.armed = "1";  // a second tap clears: every city entered is lost
    button.textContent = "Tap again to clear every city";
  });
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
  restoreDraft();
  gameChanged();
}());
