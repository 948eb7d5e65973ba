"""Benchmark: the memory `import_ducview` needs for a very large pyramid (issue 16).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/import_memory.py

Writes a SIZE_MB .pyr (default 20, the per-file limit) from DUC 2006's D0631.pyr, its SCUs repeated
under new uids (about 43,000 SCUs), imports it with `manage.py import_ducview --max-file-mb` in a
fresh process, and prints the peak resident memory above that of importing the project's small
fixture (the same process's start-up: Django, NumPy, SciPy). The records are stored in batches of
SCUs and the pyramid's fingerprint is hashed an SCU at a time; what remains grows with the file (the
parsed document). Uses a database of its own (bench/benchdb.py); D0631.pyr comes from
PYRAMID_FULL_DATA's package when it holds one (bench/benchdata.py).
"""

import os
import re
import subprocess
import sys
import tempfile

from benchdata import data_file, describe
from benchdb import ROOT, bench_database

SOURCE = "duc2006-nist/allpyramids/D0631.pyr"

SIZE_MB = int(os.environ.get("SIZE_MB", "20"))


def large_pyramid(path: str) -> int:
    source = data_file(SOURCE).read_text(encoding="utf-8")
    head, rest = source.split("<scu ", 1)
    blocks = re.findall(r"<scu .*?</scu>", "<scu " + rest, re.S)
    uid, size, parts = 1, len(head), [head]
    while size < SIZE_MB * 2**20:
        for block in blocks:
            copy = re.sub(r'uid="\d+"', f'uid="{uid}"', block, count=1) + "\n"
            uid, size = uid + 1, size + len(copy)
            parts.append(copy)
    parts.append("</pyramid>\n")
    with open(path, "w", encoding="utf-8") as out:
        out.write("".join(parts))
    return uid - 1


def peak_mb(path: str, collection: str) -> float:
    """The peak resident memory of a fresh process importing the file (MB)."""
    code = (
        "import resource, sys, django; django.setup(); from django.core.management import "
        f"call_command; call_command('import_ducview', {path!r}, collection={collection!r}, "
        "max_file_mb=SIZE, no_progress=True); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    ).replace("SIZE", str(SIZE_MB + 5))
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=os.environ,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.strip().splitlines()[-1]) / 1024


def main() -> None:
    print(describe([data_file(SOURCE)]))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "D0631.pyr")
        scus = large_pyramid(path)
        size = os.path.getsize(path) / 2**20
        baseline = peak_mb(str(ROOT / "tests" / "fixtures" / "ducview" / "D9901.pyr"), "small")
        large = peak_mb(path, "large")
    print(
        f"a {size:.0f} MB .pyr ({scus:,} SCUs): peak {large:.0f} MB resident, "
        f"{large - baseline:.0f} MB above the {baseline:.0f} MB of a small import "
        f"({(large - baseline) / size:.1f}x the file)"
    )


if __name__ == "__main__":
    with bench_database():
        main()
