"""The fake served over HTTP on 127.0.0.1, so a CLI subprocess can be pointed at it
(``SHEETBRIDGE_GOOGLE_API_BASE=<url>``, ``SHEETBRIDGE_GOOGLE_TOKEN=<token>``).

Bounded: it serves at most ``max_requests`` requests and stops by itself after
``idle`` seconds without a request or ``lifetime`` seconds in all.
"""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .server import FakeGoogle


class LoopbackServer:
    def __init__(self, fake: FakeGoogle, max_requests: int = 20000, idle: float = 60.0,
                 lifetime: float = 600.0) -> None:
        self.fake = fake
        self.max_requests = max_requests
        self.idle = idle
        self.lifetime = lifetime
        self.served = 0
        self._last = time.monotonic()
        self._started = time.monotonic()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                outer._last = time.monotonic()
                outer.served += 1
                if outer.served > outer.max_requests:
                    status, headers, payload = 503, {"Content-Type": "application/json"}, \
                        b'{"error": {"code": 503, "message": "loopback request budget spent", "status": "UNAVAILABLE"}}'
                else:
                    url = "http://127.0.0.1" + self.path
                    status, headers, payload = outer.fake.handle(self.command, url, dict(self.headers), body)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve

            def log_message(self, *args) -> None:   # quiet
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.httpd.timeout = 0.2
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fake-google-loopback", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            now = time.monotonic()
            if now - self._last > self.idle or now - self._started > self.lifetime:
                break
            self.httpd.handle_request()
        self.httpd.server_close()

    def start(self) -> "LoopbackServer":
        if self._thread.ident is None:     # start once
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def __enter__(self) -> "LoopbackServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def serve(fake: FakeGoogle, **kwargs) -> LoopbackServer:
    """A started loopback server for ``fake``; use it as a context manager (or call stop())."""
    return LoopbackServer(fake, **kwargs).start()
