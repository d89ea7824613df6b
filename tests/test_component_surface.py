"""The package's public surface is exactly what ``components.__all__`` lists."""

import inspect

import pulumi

import components


def test_all_public_names_are_exported_and_sorted() -> None:
    assert components.__all__ == sorted(components.__all__, key=str.casefold)
    for name in components.__all__:
        value = getattr(components, name)  # resolved on first use
        assert not inspect.ismodule(value), name
        assert getattr(value, "__name__", name) == name or not callable(value), name


def test_every_component_has_a_project_token_and_frozen_args() -> None:
    classes = [getattr(components, n) for n in components.__all__]
    resources = [c for c in classes if inspect.isclass(c) and issubclass(c, pulumi.ComponentResource)]
    assert len(resources) == 7
    for resource in resources:
        args = getattr(components, f"{resource.__name__}Args")
        assert args.model_config["frozen"] and args.model_config["extra"] == "forbid", args
        source = inspect.getsource(resource)
        module = resource.__module__.rsplit(".", 1)[1]
        assert f'"gpu-cluster:{module}:{resource.__name__}"' in source
        assert "register_outputs" in source


def test_a_type_checker_sees_every_export_where_it_lives() -> None:
    """The TYPE_CHECKING imports name exactly the lazily loaded exports, from the modules they load from."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(components.__file__).read_text())
    guarded = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    seen = {
        alias.asname: node.module
        for node in guarded.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    }
    assert seen == {name: f"components.{module}" for name, module in components._EXPORTS.items()}


def test_the_package_is_typed_and_its_public_names_documented() -> None:
    from pathlib import Path

    assert (Path(components.__file__).parent / "py.typed").is_file()
    undocumented = [name for name in components.__all__ if not inspect.getdoc(getattr(components, name))]
    assert undocumented == []
