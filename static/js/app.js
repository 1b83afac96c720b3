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
// A select marked data-searchable gets a filter box above it: typing hides the
// options (and their groups) whose name or key does not contain the text, spaces,
// hyphens and case aside; one match left is selected.
(function () {
  function norm(s) {
    return (s || "").toLowerCase().replace(/[\s_\-]+/g, "");
  }
  function filter(select, text) {
    var q = norm(text), matches = [];
    select.querySelectorAll("option").forEach(function (opt) {
      if (!opt.value) return;
      var group = opt.parentNode.tagName === "OPTGROUP" ? opt.parentNode.label : "";
      var shown = !q || norm(opt.text + " " + opt.value + " " + group).indexOf(q) >= 0;
      opt.hidden = !shown;
      if (shown) matches.push(opt);
    });
    select.querySelectorAll("optgroup").forEach(function (g) {
      g.hidden = !g.querySelector("option:not([hidden])");
    });
    if (q && matches.length === 1 && select.value !== matches[0].value) {
      select.value = matches[0].value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }
  function enhance(select) {
    if (select.dataset.searchReady) return;
    select.dataset.searchReady = "1";
    var box = document.createElement("input");
    box.type = "search";
    box.className = "select-search";
    box.placeholder = select.dataset.searchPlaceholder || "";
    box.setAttribute("aria-label", select.dataset.searchLabel || box.placeholder);
    if (select.id) box.setAttribute("aria-controls", select.id);
    box.addEventListener("input", function () { filter(select, box.value); });
    select.parentNode.insertBefore(box, select);
  }
  function scan(root) {
    var scope = root && root.querySelectorAll ? root : document;
    scope.querySelectorAll("select[data-searchable]").forEach(enhance);
  }
  document.addEventListener("DOMContentLoaded", function () { scan(document); });
  document.addEventListener("htmx:load", function (evt) { scan(evt.detail.elt); });
})();
