"""The code keeps a readable shape: no function over 60 lines outside the migrations and the
tests, and no attribute set on a request past the type checker (`ClubRequest` declares
what the pages keep on a request).

A function's length counts every line from its `def` to its last line, its docstring
included: what a reader has to hold at once.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project's code: the apps, the settings, the benches and the entry point.
CODE = ("games", "league", "schockclub", "bench", "manage.py")
MAX_LINES = 60
REQUEST_IGNORED = re.compile(r"\brequest\.\w+\s*(:[^=]+)?=.*#\s*type:\s*ignore")


def code_files() -> list[Path]:
    """The project's Python files outside the migrations, sorted."""
    files: list[Path] = []
    for name in CODE:
        path = ROOT / name
        files.extend([path] if path.is_file() else path.rglob("*.py"))
    return sorted(f for f in files if "migrations" not in f.parts)


def long_functions(source: str, limit: int = MAX_LINES) -> list[tuple[str, int]]:
    """(name, lines) of each function or method in `source` longer than `limit` lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines = (node.end_lineno or node.lineno) - first + 1
            if lines > limit:
                found.append((node.name, lines))
    return found


def test_the_project_has_code_files_to_check():
    names = {f.relative_to(ROOT).as_posix() for f in code_files()}
    assert "games/evenings/services.py" in names
    assert "manage.py" in names
    assert not any("/migrations/" in n for n in names)


def test_no_function_is_over_60_lines():
    too_long = [
        f"{path.relative_to(ROOT)}: {name} ({lines} lines)"
        for path in code_files()
        for name, lines in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert too_long == []


def test_the_length_check_counts_decorators_docstrings_and_nested_functions():
    body = "\n".join(f"    x{i} = {i}" for i in range(56))
    source = f'@decorated\ndef outer():\n    """Doc."""\n{body}\n    def inner():\n        pass\n'
    assert long_functions(source) == [("outer", 61)]
    assert long_functions(source, limit=61) == []


def test_no_attribute_is_set_on_a_request_past_the_type_checker():
    ignored = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in code_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if REQUEST_IGNORED.search(line)
    ]
    assert ignored == []


def test_the_request_check_finds_an_ignored_attribute():
    assert REQUEST_IGNORED.search("    request.kept = 1  # type: ignore[attr-defined]")
    assert REQUEST_IGNORED.search("request.kept: int = 1  # type: ignore")
    assert not REQUEST_IGNORED.search("    request.kept = 1")
    assert not REQUEST_IGNORED.search("    x = request.kept  # type: ignore[attr-defined]")
