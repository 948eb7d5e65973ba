"""The real DUCView 1.4 (../shared's duc2006-nist/scoring/DUCView-1.4.jar), run as NIST ran it to
score files: its batch mode, under a virtual display (`xvfb-run -a java -jar JAR FILE ...`). An
oracle for what we export (issue 33): whatever file we write, DUCView must open and score it as
we do.

Each file's output is a block opened by a line of dashes, the file's name and another line of
dashes; a file it scores fully prints "Score: X" (the original score) and "Score using N SCUs: X"
(the modified score), read with the regexes of NIST's create-06-table.pl. Within one run DUCView
carries state from one file to the next (a startDocumentRegEx seen earlier counts the models of a
file without one), so each docset is scored in a run of its own, as a user opens files.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

JAR = "duc2006-nist/scoring/DUCView-1.4.jar"
BLOCK = re.compile(r"^-{19}\n(.+)\n-{19}\n", re.MULTILINE)
MODIFIED = re.compile(r"^Score using .*\s+([\d.]+)", re.MULTILINE)
ORIGINAL = re.compile(r"^Score:\s+([\d.]+)", re.MULTILINE)


@dataclass(frozen=True)
class Scored:
    output: str  # the file's block, without its head
    original: str | None  # as DUCView prints them; None where it printed none
    modified: str | None

    @property
    def nist_score(self) -> str | None:
        """The modified score as NIST's create-06-table.pl wrote it in the table: 0 for a peer
        without SCUs ("No SCUs were annotated": no score printed); None where DUCView could not
        score the file (e.g. no startDocumentRegEx to count the models by)."""
        if self.modified is None and "No SCUs were annotated" in self.output:
            return "0"
        return self.modified


def ducview_jar(shared_data: Path) -> Path:
    """The jar, where Java and Xvfb are installed to run it (.ci/run installs them); else the test
    skips, saying what is missing."""
    missing = [tool for tool in ("java", "xvfb-run", "xauth") if shutil.which(tool) is None]
    if missing:
        pytest.skip(
            f"{' and '.join(missing)} not installed: DUCView 1.4 cannot run "
            "(apt-get install -y default-jre-headless xvfb xauth)"
        )
    return shared_data / JAR


def run_ducview(jar: Path, files: list[Path]) -> dict[str, Scored]:
    """One run of DUCView's batch mode over `files` (in their folder): {file name: its block}."""
    folder = files[0].parent
    assert all(f.parent == folder for f in files), "one folder a run"
    done = subprocess.run(
        ["xvfb-run", "-a", "java", "-jar", str(jar), *(f.name for f in files)],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # in order: an error shows in its file's block
        text=True,
        timeout=600,
        check=False,
    )
    output = done.stdout
    heads = list(BLOCK.finditer(output))
    blocks = {}
    for head, after in zip(heads, heads[1:] + [None]):
        text = output[head.end() : after.start() if after else len(output)]
        modified, original = MODIFIED.search(text), ORIGINAL.search(text)
        blocks[head.group(1).strip()] = Scored(
            output=text.strip(),
            original=original.group(1) if original else None,
            modified=modified.group(1) if modified else None,
        )
    assert sorted(blocks) == sorted(f.name for f in files), output[:2000]
    return blocks
