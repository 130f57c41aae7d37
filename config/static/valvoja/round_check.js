// Round check: show only the outcome fields of the chosen game (the fieldsets are all on the page;
// without JavaScript the "Show fields" button reloads the page with the chosen game's fields).
(function () {
  "use strict";
  var select = document.querySelector("#round select[name=game]");
  if (!select) return;
  var show = function () {
    var key = select.value.split("/").slice(0, 2).join("/");
    document.querySelectorAll("#round fieldset.outcome").forEach(function (fieldset) {
      fieldset.hidden = fieldset.dataset.game !== key;
    });
  };
  select.addEventListener("change", show);
  show();
})();
