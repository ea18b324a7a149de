"""The contract of kept reads holds in the code: a kept read declares what it depends on in
one place, `NAME = KeptRead("name", depends=(...))` at module level beside its view or
selector, and nothing else builds a key (league/club/caching.py).

Every module under games/, league/ and schockclub/ is parsed: none but caching.py calls
the key-building internals (`books_cached`, `books_cached_many`, `books_cached_until`,
`books_fragment`), every `KeptRead` with a written name is a module-level declaration,
and no two declarations share a name (they would share their keys). A name computed at
run time is left to the few generic helpers that derive it from their own namespace.
"""

import ast
from pathlib import Path

from django.conf import settings

PACKAGES = ("games", "league", "schockclub")
CACHING = Path("league/club/caching.py")
INTERNALS = frozenset({"books_cached", "books_cached_many", "books_cached_until", "books_fragment"})
# Helpers that declare a kept read per view, API read or template tag, its name made of
# theirs ("api.", "api_", "fragment:", "frame:", the view's module and name).
COMPUTED_NAMES = frozenset(
    {
        ("league/club/caching.py", "books_page.decorator"),
        ("league/club/caching.py", "api_conditional"),
        ("league/club/api_common.py", "kept_api_read"),
        ("league/club/api_common.py", "kept_api_object"),
        ("league/templatetags/books_cache.py", "KeptNode.render"),
    }
)


def _modules() -> list[tuple[Path, ast.Module]]:
    root = Path(settings.BASE_DIR)
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root)
            found.append((relative, ast.parse(path.read_text(encoding="utf-8"), str(relative))))
    return found


def _called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


class _Scan(ast.NodeVisitor):
    """Internal calls, and `KeptRead(...)` calls with where they stand: the enclosing
    functions' qualified name ("" at module level) and whether the call is the value of a
    module-level assignment."""

    def __init__(self) -> None:
        self.scope: list[str] = []
        self.internal_calls: list[tuple[int, str]] = []
        self.declarations: list[tuple[int, str | None, str, bool]] = []
        self._module_level_values: set[int] = set()

    def visit_Module(self, node: ast.Module) -> None:
        for statement in node.body:
            if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value:
                self._module_level_values.add(id(statement.value))
        self.generic_visit(node)

    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Call(self, node: ast.Call) -> None:
        name = _called_name(node)
        if name in INTERNALS:
            self.internal_calls.append((node.lineno, name))
        if name == "KeptRead":
            first = node.args[0] if node.args else None
            literal = (
                first.value
                if isinstance(first, ast.Constant) and isinstance(first.value, str)
                else None
            )
            declared = not self.scope and id(node) in self._module_level_values
            self.declarations.append((node.lineno, literal, ".".join(self.scope), declared))
        self.generic_visit(node)


def contract_breaches(modules: list[tuple[Path, ast.Module]]) -> list[str]:
    """What breaks the contract in `modules` ((path relative to the project, parsed
    module) pairs), one line each: an internal called outside caching.py, a `KeptRead` with
    a written name not declared at module level, one with a computed name outside the
    generic helpers, two declarations of one name."""
    breaches: list[str] = []
    names: dict[str, str] = {}
    for path, tree in modules:
        scan = _Scan()
        scan.visit(tree)
        if path != CACHING:
            for line, name in scan.internal_calls:
                breaches.append(f"{path}:{line} calls {name} (declare a KeptRead instead)")
        for line, literal, scope, declared in scan.declarations:
            where = f"{path}:{line}"
            if literal is None:
                if (path.as_posix(), scope) not in COMPUTED_NAMES:
                    breaches.append(f"{where} declares a KeptRead with a computed name")
                continue
            if not declared:
                breaches.append(f"{where} KeptRead {literal!r} is not a module-level declaration")
            if literal in names:
                breaches.append(f"{where} KeptRead {literal!r} is declared at {names[literal]} too")
            names.setdefault(literal, where)
    return breaches


def test_no_key_is_built_outside_a_kept_read_declaration():
    breaches = contract_breaches(_modules())
    assert not breaches, "\n".join(breaches)


def _parsed(source: str, path: str = "league/example/views.py") -> list[tuple[Path, ast.Module]]:
    return [(Path(path), ast.parse(source))]


def test_a_hand_built_key_is_found():
    found = contract_breaches(
        _parsed(
            "from league.club import caching\n"
            "from league.club.caching import books_cached\n"
            "def view(request):\n"
            "    books_cached('x', 1, build=list)\n"
            "    return caching.books_fragment(request, 1, template='t', context=dict)\n"
        )
    )
    assert found == [
        "league/example/views.py:4 calls books_cached (declare a KeptRead instead)",
        "league/example/views.py:5 calls books_fragment (declare a KeptRead instead)",
    ]
    assert not contract_breaches(
        _parsed(
            "def books_cached(*parts, build):\n    return build()\nbooks_cached(1, build=list)\n",
            "league/club/caching.py",
        )
    )


def test_a_kept_read_is_declared_once_at_module_level():
    found = contract_breaches(
        _parsed(
            "EVENINGS = KeptRead('evenings', depends=('books',))\n"
            "AGAIN = KeptRead('evenings', depends=('books', 'role'))\n"
            "def view(request, name):\n"
            "    KeptRead('inline').cached(build=list, request=request)\n"
            "    KeptRead(f'x{name}')\n"
        )
    )
    assert found == [
        "league/example/views.py:2 KeptRead 'evenings' is declared at "
        "league/example/views.py:1 too",
        "league/example/views.py:4 KeptRead 'inline' is not a module-level declaration",
        "league/example/views.py:5 declares a KeptRead with a computed name",
    ]
