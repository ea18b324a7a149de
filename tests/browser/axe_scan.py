"""axe-core (vendored, tests/browser/vendor/) run in a page: its serious and critical
violations, in light and in dark mode.

Two things make a scan cheaper without changing what it finds:

- A rule that declares its impact as "minor" or "moderate" is not run. axe gives every
  node of such a rule that impact (it overrides its checks' own), so the rule can never
  report a serious or critical violation, the only ones the tests look at.
- In dark mode only the rules that read colours run (COLOUR_RULES). The site's dark mode
  changes colours and nothing else (test_dark_mode_changes_only_colours in
  tests/browser/test_dark_mode_css.py holds the stylesheets to that), so every other
  rule finds in dark mode exactly what it found in light mode.

The result crosses from the page as the few fields the tests print (axe's full result
carries every node's HTML). A test that scans many pages gives its page axe as an init
script (`axe_in_every_document`): the browser then runs it as each document starts, from
the script it compiled once, instead of receiving and compiling 650 kB again for every
page (measured: 0.45 s against 0.3 s per page for loading it and axe together).
"""

from pathlib import Path

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")

#: The axe rules whose result depends on the page's colours.
COLOUR_RULES = ("color-contrast", "color-contrast-enhanced", "link-in-text-block")

#: Run in the page with the colour scheme ("light" or "dark"): the serious and critical
#: violations as {id, help, nodes: count, target: the first node's}.
_RUN = """async ([scheme, colourRules]) => {
  const rules = {};
  for (const rule of axe._audit.rules) {
    const skip = scheme === "dark"
      ? !colourRules.includes(rule.id)
      : ["minor", "moderate"].includes(rule.impact);
    if (skip) rules[rule.id] = { enabled: false };
  }
  const result = await axe.run(document, { resultTypes: ["violations"], rules });
  return result.violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => ({ id: v.id, help: v.help, nodes: v.nodes.length, target: v.nodes[0].target }));
}"""


def axe_in_every_document(page) -> None:
    """Give every document `page` loads from now on axe-core (window.axe), before the
    page's own scripts run; the scans then find it there."""
    page.add_init_script(script=AXE)


def serious_violations(page, scheme: str) -> list[dict]:
    """The page's serious and critical axe violations with `scheme` ("light" or "dark")
    emulated: [{id, help, nodes (how many), target (the first node's selector list)}].

    Sets the page's colour scheme (page.emulate_media) and injects axe into the document
    unless it has it already (axe_in_every_document). Call it with "light" first for a
    page: the dark scan runs only the colour rules (see the module's docstring)."""
    if scheme not in ("light", "dark"):
        raise ValueError(f"scheme is 'light' or 'dark', not {scheme!r}")
    page.emulate_media(color_scheme=scheme)
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE)
    return page.evaluate(_RUN, [scheme, list(COLOUR_RULES)])
