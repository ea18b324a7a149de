"""The repository stands on its own: a clone alone runs, and a successor reads it without
the tracker it was built from. No tracked file reads or links a folder beside the checkout,
and none names a numbered issue: comments, docstrings, tests and the README say what the
code does and why."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

OUTSIDE = re.compile(r"\.\./shared|/work/[s]hared|parents\[\d\]\.parent\s*/\s*\"shared\"")
# Written so that this file's own source does not match it.
NUMBERED_ISSUE = re.compile(r"\bissues?\s+#?[0-9]+", re.IGNORECASE)


def tracked_text_files() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    files = []
    for name in filter(None, names):
        path = ROOT / name.decode()
        if path.is_file() and b"\0" not in path.read_bytes()[:4096]:
            files.append(path)
    return files


def offending_lines(pattern: re.Pattern[str]) -> list[str]:
    found = []
    for path in tracked_text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    return found


def test_no_file_reads_or_links_a_folder_beside_the_checkout():
    assert offending_lines(OUTSIDE) == []


def test_no_file_names_a_numbered_issue():
    assert offending_lines(NUMBERED_ISSUE) == []


def test_the_checks_see_what_they_look_for():
    # Put together here, so that this file itself holds neither.
    assert OUTSIDE.search("see .." + "/shared/RULES.md")
    assert NUMBERED_ISSUE.search("kept per season (Issue " + "15 item 2)")
    assert not NUMBERED_ISSUE.search("an issue of the season report")


def test_the_rules_document_and_the_samples_are_in_the_repository():
    assert (ROOT / "docs" / "rules.md").is_file()
    for name in ("evening-2026-10-09.json", "club-book-attendance.csv", "club-book-games.csv"):
        assert (ROOT / "tests" / "samples" / name).is_file()
