"""Production serving: `./scripts/serve`, which runs `python -m gunicorn -c gunicorn.conf.py "app:create_app()"` (README).

Sized for a 2-core machine: two worker processes (one per core), each with a few threads for the
I/O-bound requests (table reads and writes wait on the database). Each worker builds its own ONNX
Runtime session on first use and shares it between its threads; the app is not preloaded in the
master, because ONNX Runtime's thread pools do not survive a fork. Put any reverse proxy in
front (TLS, compression); set FORWARDED_ALLOW_IPS to the proxy's address.

The database schema is created or migrated once, in the master before any worker forks
(``on_starting``); the workers then only check that it is current (TENBOU_MIGRATE=false), so two
workers never race to create it.
"""
import os

bind = os.environ.get("BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("THREADS", "4"))
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 0             # no recycling: every cache is bounded, and a restart stalls requests
preload_app = False
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = os.environ.get("ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
limit_request_line = 8190
limit_request_fields = 100


def on_starting(server):
    """Prepare the schema once, before the workers start."""
    from app import database_url_from_env
    from storage import migrate

    before, after = migrate.upgrade(database_url_from_env())
    server.log.info("database schema: %s", f"{before or 'empty'} -> {after}" if before != after else f"{after} (current)")
    os.environ["TENBOU_MIGRATE"] = "false"  # the workers inherit it: they check, never migrate
control_socket_disable = True  # several servers on one machine (tests, HTTPS=1) would share its one path
