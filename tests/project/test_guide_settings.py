"""The guide's Settings table (docs/operator/settings.md) lists every setting the code reads from
the environment."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The environment as the code reads it: os.environ.get("X"), os.environ["X"], env_flag("X"),
# getenv("X").
READ = re.compile(
    r"""(?:os\.environ(?:\.get)?\(|os\.environ\[|env_flag\(|getenv\()\s*["']([A-Z][A-Z0-9_]+)["']"""
)
STACK_VARIABLE = re.compile(r"^#\s+([A-Z][A-Z0-9_]+)\s{2,}", re.M)


def settings_read_by_the_code() -> set[str]:
    names = {"DATABASE_URL"}  # read by dj_database_url.config()
    for folder in ("config", "annotator", "scoring"):
        for path in (ROOT / folder).rglob("*.py"):
            names |= set(READ.findall(path.read_text(encoding="utf-8")))
    return names


def settings_table() -> str:
    """The first column of the page's first table: the variables' names."""
    page = (ROOT / "docs" / "operator" / "settings.md").read_text(encoding="utf-8")
    section = page.split("\n| variable |", 1)[1].split("\n\n", 1)[0]
    return "\n".join(line.split("|")[1] for line in section.splitlines() if line.startswith("| `"))


def test_every_setting_the_code_reads_is_in_the_guides_table():
    table = settings_table()
    listed = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))
    missing = settings_read_by_the_code() - listed
    assert not missing, (
        f"settings read by the code but not in the guide's Settings table: {sorted(missing)}"
    )
    assert {"SECURE_COOKIES", "SECRET_KEY", "DEBUG", "MAX_UPLOAD_MB"} <= listed


def test_the_table_lists_nothing_the_code_or_the_stack_does_not_read():
    """A setting removed from the code leaves the table too (the stack's own variables excepted)."""
    stack = set(STACK_VARIABLE.findall((ROOT / "deploy" / "stack.sh").read_text(encoding="utf-8")))
    compose = set(
        re.findall(
            r"\$\{([A-Z][A-Z0-9_]+)", (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
        )
    )
    listed = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", settings_table()))
    unknown = listed - settings_read_by_the_code() - stack - compose - {"PYRAMID_DATA"}
    assert not unknown, f"in the guide's Settings table but read by nothing: {sorted(unknown)}"
