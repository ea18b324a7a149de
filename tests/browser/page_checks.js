// Run in the page (tests/browser/test_phone_pages.py): what a 390 px phone shows badly.
// broken: text nodes laid out on more lines than they have words (a word broken inside
//   itself: a name one letter per line, a hyphenated header), measured with
//   Range.getClientRects (one rectangle per line box of the text).
// cut: tables wider than their scroll container (or the page) that do not say they
//   scroll (a .scroll-hint right before the container) or whose first column is not
//   fixed (position: sticky).
() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest(".sr-only, .visually-hidden, script, style, option, textarea, [hidden]")) continue;
    // Words: split where a line may break without breaking a word (spaces, hyphens, slashes).
    const words = Math.max(1, text.split(/[\s\-\u2010\u2013\u00ad\/]+/).filter(Boolean).length);
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set();
    for (const rect of range.getClientRects()) {
      if (rect.width > 0 && rect.height > 0) lines.add(Math.round(rect.top));
    }
    if (lines.size > words) broken.push(`"${text.slice(0, 40)}": ${lines.size} lines for ${words} words`);
  }
  const cut = [];
  for (const table of document.querySelectorAll("table")) {
    if (!table.getClientRects().length) continue;
    let box = table.parentElement;
    while (box && box !== document.body && !["auto", "scroll"].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    const scrolls = box && box !== document.body;
    const room = scrolls ? box.clientWidth : document.documentElement.clientWidth;
    const width = Math.ceil(table.getBoundingClientRect().width);
    if (width <= room + 1) continue;
    const name = (table.className || "table") + ": " + (table.querySelector("th, td")?.textContent.trim().slice(0, 20) || "");
    if (!scrolls) { cut.push(`${name} is ${width} px wide in ${room} px and does not scroll`); continue; }
    const hint = box.previousElementSibling;
    if (!hint || !hint.matches(".scroll-hint") || !hint.getClientRects().length) cut.push(`${name} scrolls without a hint`);
    const first = table.querySelector("tbody td:first-child, tbody th:first-child");
    if (first && getComputedStyle(first).position !== "sticky") cut.push(`${name}: first column not fixed`);
  }
  return { broken, cut };
}
