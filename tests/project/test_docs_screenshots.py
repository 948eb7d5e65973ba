"""docs/screenshots.py, run as the guide says: four real pictures, and nothing left behind."""

import base64
import os
import re
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "screenshots.py"
PICTURES = ["builder.png", "peer-page.png", "report.png", "judging.png"]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed (apt-get install -y chromium)"
)

# How many distinct colours each picture holds, counted in Chromium (which decodes the PNG for us).
COLOURS = """async (source) => {
  const image = new Image();
  image.src = source;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const pixels = new Uint32Array(data.buffer);
  return new Set(pixels).size;
}"""


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    assert head[12:16] == b"IHDR", f"{path.name} is not a PNG"
    return struct.unpack(">II", head[16:24])


def colours(page, paths: list[Path]) -> dict[str, int]:
    return {
        path.name: page.evaluate(
            COLOURS, "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()
        )
        for path in paths
    }


def test_the_script_writes_three_pictures_of_the_demo_and_leaves_nothing_running(
    tmp_path, browser_page
):
    out = tmp_path / "pictures"
    # Not this test run's database or settings: the script makes its own (a throwaway SQLite).
    env = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}
    }
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr

    assert sorted(p.name for p in out.iterdir()) == sorted(PICTURES)
    for name in PICTURES:
        width, height = png_size(out / name)
        assert (width, height) == (1280, 720), f"{name} is {width}x{height}"
    counted = colours(browser_page, [out / name for name in PICTURES])
    for name, count in counted.items():
        # A blank page or an error page holds a handful of colours; text, highlights and plots,
        # hundreds.
        assert count > 200, f"{name} holds only {count} colours: {counted}"

    # The server the script started is gone, its port closed, its temporary database removed.
    pid, port = map(int, re.search(r"server: pid (\d+), port (\d+)", result.stdout).groups())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with socket.socket() as probe:
        probe.settimeout(2)
        with pytest.raises(ConnectionRefusedError):
            probe.connect(("127.0.0.1", port))
    data = Path(re.search(r"data: (\S+)", result.stdout).group(1))
    assert not data.exists()
    assert "server stopped" in result.stdout
