"""What a Google failure tells the host: one line saying what failed, Google's answer, and that
running the command again completes it; and which failures are worth another attempt."""
from __future__ import annotations

import requests
from google.auth import exceptions as auth_errors
from gspread.exceptions import APIError

from ...core.errors import BackendError, WorkbookError

RESUME_HINT = "nothing is lost: run the same command again to finish (the game is resumable)"
SIGN_IN_EXPIRED = ("the Google sign-in has expired or was revoked ({detail}); run `sheetbridge auth` "
                   "(an unpublished OAuth app's sign-in lasts 7 days)")


class GoogleUnreachable(BackendError):
    """No answer from Google at all (no network, DNS, a proxy): one line, exit 2."""


def is_unreachable(exc: BaseException) -> bool:
    """A failure to reach Google at all (google-auth wraps requests' errors while refreshing)."""
    return isinstance(exc, (requests.ConnectionError, requests.Timeout, auth_errors.TransportError))


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, APIError):
        status = exc.response.status_code if exc.response is not None else exc.code
        return status == 429 or status >= 500
    return is_unreachable(exc)


def http_status(exc: BaseException | None) -> int | None:
    if isinstance(exc, APIError):
        return exc.response.status_code if exc.response is not None else exc.code
    return None


def first_line(exc: BaseException, limit: int = 200) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:limit] if text else type(exc).__name__


def failure(what: str, exc: BaseException, attempts: int, quota_wait: float, resumable: bool = True,
            hint: str | None = None) -> BackendError | WorkbookError:
    """One line for the host: what failed, Google's answer, and that running the
    command again completes it. 403/404 mean a file is gone or unshared: WorkbookError.
    No answer at all: GoogleUnreachable. ``attempts`` and ``quota_wait``: the
    retry policy the request ran under (SheetbridgeHTTPClient)."""
    transient = is_transient(exc)
    tail = hint or (RESUME_HINT if resumable else "run the same command again")
    if is_unreachable(exc):
        return GoogleUnreachable(f"cannot reach Google (no network?): {what} failed after "
                                 f"{attempts} attempts ({type(exc).__name__}: {first_line(exc)}); "
                                 f"{tail}")
    if isinstance(exc, APIError):
        status = exc.response.status_code if exc.response is not None else exc.code
        msg = str(exc.error.get("message", "") or "").strip()
        msg = msg.splitlines()[0][:200] if msg else ""
        detail = f"Google answered {status}" + (f" ({msg})" if msg else "")
        if status in (403, 404) and "quota" not in msg.lower():
            return WorkbookError(f"{what} failed: {detail}; check that the spreadsheet still exists and "
                                 "is shared with the account sheetbridge signs in as")
    else:
        text = str(exc).splitlines()[0][:200] if str(exc) else "no answer"
        detail = f"{type(exc).__name__}: {text}"
    tries = f" after {attempts} attempts" if transient else ""
    if http_status(exc) == 429 and attempts > 1:
        tries = f" after waiting {int(quota_wait)} s for Google's per-minute quota"
    return BackendError(f"Google Sheets failed while {what}{tries}: {detail}; {tail}")
