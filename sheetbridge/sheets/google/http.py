"""The HTTP client every request goes through: a timeout, quota pacing (pacing.py) and a bounded
retry with tenacity on 429, 5xx and network errors, honouring Retry-After.

gspread's ``BackOffHTTPClient`` is not used: in gspread 6.2.1 it retries without end."""
from __future__ import annotations

import email.utils
import threading
import time
from typing import Callable

import requests
from google.auth import exceptions as auth_errors
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from ...core.errors import BackendError, ConfigError, WorkbookError
from .errors import SIGN_IN_EXPIRED, failure, first_line, http_status, is_transient
from .pacing import QUOTA_STEP, QUOTA_WAIT_LIMIT, Pacer
from .urls import DRIVE_ROOT, SCRIPT_ROOT, SHEETS_ROOT, request_kind

DEFAULT_TIMEOUT = (10.0, 60.0)  # connect, read (seconds)
DEFAULT_ATTEMPTS = 6
MAX_WAIT = 64.0                # longest single wait between attempts (seconds)


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    if response is None:
        return None
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())



class _Wait:
    """How long to wait before the next attempt.

    5xx and network errors: exponential backoff with jitter, never shorter than the
    server's Retry-After. 429 (the per-minute quota is spent): waits doubling up to
    QUOTA_STEP, never shorter than Retry-After, clipped so that all of one request's
    waits add up to at most ``quota_limit``; the pacer is held for the request's kind
    meanwhile, so other threads (and processes) wait too instead of spending attempts."""

    def __init__(self, initial: float = 1.0, maximum: float = MAX_WAIT, quota_limit: float = QUOTA_WAIT_LIMIT,
                 pacer: "Pacer | None" = None) -> None:
        self.backoff = wait_exponential_jitter(initial=initial, max=maximum, jitter=initial)
        self.quota_backoff = wait_exponential_jitter(initial=initial, max=QUOTA_STEP, jitter=initial)
        self.maximum = maximum
        self.quota_limit = quota_limit
        self.pacer = pacer

    def __call__(self, retry_state) -> float:
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        after = _retry_after(exc) if exc is not None else None
        if http_status(exc) == 429:
            wait = self.quota_backoff(retry_state)
            if after is not None:
                wait = max(wait, min(after, self.maximum))
            wait = max(0.0, min(wait, self.quota_limit - retry_state.idle_for))
            kind = getattr(exc, "sheetbridge_kind", None)
            if kind and self.pacer is not None:
                self.pacer.hold(kind, wait)
            return wait
        wait = self.backoff(retry_state)
        if after is not None:
            wait = max(wait, min(after, self.maximum))
        return wait


class SheetbridgeHTTPClient(HTTPClient):
    """gspread's HTTP client with a timeout on every request, quota pacing, a bounded
    retry on 429/5xx/connection errors, and an optional alternate API base URL.
    Safe to share between threads (the store publishes several books at once)."""

    def __init__(self, auth, session: requests.Session | None = None) -> None:
        super().__init__(auth, session)
        self.timeout = DEFAULT_TIMEOUT
        self.api_base: str | None = None
        self.pacer = Pacer()
        self.attempts = DEFAULT_ATTEMPTS
        self.quota_wait = QUOTA_WAIT_LIMIT
        self.sleep: Callable[[float], None] = time.sleep
        self.wait = _Wait(pacer=self.pacer)
        self.sent: dict[str, int] = {}   # requests sent by kind, retries included
        # Called before every request that is not a read (GET): the game lock's read-back (lock.LockRides).
        self.before_write: Callable[[], None] | None = None
        self._count_lock = threading.Lock()

    def configure(self, *, api_base: str | None = None, timeout=DEFAULT_TIMEOUT,
                  pacer: Pacer | None = None, attempts: int = DEFAULT_ATTEMPTS,
                  sleep: Callable[[float], None] | None = None,
                  backoff_initial: float = 1.0, quota_wait: float = QUOTA_WAIT_LIMIT) -> None:
        self.api_base = api_base.rstrip("/") if api_base else None
        self.timeout = timeout if timeout is not None else DEFAULT_TIMEOUT
        self.attempts = max(1, int(attempts))
        self.quota_wait = float(quota_wait)
        if sleep is not None:
            self.sleep = sleep
        self.pacer = pacer or Pacer(sleep=self.sleep)
        self.wait = _Wait(initial=backoff_initial, quota_limit=self.quota_wait, pacer=self.pacer)

    @property
    def pacer(self) -> Pacer:
        return self._pacer

    @pacer.setter
    def pacer(self, pacer: Pacer) -> None:   # tests share one pacer between stores: the waits follow it
        self._pacer = pacer
        if getattr(self, "wait", None) is not None:
            self.wait.pacer = pacer

    def _rebase(self, url: str) -> str:
        if self.api_base:
            for root in (SHEETS_ROOT, DRIVE_ROOT, SCRIPT_ROOT):
                if url.startswith(root):
                    return self.api_base + url[len(root):]
        return url

    def _stop(self, retry_state) -> bool:
        """Give up: a 429 once ``quota_wait`` seconds were waited in all (the quota did not come
        back); anything else after ``attempts`` attempts. One attempt only means no retry at all."""
        if self.attempts <= 1:
            return True
        if http_status(retry_state.outcome.exception()) == 429:
            return retry_state.idle_for >= self.quota_wait - 1e-6
        return retry_state.attempt_number >= self.attempts

    def request(self, method, endpoint, params=None, data=None, json=None, files=None, headers=None,
                retry: bool = True):
        """One request, retried on 429/5xx/network errors unless ``retry`` is False (for a
        request that is not idempotent: the caller checks whether it landed first).
        A network failure always ends as ``requests.ConnectionError``; a sign-in that can
        no longer be refreshed as ConfigError."""
        url = self._rebase(endpoint)
        kind = request_kind(method, url)
        if self.before_write is not None and method.upper() != "GET":
            self.before_write()

        def attempt():
            with self.pacer.sending(kind):
                with self._count_lock:
                    self.sent[kind] = self.sent.get(kind, 0) + 1
                try:
                    response = self.session.request(method=method, url=url, json=json, params=params,
                                                    data=data, files=files, headers=headers,
                                                    timeout=self.timeout or DEFAULT_TIMEOUT)
                except auth_errors.RefreshError as exc:
                    raise ConfigError(SIGN_IN_EXPIRED.format(detail=first_line(exc))) from None
            if response.ok:
                return response
            error = APIError(response)
            error.sheetbridge_kind = kind  # type: ignore[attr-defined]   # a 429 holds this kind of request (see _Wait)
            raise error

        retrying = Retrying(stop=self._stop if retry else stop_after_attempt(1), wait=self.wait,
                            retry=retry_if_exception(is_transient), sleep=self.sleep, reraise=True)
        try:
            return retrying(attempt)
        except auth_errors.TransportError as exc:   # refreshing the token could not reach Google
            raise requests.ConnectionError(f"refreshing the Google sign-in: {first_line(exc)}") from None

    def retrying(self) -> Retrying:
        """The same bounded retry policy, for a step made of several requests."""
        return Retrying(stop=self._stop, wait=self.wait,
                        retry=retry_if_exception(is_transient), sleep=self.sleep, reraise=True)


    def failure(self, what: str, exc: BaseException, resumable: bool = True,
                hint: str | None = None) -> BackendError | WorkbookError:
        """The one line for the host when ``what`` failed with ``exc`` under this client's retry
        policy (see :func:`errors.failure`)."""
        return failure(what, exc, self.attempts, self.quota_wait, resumable, hint)
