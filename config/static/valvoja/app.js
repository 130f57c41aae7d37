// Behaviour of every page, without inline script (Content-Security-Policy: script-src 'self').
// A <select data-auto-submit> submits its form when changed (language menu, game and rule filters).
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches && el.matches("select[data-auto-submit]") && el.form) {
      el.form.submit();
    }
  });
})();
