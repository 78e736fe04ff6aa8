// Small progressive enhancements; every page works without them.
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches && el.matches("[data-autosubmit]")) el.form.submit();
  // A choice the new level hides (a result it cannot have; everything but honours after Pass):
  // untick it, so that what is sent is what the page shows (the server refuses it anyway).
  if (el.matches && el.matches(".deal-form input[name$=level]")) {
    el.form.querySelectorAll(".if-contract input:checked").forEach((radio) => {
      if (radio.closest("label").offsetParent === null) radio.checked = false;
    });
  }
});

// "Correct it": open the correction of the deal named.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-open]");
  if (!link) return;
  const summary = document.getElementById(link.dataset.open);
  if (summary) summary.closest("details").open = true;
});
