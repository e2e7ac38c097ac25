"""The product's import graph has no circle: layers import one way (api → replay/projections →
domain; in domain, application → adapters → the pure model), and nothing is loaded lazily to
dodge a circle. Every import counts, also one inside a function; only those under
`if TYPE_CHECKING:` (never run) are left out."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "projections", "api", "replay")


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The product's modules that `name` imports (a module, and the packages it is in)."""
    tree = ast.parse(path.read_text(), str(path))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if _type_checking_only(node):
            skipped |= {id(child) for child in ast.walk(node)}
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets.add(base)
            targets |= {f"{base}.{alias.name}" for alias in node.names}
    edges: set[str] = set()
    for target in targets:
        parts = target.split(".")
        for n in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b too
            module = ".".join(parts[:n])
            if module in known and module != name and not name.startswith(module + "."):
                edges.add(module)
    return edges


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_product_has_no_import_circle() -> None:
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    assert sum(len(e) for e in graph.values()) > 300  # the graph was read
    assert circles(graph) == []


def test_a_circle_would_be_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_pure_model_imports_no_application_layer_or_adapter() -> None:
    known = modules()
    impure = ("domain.application", "domain.adapters")
    for name, path in known.items():
        if name.startswith(("domain.",)) and not name.startswith(impure):
            wrong = {m for m in imports(name, path, known) if m.startswith(impure)}
            assert not wrong, f"{name} imports {sorted(wrong)}"
