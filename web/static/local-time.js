// Times in the phone's own time zone: each <time data-local datetime="...Z"> is sent in UTC
// (its text, "2026-11-25 17:26 UTC", stays as it is without script) and rewritten here.
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  var times = document.querySelectorAll("time[data-local]");
  for (var i = 0; i < times.length; i++) {
    var el = times[i];
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) continue;
    var clock = pad(when.getHours()) + ":" + pad(when.getMinutes());
    var day = when.getFullYear() + "-" + pad(when.getMonth() + 1) + "-" + pad(when.getDate());
    el.title = el.textContent;  // the UTC time, on a long press
    el.textContent = el.dataset.local === "time" ? clock : day + " " + clock;
  }
})();
