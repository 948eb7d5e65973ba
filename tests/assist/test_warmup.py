"""Each gunicorn worker loads the suggestions' rankers before its first request (issue 32: the first
suggestion a worker gave took 0.9-2.6 s, the later ones milliseconds): config/gunicorn.py's
preloaded and warmed up in the master (on_starting), which the production stack and the image
pass to gunicorn."""

import logging
import runpy
from pathlib import Path

from annotator.assist import semantic

ROOT = Path(__file__).resolve().parents[2]


class Server:
    log = logging.getLogger("gunicorn.error")


def test_the_server_loads_the_rankers_before_it_takes_a_request(caplog):
    semantic.model.cache_clear()
    settings = runpy.run_path(str(ROOT / "config" / "gunicorn.py"))
    assert settings["preload_app"] is True  # loaded in the master: the workers fork warm
    with caplog.at_level(logging.INFO, logger="gunicorn.error"):
        settings["on_starting"](Server())
    expected = ["lexical", "semantic"] if semantic.available() else ["lexical"]
    assert caplog.messages == [f"rankers loaded: {', '.join(expected)}"]
    if semantic.available():
        assert semantic.model.cache_info().currsize == 1  # loaded: the first request finds it
    settings["post_worker_init"](Server())  # in a worker: already there
    if semantic.available():
        assert semantic.model.cache_info().misses == 1


def test_the_stack_and_the_image_start_gunicorn_with_it():
    for path in ("deploy/stack.sh", "Dockerfile"):
        text = (ROOT / path).read_text()
        assert "gunicorn config.wsgi:application" in text, path
        assert "--config config/gunicorn.py" in text, path
