// Season form: choosing a Grundlage (preset) fills in its flags at once; the button beside
// the select does the same without script. The flags come from the page's JSON data block.
(function () {
  var data = document.getElementById("preset-flags");
  var select = document.getElementById("id_rule_preset");
  if (!data || !select) return;
  var flags = JSON.parse(data.textContent);
  select.addEventListener("change", function () {
    var preset = flags[select.value];
    if (!preset) return;
    Object.keys(preset).forEach(function (name) {
      var input = document.getElementById("id_" + name);
      if (!input) return;
      if (input.type === "checkbox") input.checked = preset[name];
      else input.value = preset[name];
    });
  });
})();
