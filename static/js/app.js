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

// A filter select submits its form when changed (no inline handlers: strict CSP).
document.addEventListener("change", function (evt) {
  var el = evt.target;
  if (el.matches && el.matches("select[data-autosubmit]") && el.form) el.form.submit();
});
