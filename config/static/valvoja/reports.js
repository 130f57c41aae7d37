// Reports page: show only the fields the chosen kind reads, and poll the reports still being made.
(function () {
  "use strict";
  var data = document.getElementById("report-kind-fields");
  var select = document.querySelector("select[name=kind]");
  if (data && select) {
    var kinds = JSON.parse(data.textContent);
    var own = new Set(Object.values(kinds).flat());
    var show = function () {
      var wanted = new Set(kinds[select.value] || []);
      document.querySelectorAll("label[data-field]").forEach(function (label) {
        var name = label.dataset.field;
        if (own.has(name)) label.hidden = !wanted.has(name);
      });
    };
    select.addEventListener("change", show);
    show();
  }

  var archive = document.getElementById("report-archive");
  var rows = document.querySelectorAll("tr[data-status=queued], tr[data-status=running]");
  if (!archive || !rows.length) return;
  var base = archive.dataset.reportsUrl;
  var tick = async function () {
    for (const row of rows) {
      const r = await fetch(base + row.dataset.report + "/status/", {headers: {"Accept": "application/json"}});
      if (!r.ok) continue;
      const s = await r.json();
      const bar = row.querySelector("progress");
      if (bar) bar.value = s.progress;
      if (s.status === "done" || s.status === "failed") { window.location.reload(); return; }
    }
    setTimeout(tick, 1500);
  };
  setTimeout(tick, 1000);
})();
