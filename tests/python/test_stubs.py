"""The shipped type stubs describe the extension exactly: every public class, function, method
and property of qaplan._core is in _core.pyi and vice versa; py.typed ships beside them."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path


def _stub_tree(qaplan):
    pkg = Path(qaplan.__file__).parent
    stub = pkg / "_core.pyi"
    assert stub.is_file(), "qaplan/_core.pyi is not installed"
    assert (pkg / "py.typed").is_file(), "qaplan/py.typed is not installed"
    return ast.parse(stub.read_text(encoding="utf-8"))


def _members(node: ast.ClassDef) -> set[str]:
    out = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            out.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            out.add(item.target.id)
    return out


def test_stubs_match_the_extension(qaplan):
    core = qaplan._core
    tree = _stub_tree(qaplan)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    runtime_classes = {n for n, v in vars(core).items() if inspect.isclass(v) and not n.startswith("_")}
    runtime_functions = {n for n, v in vars(core).items() if callable(v) and not inspect.isclass(v)}
    assert set(classes) == runtime_classes
    assert functions == runtime_functions
    for name, node in classes.items():
        cls = getattr(core, name)
        stubbed = _members(node)
        public = {m for m in dir(cls) if not m.startswith("__")}
        assert public <= stubbed, (name, public - stubbed)
        missing = {m for m in stubbed if not hasattr(cls, m)}
        assert not missing, (name, missing)


def test_package_exports(qaplan):
    for name in qaplan.__all__:
        assert hasattr(qaplan, name), name
    assert issubclass(qaplan.InvalidInput, qaplan.Error)
    assert qaplan.__version__.count(".") == 2
