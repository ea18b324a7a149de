"""The site's dark mode changes colours only: every declaration inside a
`@media (prefers-color-scheme: dark)` block of the stylesheets (static/css) and of the
templates' inline styles sets a colour property to a colour. The accessibility scans
(tests/browser/axe_scan.py) rely on it: in dark mode they run only axe's colour rules,
since every other rule finds there what it found in light mode."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *sorted((ROOT / "static" / "css").glob("*.css")),
    *sorted((ROOT / "templates").rglob("*.html")),
]
DARK = re.compile(r"@media[^{]*prefers-color-scheme\s*:\s*dark[^{]*\{")
COLOUR_PROPERTIES = {
    "color",
    "background",
    "background-color",
    "border-color",
    "outline-color",
    "caret-color",
    "fill",
    "stroke",
    "color-scheme",
}
COLOUR = re.compile(
    r"#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla)\([^)]*\)|var\(--[\w-]+\)|transparent|"
    r"currentColor|inherit|light|dark|[a-z]+"
)


def _blocks(text: str) -> list[str]:
    """The bodies of the dark-mode @media blocks in `text` (braces matched)."""
    bodies = []
    for start in DARK.finditer(text):
        depth, i = 1, start.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        bodies.append(text[start.end() : i - 1])
    return bodies


def _declarations(body: str) -> list[tuple[str, str]]:
    """(property, value) of every declaration inside the rules of `body`."""
    found = []
    for rule in re.findall(r"\{([^{}]*)\}", re.sub(r"/\*.*?\*/", "", body, flags=re.S)):
        for declaration in rule.split(";"):
            if declaration.strip():
                prop, _, value = declaration.partition(":")
                found.append((prop.strip().lower(), value.strip()))
    return found


def _not_a_colour(prop: str, value: str) -> bool:
    if not (prop.startswith("--") or prop in COLOUR_PROPERTIES):
        return True
    return not all(COLOUR.fullmatch(part) for part in re.split(r"\s+(?![^(]*\))", value))


def test_dark_mode_changes_only_colours():
    blocks = {path: _blocks(path.read_text(encoding="utf-8")) for path in SOURCES}
    assert any(blocks.values()), "no dark mode found: the scans' premise is gone"
    other = [
        f"{path.relative_to(ROOT)}: {prop}: {value}"
        for path, bodies in blocks.items()
        for body in bodies
        for prop, value in _declarations(body)
        if _not_a_colour(prop, value)
    ]
    assert other == []


def test_the_check_finds_a_change_of_layout():
    css = "@media (prefers-color-scheme: dark) { .a { color: #fff; display: none } }"
    assert [d for d in _declarations(_blocks(css)[0]) if _not_a_colour(*d)] == [("display", "none")]
