#!/usr/bin/env bash
# The production stack on one machine, without Docker (issue 16): the same stack as
# docker-compose.yml, from Debian's nginx, gunicorn and an existing PostgreSQL.
#
#     client → nginx (deploy/nginx.conf.template) → two gunicorn app servers → PostgreSQL
#                                                   two background workers ──┘ (the job queue)
#
#   deploy/stack.sh start    check nginx and PostgreSQL; run the release step once (migrations,
#                            collectstatic, the first administrator: deploy/release.sh) before any
#                            server or worker; start the app servers, wait until each is healthy
#                            (/healthz/), start the workers and nginx; print the URL
#   deploy/stack.sh stop     nginx first (no new requests), then the app servers and the workers,
#                            each finishing what it is doing (killed after STOP_TIMEOUT seconds)
#   deploy/stack.sh status   what runs; exits 0 when everything does, 3 otherwise
#
# Everything comes from the environment:
#   DATABASE_URL      PostgreSQL, required (postgres://user:password@host:5432/name)
#   SECRET_KEY        required; every app server gets the same (sessions are signed with it)
#   PORT              nginx's port (default 8000); LISTEN: what nginx listens on (default: PORT on
#                     every address; e.g. 127.0.0.1:8000 for this machine only)
#   APP_PORTS         the app servers' ports on 127.0.0.1, one server each (default "8001 8002")
#   WORKERS           how many background workers (default 2; ids worker1, worker2, ...)
#   GUNICORN_WORKERS  processes per app server (default 2)
#   MAX_UPLOAD_MB     the largest upload (default 100); nginx refuses bodies above it + 1 MB
#   RUN_DIR           pid files, logs, nginx's config and temporary files (default: .stack/ here)
#   STATIC_ROOT       where collectstatic writes and nginx serves /static/ from (default: staticfiles/)
#   PYTHON            the interpreter with the app installed (default: .venv/bin/python, else python3)
#   NGINX             nginx (default: nginx on PATH, else /usr/sbin/nginx); NGINX_MIME_TYPES
#                     (default /etc/nginx/mime.types)
#   NGINX_USER        started as root, nginx runs its workers as this user (default nobody): it must
#                     read STATIC_ROOT and write RUN_DIR/nginx-temp (checked)
#   STOP_TIMEOUT      seconds a component gets to stop (default 30)
#   SECURE_COOKIES    default 0 here: nginx speaks plain http (put TLS in front and set it to 1,
#                     with BEHIND_TLS_PROXY=1)
#   ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, DJANGO_SUPERUSER_USERNAME/PASSWORD/EMAIL (release.sh),
#   LOG_LEVEL and every other setting of config/settings.py are passed on. BEHIND_PROXY is set:
#   every request comes through nginx. 127.0.0.1 is added to ALLOWED_HOSTS for the health checks.
# Logs in RUN_DIR: release.log, app<n>.log and app<n>.access.log (each server's requests),
# worker<n>.log, nginx.error.log and nginx.access.log.
# Works as root and as an ordinary user; needs bash, setsid (util-linux) and, as root, runuser.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SELF="$ROOT/deploy/stack.sh"

: "${PORT:=8000}"
: "${LISTEN:=$PORT}"
: "${APP_PORTS:=8001 8002}"
: "${WORKERS:=2}"
: "${GUNICORN_WORKERS:=2}"
: "${MAX_UPLOAD_MB:=100}"
: "${RUN_DIR:=$ROOT/.stack}"
: "${STATIC_ROOT:=$ROOT/staticfiles}"
: "${STOP_TIMEOUT:=30}"
: "${NGINX_USER:=nobody}"
: "${NGINX_MIME_TYPES:=/etc/nginx/mime.types}"
if [ -z "${PYTHON:-}" ]; then
    if [ -x "$ROOT/.venv/bin/python" ]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON=python3; fi
fi
if [ -z "${NGINX:-}" ]; then
    NGINX=$(command -v nginx || echo /usr/sbin/nginx)
fi

# What every app server, worker and the release step see.
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings}"
export BEHIND_PROXY=1
export SECURE_COOKIES="${SECURE_COOKIES:-0}"
case "$STATIC_ROOT" in /*) ;; *) STATIC_ROOT="$PWD/$STATIC_ROOT" ;; esac  # Django and nginx agree on it
export MAX_UPLOAD_MB STATIC_ROOT PYTHON
if [ -n "${ALLOWED_HOSTS:-}" ] && [[ ",$ALLOWED_HOSTS," != *",127.0.0.1,"* ]]; then
    export ALLOWED_HOSTS="$ALLOWED_HOSTS,127.0.0.1"  # the health checks ask 127.0.0.1:<port>
fi

say() { printf 'stack: %s\n' "$*"; }
die() { printf 'stack: %s\n' "$*" >&2; exit 1; }

# alive PIDFILE: the process it names runs.
alive() {
    local pid
    pid=$(cat "$1" 2>/dev/null) || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

pidfiles() {
    local file
    for file in "$RUN_DIR"/nginx.pid "$RUN_DIR"/app*.pid "$RUN_DIR"/worker*.pid; do
        [[ "$file" == *.child.pid ]] && continue
        [ -e "$file" ] && printf '%s\n' "$file"
    done
    return 0
}

# wait_healthy NAME PIDFILE LOG URL: until URL answers 200; die if the process exits or 90 s pass.
wait_healthy() {
    local name=$1 pidfile=$2 log=$3 url=$4
    for _ in $(seq 180); do
        if ! alive "$pidfile"; then
            tail -n 20 "$log" >&2 || true
            die "$name exited (its log: $log)"
        fi
        if "$PYTHON" "$ROOT/deploy/healthcheck.py" --timeout 2 "$url" 2>/dev/null; then
            return 0
        fi
        sleep 0.5
    done
    "$PYTHON" "$ROOT/deploy/healthcheck.py" --timeout 2 "$url" || true  # says why
    die "$name did not become healthy at $url in 90 s"
}

# The workers' supervisor: runs one worker, and starts it again when it exits (a crash, a lost
# database), after a pause that doubles up to 30 s and starts again at 1 s after a good minute.
# docker-compose.yml's restart policy does the same there. TERM stops the worker gracefully (it
# finishes its job) and then the supervisor.
supervise() {
    local name=$1 child=0 pause=1 started status
    shift
    trap 'kill -TERM "$child" 2>/dev/null; wait "$child" 2>/dev/null; exit 0' TERM INT
    cd "$ROOT"
    while true; do
        started=$SECONDS
        WORKER_ID="$name" "$@" &
        child=$!
        echo "$child" >"$RUN_DIR/$name.child.pid"
        status=0
        wait "$child" || status=$?
        if (( SECONDS - started >= 60 )); then pause=1; fi
        say "$(date '+%F %T') $name exited with status $status; starting it again in ${pause}s"
        sleep "$pause" &
        child=$!
        wait "$child" || true
        pause=$(( pause * 2 > 30 ? 30 : pause * 2 ))
    done
}

# shellcheck disable=SC2016  # the ${PYRAMID_...} placeholders are literal text
render_nginx() {
    local upstreams="" port user_line="" group
    for port in $APP_PORTS; do
        upstreams+="server 127.0.0.1:$port; "
    done
    local text
    text=$(<"$ROOT/deploy/nginx.conf.template")
    # Quoted replacements: taken literally (bash 5.2 would read a & in them as the match).
    text=${text//'${PYRAMID_LISTEN}'/"$LISTEN"}
    text=${text//'${PYRAMID_UPSTREAMS}'/"$upstreams"}
    text=${text//'${PYRAMID_MAX_UPLOAD_MB}'/"$MAX_UPLOAD_MB"}
    text=${text//'${PYRAMID_MAX_BODY_MB}'/"$((MAX_UPLOAD_MB + 1))"}
    text=${text//'${PYRAMID_STATIC_ROOT}'/"$STATIC_ROOT"}
    [[ "$text" != *'${PYRAMID_'* ]] || die "deploy/nginx.conf.template has a placeholder this script does not fill"
    printf '%s\n' "$text" >"$RUN_DIR/pyramid.conf"

    mkdir -p "$RUN_DIR"/nginx-temp/{body,proxy,fastcgi,uwsgi,scgi}
    if [ "$(id -u)" -eq 0 ]; then
        # A master started as root runs its workers as NGINX_USER: they read the static files and
        # write bodies and answers to nginx-temp.
        group=$(id -gn "$NGINX_USER") || die "NGINX_USER $NGINX_USER does not exist"
        chown -R "$NGINX_USER:$group" "$RUN_DIR/nginx-temp"
        runuser -u "$NGINX_USER" -- test -r "$STATIC_ROOT/staticfiles.json" -a -w "$RUN_DIR/nginx-temp/body" \
            || die "nginx's workers run as $NGINX_USER, who cannot read $STATIC_ROOT or write $RUN_DIR/nginx-temp: choose a RUN_DIR and STATIC_ROOT they can reach, or another NGINX_USER"
        user_line="user $NGINX_USER $group;"
    fi
    cat >"$RUN_DIR/nginx.conf" <<EOF
# Written by deploy/stack.sh start: nginx with its pid, logs and temporary files in this directory;
# the site itself (deploy/nginx.conf.template, filled) is pyramid.conf.
$user_line
worker_processes auto;
pid $RUN_DIR/nginx.pid;
error_log $RUN_DIR/nginx.error.log warn;
events { worker_connections 4096; }
http {
    include $NGINX_MIME_TYPES;
    default_type application/octet-stream;
    sendfile on;
    access_log $RUN_DIR/nginx.access.log;
    client_body_temp_path $RUN_DIR/nginx-temp/body;
    proxy_temp_path $RUN_DIR/nginx-temp/proxy;
    fastcgi_temp_path $RUN_DIR/nginx-temp/fastcgi;
    uwsgi_temp_path $RUN_DIR/nginx-temp/uwsgi;
    scgi_temp_path $RUN_DIR/nginx-temp/scgi;
    include $RUN_DIR/pyramid.conf;
}
EOF
}

start() {
    [ -n "${DATABASE_URL:-}" ] || die "set DATABASE_URL to a PostgreSQL database (postgres://user@host:5432/name)"
    case "$DATABASE_URL" in
        postgres://* | postgresql://*) ;;
        *) die "DATABASE_URL must be PostgreSQL: it holds the sessions and the job queue every server and worker share" ;;
    esac
    [ -n "${SECRET_KEY:-}" ] || die "set SECRET_KEY (a long random string, the same for every app server)"
    [ -x "$NGINX" ] || die "nginx not found at $NGINX (apt-get install nginx, or set NGINX)"
    [ -r "$NGINX_MIME_TYPES" ] || die "$NGINX_MIME_TYPES not found (set NGINX_MIME_TYPES)"
    command -v setsid >/dev/null || die "setsid (util-linux) not found"
    "$PYTHON" -c "import gunicorn, psycopg" 2>/dev/null || die "$PYTHON cannot import gunicorn and psycopg (pip install -e .; or set PYTHON)"
    [[ "$MAX_UPLOAD_MB" =~ ^[0-9]+$ ]] || die "MAX_UPLOAD_MB must be a whole number of megabytes"

    mkdir -p "$RUN_DIR"
    RUN_DIR=$(cd "$RUN_DIR" && pwd)  # nginx wants absolute paths, and so do the supervisors
    export RUN_DIR
    local file
    for file in $(pidfiles); do
        if alive "$file"; then die "already running ($file); deploy/stack.sh stop first"; fi
        rm -f "$file"
    done

    "$PYTHON" -c 'import os, psycopg; psycopg.connect(os.environ["DATABASE_URL"], connect_timeout=5).close()' \
        || die "PostgreSQL does not answer at DATABASE_URL"
    # A port something else answers on would pass its health check for ours.
    local port
    for port in $APP_PORTS "${LISTEN##*:}"; do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then die "port $port is in use (APP_PORTS, PORT)"; fi
    done

    # From here on, a failure stops whatever was started.
    trap 'say "start failed: stopping what was started"; stop' EXIT

    say "release step (migrations, static files, administrator): $RUN_DIR/release.log"
    if ! (cd "$ROOT" && "$ROOT/deploy/release.sh") >"$RUN_DIR/release.log" 2>&1; then
        tail -n 30 "$RUN_DIR/release.log" >&2
        die "the release step failed"
    fi

    # gunicorn 24+ opens a control socket, by default one path in $HOME for every server: each
    # server gets its own in RUN_DIR instead (older gunicorns have no such option).
    local n=0 control=()
    if "$PYTHON" -m gunicorn --help 2>/dev/null | grep -q -- '--control-socket '; then control=(--control-socket); fi
    for port in $APP_PORTS; do
        n=$((n + 1))
        # shellcheck disable=SC2094  # gunicorn's own log, and what it prints before logging starts
        (cd "$ROOT" && exec setsid "$PYTHON" -m gunicorn config.wsgi:application \
            --config config/gunicorn.py --bind "127.0.0.1:$port" --workers "$GUNICORN_WORKERS" \
            --access-logfile "$RUN_DIR/app$n.access.log" --error-logfile "$RUN_DIR/app$n.log" \
            ${control[@]+"${control[@]}" "$RUN_DIR/app$n.ctl"}) \
            </dev/null >>"$RUN_DIR/app$n.log" 2>&1 &
        echo $! >"$RUN_DIR/app$n.pid"
    done
    say "release step done in ${SECONDS}s; app servers starting"
    n=0
    for port in $APP_PORTS; do
        n=$((n + 1))
        wait_healthy "app$n" "$RUN_DIR/app$n.pid" "$RUN_DIR/app$n.log" "http://127.0.0.1:$port/healthz/"
    done

    for n in $(seq "$WORKERS"); do
        setsid "$SELF" _supervise "worker$n" "$PYTHON" manage.py db_worker --worker-id "worker$n" \
            </dev/null >>"$RUN_DIR/worker$n.log" 2>&1 &
        echo $! >"$RUN_DIR/worker$n.pid"
    done

    render_nginx
    "$NGINX" -t -q -p "$RUN_DIR/" -c "$RUN_DIR/nginx.conf" >>"$RUN_DIR/nginx.error.log" 2>&1 \
        || { tail -n 5 "$RUN_DIR/nginx.error.log" >&2; die "nginx refuses its configuration ($RUN_DIR/nginx.conf)"; }
    # nginx detaches itself (its own session) and writes nginx.pid.
    "$NGINX" -p "$RUN_DIR/" -c "$RUN_DIR/nginx.conf" </dev/null >>"$RUN_DIR/nginx.error.log" 2>&1 \
        || { tail -n 5 "$RUN_DIR/nginx.error.log" >&2; die "nginx did not start"; }
    local host=127.0.0.1
    if [[ "$LISTEN" == *:* ]]; then host=${LISTEN%:*}; fi
    local url="http://$host:$PORT/"
    echo "$url" >"$RUN_DIR/url"
    for _ in $(seq 20); do [ -s "$RUN_DIR/nginx.pid" ] && break; sleep 0.1; done
    wait_healthy nginx "$RUN_DIR/nginx.pid" "$RUN_DIR/nginx.error.log" "${url}healthz/"

    trap - EXIT
    say "running at $url after ${SECONDS}s (nginx → app servers on 127.0.0.1:${APP_PORTS// /, 127.0.0.1:}; $WORKERS workers; logs in $RUN_DIR)"
}

# stop_all SIGNAL PIDFILE...: signal each, wait for all to exit, kill the stragglers' process groups.
stop_all() {
    local signal=$1 file pid deadline
    shift
    for file in "$@"; do
        if alive "$file"; then kill "-$signal" "$(cat "$file")" 2>/dev/null || true; fi
    done
    deadline=$((SECONDS + STOP_TIMEOUT))
    for file in "$@"; do
        while alive "$file" && (( SECONDS < deadline )); do sleep 0.2; done
        if alive "$file"; then
            pid=$(cat "$file")
            say "$(basename "$file" .pid) did not stop in ${STOP_TIMEOUT}s: killed"
            kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
        fi
        rm -f "$file" "${file%.pid}.child.pid"
    done
}

stop() {
    [ -d "$RUN_DIR" ] || { say "nothing runs (no $RUN_DIR)"; return 0; }
    RUN_DIR=$(cd "$RUN_DIR" && pwd)
    local others=() orphans=() file
    [ -e "$RUN_DIR/nginx.pid" ] && stop_all QUIT "$RUN_DIR/nginx.pid"  # QUIT: nginx's graceful stop
    for file in $(pidfiles); do
        others+=("$file")
        # A worker whose supervisor was killed runs on alone: stopped by its own pid (first, before
        # its supervisor's entry removes the file that names it). A worker under a live supervisor
        # gets TERM from it only: a second TERM would make it drop its job.
        if ! alive "$file" && alive "${file%.pid}.child.pid"; then orphans+=("${file%.pid}.child.pid"); fi
    done
    others=("${orphans[@]}" "${others[@]}")
    # TERM: gunicorn finishes its requests; a supervisor passes it to its worker, which finishes its job.
    if [ "${#others[@]}" -gt 0 ]; then stop_all TERM "${others[@]}"; fi
    say "stopped"
}

status() {
    [ -d "$RUN_DIR" ] || { say "nothing runs (no $RUN_DIR)"; return 3; }
    local file name all=0 found=0
    for file in $(pidfiles); do
        found=1
        name=$(basename "$file" .pid)
        if alive "$file"; then
            printf '%-10s running (pid %s)\n' "$name" "$(cat "$file")"
        elif alive "$RUN_DIR/$name.child.pid"; then
            printf '%-10s running without its supervisor (pid %s): not restarted if it exits; stop stops it\n' \
                "$name" "$(cat "$RUN_DIR/$name.child.pid")"
            all=3
        else
            printf '%-10s stopped\n' "$name"
            all=3
        fi
    done
    [ "$found" -eq 1 ] || { say "nothing runs"; return 3; }
    [ -s "$RUN_DIR/url" ] && printf 'url        %s\n' "$(cat "$RUN_DIR/url")"
    return "$all"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    _supervise) shift; supervise "$@" ;;  # internal: one worker under its supervisor
    *) sed -n '2,/^set -euo/p' "$SELF" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
esac
