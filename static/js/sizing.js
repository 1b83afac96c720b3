// Sizing questionnaire and quick calculator: show the training or the inference fields of a workload.
(function () {
  function sync(form) {
    var kind = form.querySelector("[data-workload-kind]");
    if (!kind) return;
    var training = kind.value === "training" || kind.value === "fine_tuning";
    form.querySelectorAll(".only-training").forEach(function (el) { el.hidden = !training; });
    form.querySelectorAll(".only-inference").forEach(function (el) { el.hidden = training; });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("#workload-form, #quick-form").forEach(function (form) {
      sync(form);
      form.addEventListener("change", function () { sync(form); });
    });
  });
})();
