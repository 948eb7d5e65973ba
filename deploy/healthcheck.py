"""Is an app server healthy? Asks its /healthz/ (annotator/views/health.py) and exits 0 on a 200.

    # one try (Docker's healthcheck)
    python deploy/healthcheck.py http://localhost:8000/healthz/
    # try until it answers (deploy/stack.sh)
    python deploy/healthcheck.py http://127.0.0.1:8001/healthz/ --wait 60

Standard library only (the app image has no curl). Redirects are not followed: a 301 (say, to
https) is a failure to be seen, not hidden. The request says it came over https
(X-Forwarded-Proto), which Django believes only with BEHIND_TLS_PROXY, exactly where
SECURE_SSL_REDIRECT would otherwise turn the probe away.
"""

import argparse
import http.client
import sys
import time
from urllib.parse import urlsplit


def probe(url: str, timeout: float) -> str | None:
    """None when healthy, else what went wrong."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    try:
        connection.request("GET", parts.path or "/", headers={"X-Forwarded-Proto": "https"})
        response = connection.getresponse()
        body = response.read(500).decode("utf-8", "replace")
        return None if response.status == 200 else f"{response.status} {body}"
    except OSError as error:
        return str(error) or type(error).__name__
    finally:
        connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--wait", type=float, default=0, help="keep trying for this many seconds")
    parser.add_argument("--timeout", type=float, default=5, help="seconds for one try")
    options = parser.parse_args()
    deadline = time.monotonic() + options.wait
    while True:
        problem = probe(options.url, options.timeout)
        if problem is None:
            return 0
        if time.monotonic() >= deadline:
            print(f"{options.url}: {problem}", file=sys.stderr)
            return 1
        time.sleep(0.5)


if __name__ == "__main__":
    sys.exit(main())
