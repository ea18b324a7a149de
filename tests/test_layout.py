"""The layout holds: no two modules import each other, directly or round a cycle.

The layers themselves (rules < club register < play < books < wiring) are the
import-linter contract in pyproject.toml, run by `make lint` and CI; a cycle inside one
layer is what that contract cannot see, so it is checked here.
"""

import grimp

PACKAGES = ("games", "league", "schockclub")


def import_cycles(graph, packages=PACKAGES) -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan, iterative)."""
    ours = sorted(m for m in graph.modules if m.split(".")[0] in packages)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0
    for root in ours:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child.split(".")[0] not in packages:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        cycles.append(sorted(group))
    return cycles


def test_no_two_modules_import_each_other():
    assert import_cycles(grimp.build_graph(*PACKAGES)) == []


def test_the_cycle_check_finds_a_cycle(tmp_path, monkeypatch):
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclepkg import b\n")
    (pkg / "b.py").write_text("from cyclepkg import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cyclepkg", cache_dir=None)
    assert import_cycles(graph, ("cyclepkg",)) == [["cyclepkg.a", "cyclepkg.b"]]
