"""The house's rooms stay apart (issue 18), read from the source with `ast`, not by convention:

- a page module (`views.py`, a `views/` package) is imported only by the URL configurations and by
  the pages of its own package: what pages and API share lives in services beside them;
- annotator shows scoring's results only where it presents them (its pages, the workspace
  builders, the API's router): its services and records never depend on scoring;
- the pure modules (the equations, DUCView's formats, the alignment) import nothing of Django, and
  the text helpers only its text utilities (escaping, plurals), never the database or the records:
  they can be read, tested and typed alone.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    path
    for app in ("annotator", "scoring", "config")
    for path in (ROOT / app).rglob("*.py")
    if "migrations" not in path.parts
)
PURE = [
    "scoring/scores/pyramid.py",
    "scoring/scores/variants.py",
    "scoring/agreement/alpha.py",
    "scoring/agreement/units.py",
    "scoring/statistics/significance.py",
    "scoring/stability/analysis.py",
    "scoring/judgments/correlation.py",
    "scoring/statistics/ranking.py",
    "scoring/numbers.py",
    "scoring/scores/tables.py",
    "scoring/scores/formats.py",
    "scoring/reports/plots.py",
    "scoring/coverage/scores.py",
    "annotator/coverage/splitting.py",
    "annotator/coverage/majority.py",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "annotator/coverage/formats").glob("*.py")),
    "annotator/adjudication/alignment.py",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "annotator/ducview").glob("*.py")),
]
TEXT_HELPERS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "annotator/text").glob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """Every module the file imports (`from a.b import c` counts a.b and a.b.c), at any depth."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def is_page_module(name: str) -> bool:
    return name.endswith(".views") or ".views." in name


def package_of(name: str) -> str:
    return name.split(".views")[0]


def test_page_modules_are_imported_only_by_urls_and_their_own_pages():
    found = []
    for path in SOURCES:
        importer = module_name(path)
        if importer.endswith("urls"):
            continue
        for name in imported(path):
            if not name.startswith(("annotator.", "scoring.")) or not is_page_module(name):
                continue
            if is_page_module(importer) and package_of(importer) == package_of(name):
                continue
            found.append(f"{importer} imports {name}")
    assert found == []


def test_annotator_uses_scoring_only_where_it_presents_results():
    presenting = ("views", "workspace", "urls")
    found = []
    for path in SOURCES:
        importer = module_name(path)
        if not importer.startswith("annotator."):
            continue
        if is_page_module(importer) or importer.rsplit(".", 1)[-1] in presenting:
            continue
        found += [f"{importer} imports {n}" for n in imported(path) if n.startswith("scoring")]
    assert found == []


@pytest.mark.parametrize("relative", PURE)
def test_a_pure_module_imports_nothing_of_django_nor_the_records(relative):
    names = imported(ROOT / relative)
    assert not {n for n in names if n.split(".")[0] == "django"}, relative
    assert not {n for n in names if n.startswith("annotator.models")}, relative


@pytest.mark.parametrize("relative", TEXT_HELPERS)
def test_a_text_helper_uses_only_djangos_text_utilities(relative):
    names = imported(ROOT / relative)
    assert not {n for n in names if n.startswith("django.") and not n.startswith("django.utils")}
    assert not {n for n in names if n.startswith(("annotator.", "scoring."))} - {
        n for n in names if n.startswith("annotator.text")
    }, relative


MODEL_MODULES = sorted(
    path
    for app in ("annotator", "scoring")
    for path in (ROOT / app).rglob("models.py")
    if "migrations" not in path.parts
)


def test_the_records_live_with_their_domain_and_import_no_service():
    """Each domain's models are in its package's models.py (annotator/models.py only gathers them
    for Django); a model module imports Django, the standard library and other model modules, never
    a service, a page or the API."""
    assert len(MODEL_MODULES) >= 10
    gathered = (ROOT / "annotator" / "models.py").read_text()
    assert "class " not in gathered, "annotator/models.py defines records: move them to a package"
    found = []
    for path in MODEL_MODULES:
        for name in imported(path):
            if name.startswith(("annotator", "scoring")) and not (
                name.endswith(".models") or ".models." in name or name == "annotator.models"
            ):
                found.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not found, "\n".join(found)


def test_the_model_modules_depend_one_way():
    """No circle among the domains' model modules: a lower one names a higher one's model by its
    name ("annotator.Pyramid"), never by an import."""
    graph = {
        module_name(path): {
            name
            for name in imported(path)
            if name.endswith(".models") and name != module_name(path) and name != "annotator.models"
        }
        for path in MODEL_MODULES
        if path != ROOT / "annotator" / "models.py"
    }
    for start in graph:
        seen, stack = set(), [start]
        while stack:
            for nxt in graph.get(stack.pop(), ()):
                assert nxt != start, f"{start} imports itself back through {nxt}"
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
