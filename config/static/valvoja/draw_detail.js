// Draw page: while the settlement runs, poll its progress and reload the page when it ends.
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
      if (d.run.state === "pending" || d.run.state === "running") { setTimeout(poll, 1000); } else { location.reload(); }
    }).catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1000);
})();
