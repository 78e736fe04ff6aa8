// Small progressive enhancements; every page works without them.
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches && el.matches("[data-autosubmit]")) el.form.submit();
});
