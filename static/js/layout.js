// Wide tables scroll inside their card (static/css/app.css): a region that scrolls
// sideways gets tabindex=0 so a keyboard user can scroll it too (WCAG 2.1.1; axe
// "scrollable-region-focusable"). Re-checked on resize and after htmx swaps.
(function () {
  var SCROLLERS = ".table-scroll, .comparison-wrap, .table, main div";
  function mark(root) {
    (root || document).querySelectorAll(SCROLLERS).forEach(function (el) {
      var style = getComputedStyle(el);
      var scrolls = /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      if (scrolls && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("data-scroll-region", "1");
      } else if (!scrolls && el.hasAttribute("data-scroll-region")) {
        el.removeAttribute("tabindex");
        el.removeAttribute("data-scroll-region");
      }
    });
  }
  var pending = null;
  function later() { clearTimeout(pending); pending = setTimeout(function () { mark(); }, 150); }
  document.addEventListener("DOMContentLoaded", function () { mark(); });
  window.addEventListener("resize", later);
  document.addEventListener("htmx:afterSettle", later);
})();
