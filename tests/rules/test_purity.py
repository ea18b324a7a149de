"""games/rules is standard library only (docs/rules.md 7, STYLE.md 2): no Django, no apps."""

import ast
import sys
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parents[2] / "games" / "rules"
RULES_FILES = sorted(RULES_DIR.glob("*.py"))


def imported_top_level_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.append(node.module)
    return names


def test_the_rules_package_has_modules_to_check():
    assert {"throws.py", "turns.py", "rounds.py"} <= {p.name for p in RULES_FILES}


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: p.name)
def test_rules_module_imports_only_the_standard_library_and_itself(path):
    foreign = [
        name
        for name in imported_top_level_names(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and not (name == "games.rules" or name.startswith("games.rules."))
    ]
    assert foreign == []
