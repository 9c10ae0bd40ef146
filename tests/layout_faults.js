// What does not fit the screen on the page as it is shown now, one line each: a page wider than
// the screen, an element beyond its edges or hiding some of its content, a control under
// 24 × 24 CSS px (WCAG 2.2's target size). Evaluated by tests/web_browser.py.
() => {
  const width = document.documentElement.clientWidth, faults = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : "")
    + (typeof e.className === "string" && e.className.trim() ? `.${e.className.trim().split(/\s+/).join(".")}` : "")
    + (e.dataset.card ? `[${e.dataset.card}]` : "");
  const page = document.documentElement.scrollWidth;
  if (page > width) faults.push(`the page is ${page} px wide`);
  for (const e of document.querySelectorAll("body *")) {
    const box = e.getBoundingClientRect(), style = getComputedStyle(e);
    if ((!box.width && !box.height) || style.visibility === "hidden") continue;
    if (box.left < -0.5 || box.right > width + 0.5) {
      faults.push(`${name(e)} spans ${Math.round(box.left)}–${Math.round(box.right)} px`);
    }
    if (style.overflowX !== "visible" && e.scrollWidth > e.clientWidth + 1) {
      faults.push(`${name(e)} hides ${e.scrollWidth - e.clientWidth} px`);
    }
    const control = e.matches("button, select, input, textarea, a[href], summary, [role=button]");
    if (control && !e.classList.contains("shown") && (box.width < 24 || box.height < 24)) {
      faults.push(`${name(e)} is ${Math.round(box.width)}×${Math.round(box.height)} px`);
    }
  }
  return faults;
}
