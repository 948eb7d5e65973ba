"""The map stays true (issue 34): the developer's guide's Layout names every package of the two apps
and every script of static/js/, and each package's docstring names each of its modules and
subpackages, so that a newcomer finds a thing from either."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYOUT = ROOT / "docs" / "developer" / "index.md"
APPS = ("annotator", "scoring")
NOT_PACKAGES_OF_THE_METHOD = {"migrations", "management", "commands", "__pycache__"}


def packages() -> list[Path]:
    return sorted(
        init.parent
        for app in APPS
        for init in (ROOT / app).rglob("__init__.py")
        if not NOT_PACKAGES_OF_THE_METHOD & set(init.relative_to(ROOT).parts)
    )


def test_the_layout_names_every_package_and_every_script():
    layout = LAYOUT.read_text(encoding="utf-8")
    unnamed = [
        f"{package.relative_to(ROOT).as_posix()}/"
        for package in packages()
        if package.parent != ROOT  # the apps themselves
        and f"{package.relative_to(ROOT).as_posix()}/" not in layout
        and f"`{package.name}/`" not in layout
    ]
    assert not unnamed, f"packages the Layout does not name: {unnamed}"
    scripts = sorted(path.name for path in (ROOT / "static" / "js").glob("*.js"))
    assert len(scripts) >= 15
    missing = [name for name in scripts if f"`{name}`" not in layout]
    assert not missing, f"static/js files the Layout does not name: {missing}"


def test_each_package_docstring_names_its_modules():
    silent = []
    for package in packages():
        docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""
        parts = [
            path.name
            for path in package.iterdir()
            if path.suffix == ".py" and path.name != "__init__.py"
        ] + [
            f"{path.name}/"
            for path in package.iterdir()
            if (path / "__init__.py").exists() and path.name not in NOT_PACKAGES_OF_THE_METHOD
        ]
        unnamed = sorted(part for part in parts if f"`{part}`" not in docstring)
        if unnamed:
            silent.append(f"{package.relative_to(ROOT).as_posix()}: {unnamed}")
    assert not silent, "packages whose docstring leaves out modules:\n" + "\n".join(silent)


def test_the_templates_follow_the_packages():
    """templates/<package>/ for annotator's packages, templates/scoring/<package>/ for scoring's;
    apart
    from them only Django's registration pages and the pieces every page shares."""
    shared = {"registration", "includes"}
    annotator = {p.name for p in packages() if p.parent == ROOT / "annotator"}
    scoring = {p.name for p in packages() if p.parent == ROOT / "scoring"}
    folders = [p for p in (ROOT / "templates").iterdir() if p.is_dir()]
    assert len(folders) >= 10
    strays = [p.name for p in folders if p.name not in annotator | shared | {"scoring"}]
    assert not strays, f"template folders named after no package: {strays}"
    scoring_folders = [p.name for p in (ROOT / "templates" / "scoring").iterdir() if p.is_dir()]
    assert sorted(scoring_folders) == sorted(set(scoring_folders) & scoring)
    loose = [p.name for p in (ROOT / "templates" / "scoring").glob("*.html")]
    assert not loose, f"scoring's templates outside its packages: {loose}"
