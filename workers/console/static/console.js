// Keyboard shortcuts for the review console: j/k move, a approve, e edit, r reject, Esc leaves a field.
// Plain script, no dependencies; the page works without it (every action is a normal link or form).
(function () {
  "use strict";

  function typing(target) {
    var tag = target && target.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable);
  }

  function queueKeys(key) {
    var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-row]"));
    if (!rows.length) return false;
    var at = rows.findIndex(function (r) { return r.classList.contains("selected"); });
    if (key === "j" || key === "k") {
      var next = key === "j" ? Math.min(at + 1, rows.length - 1) : Math.max(at - 1, 0);
      if (at >= 0) rows[at].classList.remove("selected");
      rows[next].classList.add("selected");
      rows[next].querySelector("a.open").focus();
      return true;
    }
    return false;
  }

  function itemKeys(key) {
    var link = null;
    if (key === "j") link = document.getElementById("next-item");
    if (key === "k") link = document.getElementById("prev-item");
    if (link) { window.location.assign(link.href); return true; }
    if (key === "a") {
      var form = document.getElementById("approve-form");
      if (form) { form.requestSubmit(); return true; }
    }
    var field = { e: "edit-text", r: "reject-note" }[key];
    if (field && document.getElementById(field)) {
      var el = document.getElementById(field);
      el.focus();
      el.scrollIntoView({ block: "center" });
      return true;
    }
    return false;
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && typing(event.target)) { event.target.blur(); return; }
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var page = document.body.getAttribute("data-page");
    var handled = page === "queue" ? queueKeys(event.key) : page === "item" ? itemKeys(event.key) : false;
    if (handled) event.preventDefault();
  });
})();
