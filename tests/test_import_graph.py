"""The app's modules import each other without cycles, and no app module imports the development
tools (training/, bench/, tests/). Imports inside functions count too: a cycle hidden in a function
still ties two modules together (app.py and the OpenAPI recorder were such a pair)."""
from __future__ import annotations

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP_PACKAGES = ("scoring", "game", "league", "storage", "services", "recognition", "web")
DEV_PACKAGES = ("training", "bench", "tests")


def _modules() -> dict[str, str]:
    """Module name -> file, for app.py and every module of the app packages."""
    found = {"app": os.path.join(ROOT, "app.py")}
    for package in APP_PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, package)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in files:
                if name.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, name), ROOT)[:-3].replace(os.sep, ".")
                    found[rel.removesuffix(".__init__")] = os.path.join(folder, name)
    return found


def _imports(module: str, path: str, known: set[str]) -> set[str]:
    """The project modules (and dev packages) that ``module`` imports anywhere in its file."""
    is_package = path.endswith("__init__.py")
    out: set[str] = set()
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                parts = parts if is_package else parts[:-1]
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        for name in names:
            while name and name not in known and name.split(".")[0] not in DEV_PACKAGES:
                name = name.rpartition(".")[0]
            # a module's own package is imported before it anyway: not an edge
            if name and not module.startswith(name + ".") and name != module:
                out.add(name)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: _imports(m, p, set(modules)) for m, p in modules.items()}


def test_no_app_module_imports_training_bench_or_tests():
    offenders = {m: sorted(i for i in deps if i.split(".")[0] in DEV_PACKAGES)
                 for m, deps in _graph().items()}
    assert {m: d for m, d in offenders.items() if d} == {}


def test_the_app_modules_import_each_other_without_cycles():
    graph = _graph()
    cycles, state = [], {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if nxt not in graph:
                continue
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert cycles == []


def test_the_cycle_check_sees_imports_inside_functions():
    """The check itself: an import inside a function is an edge of the graph."""
    graph = _graph()
    assert "app" in graph["web.openapi_record"]
    assert "web.openapi" in graph["app"]


def _test_files() -> list[str]:
    out = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "tests")):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "data")]
        out += [os.path.join(folder, f) for f in files if f.endswith(".py")]
    return out


def _imported_names(path: str) -> set[str]:
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
    return names


# The one test that reads bench/ on purpose: it asserts the memory target with the benchmark's own
# measurement (a fresh process's peak), so that the test and `python -m bench.bench_image_memory`
# report the same numbers.
BENCH_ON_PURPOSE = {("tests/test_image_memory.py", "bench.bench_image_memory")}


def test_tests_share_helpers_through_helper_modules_not_through_other_tests_or_bench():
    """Fixtures live in conftest.py and plain helpers in *_helpers.py modules: a test module that
    imports another test module runs (or hides) that module's tests twice, and bench/ is not the
    tests' to lean on."""
    offenders = {}
    for path in _test_files():
        rel = os.path.relpath(path, ROOT)
        bad = sorted(n for n in _imported_names(path)
                     if n.lstrip(".").split(".")[-1].startswith("test_")
                     or (n.split(".")[0] == "bench" and (rel, n) not in BENCH_ON_PURPOSE))
        if bad:
            offenders[rel] = bad
    assert offenders == {}
