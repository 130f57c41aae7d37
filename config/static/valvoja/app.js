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
  // The header's menus (<details class="menu">) work without this; with it, one is open at a time,
  // Escape closes it (focus back on its summary) and a click elsewhere closes it.
  function closeMenus(except) {
    document.querySelectorAll("details.menu[open]").forEach(function (menu) {
      if (menu !== except) { menu.removeAttribute("open"); }
    });
  }
  document.addEventListener("toggle", function (event) {
    var el = event.target;
    if (el.matches && el.matches("details.menu") && el.open) { closeMenus(el); }
  }, true);
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("details.menu")) { closeMenus(null); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !event.target.closest) { return; }
    var menu = event.target.closest("details.menu");
    if (menu && menu.open) { menu.removeAttribute("open"); menu.querySelector("summary").focus(); }
  });
})();
