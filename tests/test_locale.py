"""One German catalogue: locale/de/LC_MESSAGES/django.po and its compiled django.mo.

Fails when a second catalogue appears anywhere in the repository (a second one silently
shadows or is shadowed by the first: in LOCALE_PATHS the first path wins), when the .po
names a message twice, when its placeholders do not match, or when the committed .mo is
not the compiled .po (then run `make messages`). The .mo is compared by content, not by
file time: a fresh checkout gives both files arbitrary times.

The .po is read by the small reader below (the project does not depend on polib). The
last tests break copies of the catalogue in a temporary directory to show the checks can
fail.
"""

from __future__ import annotations

import ast
import gettext
import os
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR).resolve()
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")

# Directories that are not the project's: version control and virtual environments.
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__"}

_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")
_PYTHON_FORMAT = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]")


@dataclass
class Entry:
    """One message of a .po file; `strs` maps the plural index (None if singular) to text."""

    line: int = 0
    ctxt: str | None = None
    id: str | None = None
    plural: str | None = None
    strs: dict[int | None, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def key(self) -> str:
        """The key gettext uses: the msgid, with its msgctxt and EOT in front if it has one."""
        return self.id if self.ctxt is None else f"{self.ctxt}\x04{self.id}"


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file, obsolete (#~) ones marked, in file order."""
    entries: list[Entry] = []
    entry = Entry()
    last: tuple[str, int | None] | None = None  # the field a continuation line extends

    def finish() -> None:
        nonlocal entry, last
        if entry.id is not None:
            entries.append(entry)
        entry, last = Entry(), None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.strip()
        obsolete = text.startswith("#~")
        if obsolete:
            text = text[2:].strip()
            if text.startswith("|"):  # an obsolete entry's previous msgid
                continue
        elif text.startswith("#"):
            if entry.strs:  # a comment after a msgstr starts the next entry
                finish()
            if text.startswith("#,"):
                entry.flags.update(f.strip() for f in text[2:].split(",") if f.strip())
            continue
        if not text:
            finish()
            continue
        match = _KEYWORD.match(text)
        if match:
            keyword, index, value = match.group(1), match.group(2), ast.literal_eval(match.group(3))
            if keyword in ("msgctxt", "msgid") and entry.strs:  # no blank line in between
                finish()
            if entry.id is None and keyword not in ("msgctxt", "msgid"):
                raise ValueError(f"{path}:{number}: {keyword} before msgid")
            entry.obsolete = entry.obsolete or obsolete
            if keyword == "msgctxt":
                entry.ctxt, last = value, ("ctxt", None)
            elif keyword == "msgid":
                entry.id, entry.line, last = value, number, ("id", None)
            elif keyword == "msgid_plural":
                entry.plural, last = value, ("plural", None)
            else:
                slot = int(index) if index is not None else None
                entry.strs[slot], last = value, ("str", slot)
        elif text.startswith('"') and last is not None:
            value = ast.literal_eval(text)
            name, slot = last
            if name == "str":
                entry.strs[slot] += value
            else:
                setattr(entry, name, getattr(entry, name) + value)
        else:
            raise ValueError(f"{path}:{number}: cannot read {raw!r}")
    finish()
    return entries


def compile_po(entries: list[Entry]) -> dict:
    """The catalogue msgfmt builds from these entries, keyed like GNUTranslations._catalog:
    obsolete, fuzzy (except the header) and untranslated messages are left out."""
    catalogue: dict = {}
    for entry in entries:
        if entry.obsolete or ("fuzzy" in entry.flags and entry.id != ""):
            continue
        if not any(entry.strs.values()):
            continue
        if entry.plural is None:
            catalogue[entry.key] = entry.strs[None]
        else:
            for index, text in entry.strs.items():
                catalogue[(entry.key, index)] = text
    return catalogue


def stray_catalogues(root: Path, keep: set[Path]) -> list[Path]:
    """Every .po and .mo file under `root` except those in `keep`; virtual environments
    (any directory with a pyvenv.cfg) and version control are skipped."""
    found = []
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = [
            d
            for d in subdirs
            if d not in SKIP_DIRS and not (Path(directory, d) / "pyvenv.cfg").exists()
        ]
        for name in files:
            path = Path(directory, name).resolve()
            if path.suffix in (".po", ".mo") and path not in keep:
                found.append(path.relative_to(root))
    return sorted(found)


def duplicates(entries: list[Entry]) -> list[str]:
    """Messages (msgctxt + msgid) named more than once, with their lines."""
    counts = Counter(e.key for e in entries)
    return [f"{e.id!r} (context {e.ctxt!r}) at line {e.line}" for e in entries if counts[e.key] > 1]


def placeholder_problems(entries: list[Entry]) -> list[str]:
    """python-format messages whose translation uses other %(name)s placeholders, and
    messages with %(name)s placeholders that lack the python-format flag."""
    problems = []
    for e in entries:
        if e.obsolete or not e.id:
            continue
        names = set(_PYTHON_FORMAT.findall(e.id)) | set(_PYTHON_FORMAT.findall(e.plural or ""))
        if names and "python-format" not in e.flags:
            problems.append(f"line {e.line}: {e.id!r} has placeholders but no python-format")
        if "python-format" not in e.flags:
            continue
        for index, text in e.strs.items():
            used = set(_PYTHON_FORMAT.findall(text))
            # A singular must keep every placeholder; a plural form may drop one
            # (German "ein Spiel" for %(n)s games) but never invent one.
            if (e.plural is None and used != names) or not used <= names:
                problems.append(f"line {e.line}: {e.id!r} msgstr[{index}] uses {sorted(used)}")
    return problems


def _header(text: str) -> dict[str, str]:
    """The header's fields but POT-Creation-Date, which msgfmt leaves out of the .mo."""
    fields = dict(line.partition(":")[::2] for line in text.splitlines() if line.strip())
    fields.pop("POT-Creation-Date", None)
    return {name.strip(): value.strip() for name, value in fields.items()}


def mo_differences(po: Path, mo: Path) -> list[str]:
    """How the compiled .mo differs from the .po: messages missing, extra or different."""
    expected = compile_po(read_po(po))
    with mo.open("rb") as handle:
        actual = dict(gettext.GNUTranslations(handle)._catalog)
    for catalogue in (expected, actual):
        if "" in catalogue:
            catalogue[""] = _header(catalogue[""])
    differences = []
    for key in sorted(set(expected) | set(actual), key=repr):
        if expected.get(key) != actual.get(key):
            differences.append(f"{key!r}: .po {expected.get(key)!r}, .mo {actual.get(key)!r}"[:300])
    return differences


# --------------------------------------------------------------------------- the catalogue


def test_there_is_one_catalogue():
    assert PO.is_file() and MO.is_file()
    assert stray_catalogues(ROOT, {PO.resolve(), MO.resolve()}) == [], (
        "Put German translations into locale/de/LC_MESSAGES/django.po only."
    )
    assert [Path(p).resolve() for p in settings.LOCALE_PATHS] == [ROOT / "locale"]


def test_no_message_is_named_twice():
    assert duplicates(read_po(PO)) == []


def test_placeholders_match():
    assert placeholder_problems(read_po(PO)) == []


def test_mo_is_the_compiled_po():
    assert mo_differences(PO, MO) == [], "Run `make messages` and commit the .mo."


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
def test_msgfmt_accepts_the_po():
    result = subprocess.run(
        ["msgfmt", "--check", "-o", os.devnull, str(PO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_every_translation_is_in_effect():
    """Django answers with the catalogue's German for every message: nothing shadows it."""
    from django.utils import translation

    wrong = []
    with translation.override("de"):
        for e in read_po(PO):
            if not e.id or e.obsolete or "fuzzy" in e.flags or not any(e.strs.values()):
                continue
            if e.plural is None:
                got = {
                    None: translation.pgettext(e.ctxt, e.id)
                    if e.ctxt
                    else translation.gettext(e.id)
                }
            elif e.ctxt:
                got = {
                    i: translation.npgettext(e.ctxt, e.id, e.plural, n) for i, n in ((0, 1), (1, 2))
                }
            else:
                got = {i: translation.ngettext(e.id, e.plural, n) for i, n in ((0, 1), (1, 2))}
            if got != e.strs:
                wrong.append(f"line {e.line}: {e.id!r}: {got!r}")
    assert wrong == []


# --------------------------------------------------------------------------- the checks can fail


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of the catalogue in a temporary project tree."""
    target = tmp_path / "locale" / "de" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy2(PO, target / "django.po")
    shutil.copy2(MO, target / "django.mo")
    return target


def _first(entries: list[Entry], *, python_format: bool = False) -> Entry:
    """The catalogue's first translated singular message (with a placeholder if asked)."""
    return next(
        e
        for e in entries
        if e.id
        and not e.obsolete
        and e.plural is None
        and e.ctxt is None
        and e.strs[None]
        and "fuzzy" not in e.flags
        and (not python_format or ("python-format" in e.flags and "%(" in e.strs[None]))
    )


def _po_string(text: str) -> str:
    """A .po string literal of `text`."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def test_a_second_catalogue_is_found(copy, tmp_path):
    keep = {(copy / "django.po").resolve(), (copy / "django.mo").resolve()}
    assert stray_catalogues(tmp_path, keep) == []
    extra = tmp_path / "locale_extra" / "api" / "de" / "LC_MESSAGES"
    extra.mkdir(parents=True)
    (extra / "django.po").write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    venv = tmp_path / "env"  # a virtual environment's catalogues are not the project's
    (venv / "lib").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("", encoding="utf-8")
    (venv / "lib" / "django.po").write_text("", encoding="utf-8")
    assert stray_catalogues(tmp_path, keep) == [Path("locale_extra/api/de/LC_MESSAGES/django.po")]


def test_a_duplicate_is_found(copy):
    po = copy / "django.po"
    entry = _first(read_po(po))
    with po.open("a", encoding="utf-8") as handle:
        handle.write(f"\nmsgid {_po_string(entry.id)}\nmsgstr {_po_string('Doppelt')}\n")
    found = duplicates(read_po(po))
    assert len(found) == 2 and all(repr(entry.id) in f for f in found)
    with po.open("a", encoding="utf-8") as handle:  # another context is another message
        handle.write(f'\nmsgctxt "test"\nmsgid {_po_string(entry.id)}\nmsgstr "Anders"\n')
    assert len(duplicates(read_po(po))) == 2


def test_a_stale_mo_is_found(copy):
    po, mo = copy / "django.po", copy / "django.mo"
    assert mo_differences(po, mo) == []
    text = po.read_text(encoding="utf-8")
    entry = _first(read_po(po))
    po.write_text(
        text + f"\nmsgid {_po_string(entry.id + ' (new)')}\nmsgstr {_po_string('Neu')}\n",
        encoding="utf-8",
    )
    assert mo_differences(po, mo) == [f"{entry.id + ' (new)'!r}: .po 'Neu', .mo None"]


def test_a_changed_translation_is_found(copy):
    po, mo = copy / "django.po", copy / "django.mo"
    entries = read_po(po)
    entry = _first(entries)
    lines = po.read_text(encoding="utf-8").splitlines()
    # Replace the entry's msgstr (and its continuation lines) by another text.
    start = next(i for i in range(entry.line - 1, len(lines)) if lines[i].startswith("msgstr"))
    end = start + 1
    while end < len(lines) and lines[end].startswith('"'):
        end += 1
    lines[start:end] = [f"msgstr {_po_string('Geändert')}"]
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert mo_differences(po, mo) == [f"{entry.key!r}: .po 'Geändert', .mo {entry.strs[None]!r}"]


def test_a_broken_placeholder_is_found(copy):
    po = copy / "django.po"
    entry = _first(read_po(po), python_format=True)
    broken = entry.strs[None].replace("%(", "%(x", 1)
    with po.open("a", encoding="utf-8") as handle:
        handle.write(f'\n#, python-format\nmsgctxt "test"\nmsgid {_po_string(entry.id)}\n')
        handle.write(f"msgstr {_po_string(broken)}\n")
        handle.write('\nmsgid "Has %(n)s but no flag"\nmsgstr "Hat %(n)s"\n')
    assert len(placeholder_problems(read_po(po))) == 2


def test_the_reader_reads_plurals_contexts_and_obsolete_entries(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        '#, python-format\nmsgid "%(n)s game"\nmsgid_plural "%(n)s games"\n'
        'msgstr[0] "ein Spiel"\nmsgstr[1] "%(n)s Spiele"\n\n'
        'msgctxt "runde"\nmsgid "first"\nmsgstr ""\n"erste"\n\n'
        '#, fuzzy\nmsgid "Unsure"\nmsgstr "Unsicher"\n\n'
        'msgid "Untranslated"\nmsgstr ""\n\n'
        '#~ msgid "Gone"\n#~ msgstr "Weg"\n',
        encoding="utf-8",
    )
    entries = read_po(po)
    assert [(e.ctxt, e.id, e.obsolete) for e in entries] == [
        (None, "", False),
        (None, "%(n)s game", False),
        ("runde", "first", False),
        (None, "Unsure", False),
        (None, "Untranslated", False),
        (None, "Gone", True),
    ]
    catalogue = compile_po(entries)
    assert catalogue[("%(n)s game", 0)] == "ein Spiel"
    assert catalogue[("%(n)s game", 1)] == "%(n)s Spiele"
    assert catalogue["runde\x04first"] == "erste"
    assert {"Unsure", "Untranslated", "Gone"}.isdisjoint(catalogue)
    assert placeholder_problems(entries) == []
