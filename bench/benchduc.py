"""The ranking benchmarks' setup (bench/suggestions.py, bench/builder_help.py): the shared DUC 2006
files (or PYRAMID_FULL_DATA's package, bench/benchdata.py) imported into a throwaway database
(bench/benchdb.py)."""

from contextlib import contextmanager

from benchdata import describe, package_files
from benchdb import bench_database

SHARED = ["duc2006-nist"]


@contextmanager
def duc2006_database():
    """Say which files, make the database, import them as collection "DUC 2006"; drop it after."""
    files = package_files(SHARED)
    print(describe(files))
    with bench_database():
        from django.core.management import call_command

        call_command(
            "import_ducview", *map(str, files), collection="DUC 2006", no_progress=True, verbosity=0
        )
        yield


def installed(ranker: str) -> bool:
    """Whether `ranker` can run here; said when it cannot (the semantic extra not installed)."""
    from annotator.assist import semantic

    if ranker == "semantic" and not semantic.available():
        print("semantic: not installed (pip install -e '.[semantic]'), skipped")
        return False
    return True
