"""gunicorn's settings for the app servers (deploy/stack.sh and the Dockerfile pass it with
--config): the suggestions' rankers are loaded before the server takes its first request
(annotator.assist.warmup; issue 32: a worker's first suggestion took 0.9-2.6 s, the later ones
milliseconds). The application is loaded once, in the master, before the socket is opened and the
workers forked (preload_app): they start with the rankers in memory. The warm-up touches no
database, so no connection is opened before the fork. (A reload by HUP then needs a restart to
read new code: deploy/stack.sh restarts its servers.)"""

preload_app = True


def on_starting(server):
    """In the master, the application loaded (Django set up), before the socket is opened."""
    from annotator.assist.warmup import warm_up

    server.log.info("rankers loaded: %s", ", ".join(warm_up()))


def post_worker_init(worker):
    """In each worker as it starts: what the master loaded is there already (this is then quick);
    without preload_app (a --no-preload on the command line), the worker loads it itself."""
    from annotator.assist.warmup import warm_up

    warm_up()
