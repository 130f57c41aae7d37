// Draw page: while the settlement runs, poll its progress and reload the page when it ends, or when
// its job stalls or recovers (the page then shows "stalled since ..." and the retry button, or not).
(function () {
  "use strict";
  var box = document.getElementById("settlement");
  if (!box || box.dataset.settling !== "1") return;
  var bar = document.getElementById("run-progress"), text = document.getElementById("run-progress-text");
  function poll() {
    fetch(box.dataset.progressUrl, {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (d) {
      if (!d.run) return;
      bar.value = d.run.percent;
      text.textContent = d.run.percent + " %" + (d.run.chunks_total ? " · " + d.run.chunks_done + "/" + d.run.chunks_total : "");
      var stalled = d.job && (d.job.stalled || d.job.waiting) ? "1" : "0";
      if (stalled !== box.dataset.stalled) { location.reload(); return; }
      if (d.run.state === "pending" || d.run.state === "running") { setTimeout(poll, 1000); } else { location.reload(); }
    }).catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1000);
})();
