// Small progressive enhancements; htmx does the rest.
document.addEventListener("htmx:responseError", function (evt) {
  var box = document.querySelector(".messages") || document.createElement("ul");
  box.className = "messages";
  var li = document.createElement("li");
  li.className = "msg error";
  li.textContent = (document.documentElement.lang || "").startsWith("zh")
    ? "请求失败（" + evt.detail.xhr.status + "）"
    : "Request failed (" + evt.detail.xhr.status + ")";
  box.appendChild(li);
  if (!box.parentNode) document.querySelector("main").prepend(box);
});
// A select marked data-autosubmit submits its form when changed (the CSP forbids
// inline onchange handlers; the <noscript> button is the fallback without JS).
document.addEventListener("change", function (evt) {
  var el = evt.target;
  if (el && el.matches && el.matches("[data-autosubmit]") && el.form) {
    if (el.form.requestSubmit) el.form.requestSubmit();
    else el.form.submit();
  }
});
// TCO live estimate: when the input cannot be estimated at all the server keeps the
// last good estimate on screen (HX-Reswap: none) and marks the note data-stale;
// grey the estimate while it is.
(function () {
  function sync() {
    var note = document.getElementById("tco-preview-note");
    var box = document.getElementById("tco-preview");
    if (note && box) box.style.opacity = note.hasAttribute("data-stale") ? "0.45" : "";
  }
  document.addEventListener("htmx:oobAfterSwap", sync);
  document.addEventListener("htmx:afterSwap", sync);
  document.addEventListener("DOMContentLoaded", sync);
})();
