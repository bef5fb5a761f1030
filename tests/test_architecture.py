"""The package's plan: docs/architecture.md's layer table is the import graph's law.

The table lists the layers from the bottom up: a module may import from its own layer
and from the layers above it in the table (lower in the stack), never from one below it
(higher in the stack), so the import graph has no cycle between layers.  Every
subpackage and every module of it is in the table.  Imports inside a module's
``__getattr__`` (the package's lazy imports) are not counted.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "skbioner"
DOC = ROOT / "docs" / "architecture.md"


def layer_table():
    """``[(layer name, {module file names})]`` from the doc's table, bottom layer first."""
    lines = DOC.read_text(encoding="utf-8").split("## Layers", 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| layer |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = cells[0].strip("`")
        modules = set(re.findall(r"`([A-Za-z_]+\.py)`", cells[1]))
        rows.append((name, modules))
    return rows


def unit_of(path):
    """The layer unit of a module file: its subpackage, or ``skbioner/<file>`` at the top."""
    rel = path.relative_to(PACKAGE)
    return f"skbioner.{rel.parts[0]}" if len(rel.parts) > 1 else f"skbioner/{rel.name}"


def imports_of(path):
    """Absolute module names ``path`` imports from skbioner (lazy ``__getattr__`` imports
    excluded), with lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    shims = {id(n) for f in tree.body if isinstance(f, ast.FunctionDef)
             and f.name == "__getattr__" for n in ast.walk(f)}
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    else:
        package = package[: -len(".__init__")]
    out = []
    for node in ast.walk(tree):
        if id(node) in shims:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                out.append((f"{target}.{alias.name}", node.lineno))
        elif isinstance(node, ast.Import):
            out.extend((alias.name, node.lineno) for alias in node.names)
    return [(name, line) for name, line in out if name.startswith("skbioner")]


def unit_of_import(name):
    parts = name.split(".")
    if len(parts) < 2:
        return "skbioner/__init__.py"
    target = PACKAGE / parts[1]
    if target.is_dir():
        return f"skbioner.{parts[1]}"
    if (PACKAGE / f"{parts[1]}.py").is_file():
        return f"skbioner/{parts[1]}.py"
    return "skbioner/__init__.py"  # a name of the package root


def test_every_module_is_in_the_layer_table():
    listed = {}
    for name, modules in layer_table():
        for m in modules:
            listed.setdefault(name, set()).add(m)
    for sub in sorted(p for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()):
        have = {f.name for f in sub.glob("*.py") if f.name != "__init__.py"}
        assert listed.get(f"skbioner.{sub.name}") == have, (
            f"docs/architecture.md: the row of skbioner.{sub.name} lists "
            f"{sorted(listed.get(f'skbioner.{sub.name}', ()))}, the package has {sorted(have)}")
    top = {f.name for f in PACKAGE.glob("*.py") if f.name not in ("__init__.py", "__main__.py")}
    in_table = {m for name, modules in layer_table() if not name.startswith("skbioner.")
                for m in modules}
    assert in_table == top, f"top-level modules in the table {sorted(in_table)} != {sorted(top)}"


def test_imports_never_go_down_the_table():
    order = {}
    for rank, (name, modules) in enumerate(layer_table()):
        if name.startswith("skbioner."):
            order[name] = rank
        for m in modules:
            order.setdefault(f"skbioner/{m}", rank)
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        src = unit_of(path)
        if src in ("skbioner/__init__.py", "skbioner/__main__.py"):
            continue  # the package's front door sits on top of everything
        for name, line in imports_of(path):
            dst = unit_of_import(name)
            if dst != src and order.get(dst, len(order)) > order[src]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name} ({dst} is above "
                             f"{src} in docs/architecture.md)")
    assert not wrong, "\n".join(wrong)


def splits_of_its_own(package):
    """Where a module of ``package`` outside ``model_selection`` cuts folds or hold-outs."""
    splitters = re.compile(r"(Fold|Split)$|^(train_test_split|array_split)$")
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.parent.name == "model_selection":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sklearn"):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Attribute):
                names = [node.attr]
            elif isinstance(node, ast.Tuple) and len(node.elts) == 2 and \
                    isinstance(node.elts[0], ast.Constant) and node.elts[0].value == "" \
                    and isinstance(node.elts[1], ast.Name):
                names = ["the key (\"\", i) of a sentence without document id"]
            found += [f"{path.relative_to(package.parent)}:{node.lineno} {n}" for n in names
                      if n.startswith("the key") or splitters.search(n)]
    return found


def test_only_model_selection_cuts_folds_and_holdouts():
    """Leakage prevention rests on one rule (a document's sentences stay together, a
    sentence without id is a document of its own), written once: every fold loop and
    hold-out of the package cuts with ``skbioner.model_selection``; no other module
    imports a scikit-learn splitter, cuts index blocks with ``array_split`` or makes the
    document key of a sentence without id."""
    found = splits_of_its_own(PACKAGE)
    assert not found, "\n".join(found)


def test_no_function_is_longer_than_120_lines():
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = node.end_lineno - node.lineno + 1
                if n > 120:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({n} lines)")
    assert not long, "\n".join(long)


def test_the_train_command_stays_small():
    assert len((PACKAGE / "cli" / "_train.py").read_text().splitlines()) <= 150


@pytest.mark.parametrize("folder", ["examples", "benchmarks", "scripts"])
def test_scripts_use_public_names_only(folder):
    """Examples use public names only; a benchmark or script may reach a private name
    (a compiled kernel it times, a gadget it crafts) on a line that says why
    (``# private: <reason>``)."""
    private = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if folder != "examples" and "# private: " in line:
                continue
            if re.search(r"from skbioner(\.[a-z_]+)*\._[a-z_]+ import|import skbioner\.\S*\._",
                         line):
                private.append(f"{path.relative_to(ROOT)}:{line_no}: {line.strip()}")
    assert not private, "\n".join(private)


@pytest.mark.parametrize("folder", ["examples", "benchmarks", "scripts"])
def test_scripts_import_names_that_exist(folder):
    """Every ``from skbioner... import name`` of a script still resolves (a moved name
    breaks a script that no test runs)."""
    import importlib

    missing = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.module
                    and node.module.split(".")[0] == "skbioner" and node.level == 0):
                continue
            module = importlib.import_module(node.module)
            for alias in node.names:
                if not hasattr(module, alias.name):
                    try:
                        importlib.import_module(f"{node.module}.{alias.name}")
                    except ImportError:
                        missing.append(f"{path.relative_to(ROOT)}:{node.lineno}: "
                                       f"{node.module}.{alias.name}")
    assert not missing, "\n".join(missing)
