// Charts open large: a click (or Enter) on a chart's SVG shows a copy of it in a
// modal <dialog>. No inline script: the CSP stays strict.
(function () {
  function zh() { return (document.documentElement.lang || "").startsWith("zh"); }
  function open(svg) {
    var dialog = document.createElement("dialog");
    dialog.className = "lightbox";
    var close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = zh() ? "关闭" : "Close";
    close.addEventListener("click", function () { dialog.close(); });
    dialog.appendChild(close);
    var copy = svg.cloneNode(true);
    copy.removeAttribute("width");
    copy.removeAttribute("height");
    copy.removeAttribute("tabindex");
    copy.removeAttribute("role");
    dialog.appendChild(copy);
    dialog.addEventListener("close", function () { dialog.remove(); svg.focus(); });
    dialog.addEventListener("click", function (evt) { if (evt.target === dialog) dialog.close(); });
    document.body.appendChild(dialog);
    dialog.showModal();
  }
  function prepare(root) {
    root.querySelectorAll(".chart svg:not([data-lightbox])").forEach(function (svg) {
      svg.setAttribute("data-lightbox", "1");
      svg.setAttribute("tabindex", "0");
      svg.setAttribute("role", "button");
      var label = zh() ? "点击放大图表" : "Click to enlarge the chart";
      var title = svg.querySelector("title");
      svg.setAttribute("aria-label", (title ? title.textContent + " — " : "") + label);
      svg.addEventListener("click", function () { open(svg); });
      svg.addEventListener("keydown", function (evt) {
        if (evt.key === "Enter" || evt.key === " ") { evt.preventDefault(); open(svg); }
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { prepare(document); });
  document.addEventListener("htmx:afterSettle", function (evt) { prepare(evt.target); });
})();
