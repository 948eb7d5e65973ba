"""The DUCView files a benchmark runs on: a full NIST package when one is named, else the shared
subset.

PYRAMID_FULL_DATA=/path/to/package names one full data package laid out as the shared folders are
(../shared/data/pyramids/duc2006-nist, duc2007-main-nist, ...): NIST's .pyr and .pan files, at any
depth below it (e.g. allpyramids/D0601.pyr, allpans/100.D0601.M.250.A.25.pan), named as NIST names
them (the importer reads docset, peer and annotator from the names: annotator.ducview.names).
The shared subset holds few of the files that matter at scale; without PYRAMID_FULL_DATA the
benchmarks run on PYRAMID_DATA (default ../shared/data/pyramids) and say so.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PYRAMID_DATA", ROOT.parent / "shared" / "data" / "pyramids"))
FULL_DATA = Path(os.environ["PYRAMID_FULL_DATA"]) if os.environ.get("PYRAMID_FULL_DATA") else None
SUFFIXES = {".pyr", ".pan"}


def package_folders(shared: list[str]) -> list[Path]:
    """The full package's folder, or the shared folders named (relative to DATA)."""
    if FULL_DATA is not None:
        if not FULL_DATA.is_dir():
            raise SystemExit(f"PYRAMID_FULL_DATA={FULL_DATA} is not a folder")
        return [FULL_DATA]
    return [DATA / name for name in shared]


def package_files(shared: list[str]) -> list[Path]:
    """Every .pyr and .pan file of the full package, or of the shared folders named."""
    files = [
        path
        for folder in package_folders(shared)
        for path in sorted(folder.rglob("*"))
        if path.suffix in SUFFIXES and path.is_file()
    ]
    if not files:
        raise SystemExit(f"no .pyr or .pan files in {', '.join(map(str, package_folders(shared)))}")
    return files


def data_file(relative: str) -> Path:
    """A file of the shared data (e.g. "duc2006-nist/allpyramids/D0601.pyr"): the file of that name
    in the full package when it holds one, else the shared one."""
    return data_glob(relative)[0]


def data_glob(relative: str) -> list[Path]:
    """The files matching a shared path's last part (a glob, e.g. "duc2006-nist/allpans/*.pan"): in
    the full package if it holds any, else in the shared folder."""
    folder, pattern = relative.rsplit("/", 1)
    if FULL_DATA is not None:
        found = sorted(p for p in FULL_DATA.rglob(pattern) if p.is_file())
        if found:
            return found
    found = sorted((DATA / folder).glob(pattern))
    if not found:
        raise SystemExit(f"no {relative} in {DATA} (set PYRAMID_DATA or PYRAMID_FULL_DATA)")
    return found


def describe(files: list[Path]) -> str:
    """Which data a benchmark used, for its first line."""
    where = (
        f"full package {FULL_DATA} (PYRAMID_FULL_DATA)"
        if FULL_DATA is not None and all(FULL_DATA in f.parents for f in files)
        else f"shared subset {DATA}"
    )
    pans = sum(1 for f in files if f.suffix == ".pan")
    megabytes = sum(f.stat().st_size for f in files) / 1e6
    return (
        f"data: {where}: {len(files)} files ({pans} .pan, {len(files) - pans} .pyr), "
        f"{megabytes:.1f} MB"
    )


MATTER = DATA / "pyreval-matter/IA"  # not a NIST package: the shared files are the data


def import_matter_pyramids():
    """The two independent MATTER pyramids (34 and 56 SCUs of the same five summaries), imported
    as one docset "MATTER"; returns them (A: Yinghui's, B: the other)."""
    from annotator.ducview.names import FileIdentity
    from annotator.models import Pyramid
    from annotator.transfer.importing import DucviewImporter

    matter = FileIdentity(docset="MATTER")
    DucviewImporter("bench").import_file(
        MATTER / "Yinghui_12_10_09_MATTER_fixed.pyr", overrides=matter
    )
    DucviewImporter("bench", model_regex=r"(?m)^---\n").import_file(
        MATTER / "12_10_09_MATTER_fixed.pyr", overrides=matter
    )
    a, b = Pyramid.objects.filter(docset__name="MATTER").order_by("id")
    return a, b
