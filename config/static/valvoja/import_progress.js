// Import pages (retail sales, registers): while the import runs, poll its status and move the bar;
// reload the page when it has finished, to show the result.
(function () {
  "use strict";
  var box = document.getElementById("job-progress");
  if (!box || box.dataset.running !== "1") return;
  var bar = document.getElementById("job-bar"), phase = document.getElementById("job-phase"),
      pct = document.getElementById("job-percent"), rows = document.getElementById("job-rows"),
      state = document.getElementById("job-state");
  function poll() {
    fetch(box.dataset.statusUrl, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (!d.in_progress) { location.reload(); return; }
        state.textContent = d.state_label;
        if (phase) phase.textContent = d.phase_label;
        if (d.percent === null) { bar.removeAttribute("value"); pct.textContent = ""; }
        else { bar.value = d.percent; pct.textContent = d.percent + " %"; }
        if (rows && d.rows) rows.textContent = "· " + d.rows.toLocaleString() + " " + rows.dataset.label;
        setTimeout(poll, 1000);
      })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1000);
})();
