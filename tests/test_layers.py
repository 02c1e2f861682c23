"""The import direction between the layers (docs/architecture.md), read from every module's import statements.

Bottom to top: the rules (``contack_env.protocol``, ``contack_env.contack``, ``contack_env.contactix``) ->
records and rendering -> environments -> the registry of games -> ``agents`` -> ``training`` -> the command line.
A module may import its own layer and the layers below, never above; imports inside functions count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("contack_env", "agents", "training")

# (layer, module prefixes); a module belongs to the layer of its longest matching prefix.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("rules", ("contack_env.protocol", "contack_env.atomic", "contack_env.checks", "contack_env.seeds", "contack_env.wording", "contack_env.cli_support", "contack_env.contack", "contack_env.contactix")),
    ("records and rendering", ("contack_env.records", "contack_env.render")),
    ("environments", ("contack_env.envs",)),
    ("registry of games", ("contack_env.games",)),
    ("agents", ("agents",)),
    ("training", ("training",)),
    ("command line", ("contack_env.cli", "contack_env.app")),
]
# The package's front door re-exports the rules engine and registers the environments by name (entry-point
# strings and a lazy module attribute): it may import up to the environments.
FRONT = {"contack_env": "environments"}
ORDER = [name for name, _ in LAYERS]


def layer_of(module: str) -> str:
    if module in FRONT:
        return FRONT[module]
    best = None
    for name, prefixes in LAYERS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[1])):
                best = (name, prefix)
    if best is None:
        raise AssertionError(f"{module} belongs to no layer: add it to LAYERS in tests/test_layers.py")
    return best[0]


def modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def imports_of(module: str, path: Path) -> set[str]:
    """Every project module ``module`` imports (absolute or relative, at any depth of the code)."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    # Imports under ``if TYPE_CHECKING:`` are for the type checker only: they never run.
    typing_only = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.If) and _is_type_checking(node.test)
                   for stmt in node.body for inner in ast.walk(stmt)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [target] + [f"{target}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            if name.split(".")[0] in PACKAGES:
                found.add(name)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


ALL = modules()


def resolve(name: str) -> str | None:
    """The project module an imported name refers to (``a.b.c`` may be module ``a.b`` with attribute ``c``)."""
    while name:
        if name in ALL:
            return name
        name = name.rpartition(".")[0]
    return None


@pytest.mark.parametrize("module", sorted(ALL))
def test_imports_point_down(module):
    mine = ORDER.index(layer_of(module))
    for name in sorted(imports_of(module, ALL[module])):
        target = resolve(name)
        if target is None or target == module:
            continue
        theirs = ORDER.index(layer_of(target))
        assert theirs <= mine, (
            f"{module} ({ORDER[mine]}) imports {target} ({ORDER[theirs]}): imports point down the layers "
            f"{' -> '.join(ORDER)}"
        )


def test_no_cycles_between_subpackages():
    def unit(module: str) -> str:
        parts = module.split(".")
        return ".".join(parts[:2]) if parts[0] == "contack_env" else parts[0]

    graph: dict[str, set[str]] = {}
    for module, path in ALL.items():
        for name in imports_of(module, path):
            target = resolve(name)
            if target and unit(target) != unit(module):
                graph.setdefault(unit(module), set()).add(unit(target))
    # Depth-first search for a back edge.
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle = trail[trail.index(nxt):] + [nxt] if nxt in trail else trail + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])


def test_every_module_has_a_layer():
    for module in ALL:
        layer_of(module)


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` (its nodes in order, the first repeated at the end), or None."""
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return trail[trail.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, trail + [nxt])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def test_no_cycles_between_modules():
    # Two modules that import each other (even inside a function) cannot be read, tested or moved one at a
    # time. A package's __init__ that re-exports its own modules is its front door, not one of them.
    graph: dict[str, set[str]] = {}
    for module, path in ALL.items():
        if path.name == "__init__.py":
            continue
        for name in imports_of(module, path):
            target = resolve(name)
            if target and target != module and ALL[target].name != "__init__.py":
                graph.setdefault(module, set()).add(target)
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle between modules: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def _reads_attribute(path: Path, attribute: str) -> bool:
    return any(isinstance(node, ast.Attribute) and node.attr == attribute for node in ast.walk(ast.parse(path.read_text())))


def test_the_registry_names_by_string_only_what_its_readers_may_import():
    # A GameSpec names a game's environments, observer and web adapter as "module:attribute" strings, loaded on
    # use, so that importing the registry imports none of them. The imports above cannot see such a link: this
    # test reads the strings. The environments and the observer lie below the registry; the web adapter lies in
    # the top layer, and only that layer may load it.
    from contack_env.games import GAMES

    registry = ORDER.index(layer_of("contack_env.games"))
    for spec in GAMES.values():
        for target in (*spec.environments, spec.observer):
            if target:
                module = target.partition(":")[0]
                assert module in ALL and ORDER.index(layer_of(module)) <= registry, (
                    f"{spec.name}: {target} is not a module below the registry")
        if spec.web:
            module = spec.web.partition(":")[0]
            assert module in ALL and layer_of(module) == "command line", (
                f"{spec.name}: its web adapter {spec.web} is not in the command line layer")
    readers = sorted(m for m, path in ALL.items() if m != "contack_env.games" and _reads_attribute(path, "web"))
    assert readers and all(layer_of(m) == "command line" for m in readers), readers
