// Keep the live board current: poll the tiny seq endpoint, fetch the board when it moved.
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board || !window.fetch) return;
  var game = board.dataset.game;
  var seen = board.dataset.seq;
  var every = 1000 * (parseFloat(board.dataset.poll) || 2);
  var wait = every;
  function later() { window.setTimeout(tick, wait); }
  function picture(version) {  // the last reading from above: load it again when it moved
    var img = board.querySelector("#overhead img");
    if (!img || version === undefined || String(version) === img.dataset.version) return;
    img.dataset.version = version;
    img.src = img.src.replace(/\?.*$/, "") + "?v=" + version;
  }
  function refresh(mark) {
    return fetch("/games/" + game + "/board", { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.text();
    }).then(function (html) {
      board.innerHTML = html;
      board.dataset.seq = seen = mark;
    });
  }
  function tick() {
    if (document.hidden) { wait = every; return later(); }
    fetch("/api/games/" + game + "/seq", { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (d) {
      var mark = d.seq + "/" + d.status + "/" + JSON.stringify(d.players) + "/" + (d.asked || "");
      var same = d.seq === Number(seen) && (d.asked || "") === (board.dataset.asked || "");
      if (seen.indexOf("/") < 0) seen = same ? mark : "";
      wait = every;
      picture(d.overhead);
      return mark === seen ? null : refresh(mark);
    }).catch(function () {
      wait = Math.min(wait * 2, 30000);  // the box may be busy or out of Wi-Fi: back off
    }).then(later);
  }
  later();
})();

// The coach on demand: opening it asks the search for the top three moves of the game now.
(function () {
  "use strict";
  var coach = document.getElementById("coach");
  if (!coach || !window.fetch) return;
  var answer = coach.querySelector(".coach-answer");
  var list = coach.querySelector(".coach-moves");
  coach.addEventListener("toggle", function () {
    if (!coach.open) return;
    answer.textContent = "Thinking\u2026";
    list.textContent = "";
    fetch(coach.dataset.url, { cache: "no-store" }).then(function (r) {
      if (!r.ok) throw new Error(r.status);
      return r.json();
    }).then(function (d) {
      answer.textContent = d.message || d.name + " to play";
      d.moves.forEach(function (m) {
        var item = document.createElement("li");
        item.textContent = m.label + " \u2014 " + Math.round(100 * m.win) + "%" +
          (m.reason ? " (" + m.reason + ")" : "");
        list.appendChild(item);
      });
    }).catch(function () {
      answer.textContent = "The coach did not answer; try again.";
    });
  });
})();
