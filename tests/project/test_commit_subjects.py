"""Commit subjects fit a line (72 characters), the story in the body: from the first commit written
so (issue 34: the median subject was 156 characters before), every commit since."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRST = "cef0ef2f2ebec8cb902ab790717c0df936e7472a"  # "User guide in MkDocs, served at /guide/; …"
LONGEST = 72


def git(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True)


def test_every_commit_subject_since_the_rule_fits_a_line():
    if shutil.which("git") is None or git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("not a git checkout: no history to read")
    if git("cat-file", "-e", f"{FIRST}^{{commit}}").returncode != 0:
        pytest.skip(f"the history does not reach {FIRST[:7]} (a shallow clone)")
    log = git("log", "--format=%h %s", f"{FIRST}^..HEAD")
    assert log.returncode == 0, log.stderr
    subjects = [line.split(" ", 1) for line in log.stdout.splitlines()]
    assert subjects, "no commit read"
    too_long = [
        f"{sha} ({len(subject)}): {subject}" for sha, subject in subjects if len(subject) > LONGEST
    ]
    assert not too_long, "subjects longer than a line:\n" + "\n".join(too_long)
