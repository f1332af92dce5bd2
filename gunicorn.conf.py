"""Production serving: `.venv/bin/gunicorn -c gunicorn.conf.py "app:create_app()"` (see README).

Sized for a 2-core machine: two worker processes (one per core), each with a few threads for the
I/O-bound requests (table reads and writes wait on the database). Each worker builds its own ONNX
Runtime session on first use and shares it between its threads; the app is not preloaded in the
master, because ONNX Runtime's thread pools do not survive a fork. Put any reverse proxy in
front (TLS, compression); set FORWARDED_ALLOW_IPS to the proxy's address.
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
