"""The package as a whole: every public name of every module has a
docstring and a typed entry in the module's stub (.pyi), methods
included; the exceptions form the documented hierarchy."""

import ast
import importlib
import inspect
import pathlib

import pytest

import dalkon

MODULES = ["dalkon", "dalkon.dakon", "dalkon.daldos", "dalkon.openspiel"]


def stub_of(module):
    path = pathlib.Path(module.__file__)
    stub = path.with_suffix(".pyi") if path.name != "__init__.py" else path.with_name("__init__.pyi")
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                members[node.name] = {
                    n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))
                } | {
                    n.target.id
                    for n in node.body
                    if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
                }
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names, members


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_is_documented_and_stubbed(name):
    module = importlib.import_module(name)
    assert module.__doc__ and module.__doc__.strip(), name
    names, members = stub_of(module)
    public = module.__all__
    assert sorted(set(public)) == sorted(public), "duplicates in __all__"
    for attr in public:
        assert attr in names, f"{name}.{attr} is not in the stub"
        obj = getattr(module, attr)
        if inspect.ismodule(obj) or isinstance(obj, (str, int, float, tuple, dict)):
            continue
        assert obj.__doc__ and obj.__doc__.strip(), f"{name}.{attr} has no docstring"
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for m, v in vars(obj).items():
                if m.startswith("_"):
                    continue
                # The OpenSpiel classes also carry OpenSpiel's own
                # protocol methods, which its documentation covers.
                if name != "dalkon.openspiel":
                    assert m in members.get(attr, set()), f"{name}.{attr}.{m} is not in the stub"
                assert getattr(v, "__doc__", None), f"{name}.{attr}.{m} has no docstring"


def test_the_exceptions():
    assert issubclass(dalkon.InputError, dalkon.DalkonError)
    assert issubclass(dalkon.DataError, dalkon.DalkonError)
    assert issubclass(dalkon.DalkonError, Exception)
    assert not issubclass(dalkon.DataError, dalkon.InputError)
    assert issubclass(dalkon.daldos.NotCoveredError, dalkon.InputError)
    with pytest.raises(dalkon.InputError) as e:
        dalkon.dakon.Position.parse("nonsense")
    assert "\n" not in str(e.value) and str(e.value)


def test_the_version_is_the_workspace_one():
    root = pathlib.Path(__file__).resolve().parents[3]
    cargo = (root / "Cargo.toml").read_text()
    assert f'version = "{dalkon.__version__}"' in cargo
