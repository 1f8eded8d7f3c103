"""Where sheetbridge's Google requests go: the API roots (an alternate base replaces them in
tests, see ``SheetbridgeHTTPClient``), the scopes it signs in with, a tab's A1 name, and which
per-minute quota a request counts against."""
from __future__ import annotations

SCOPES = (
    "https://www.googleapis.com/auth/spreadsheets",
    "https://www.googleapis.com/auth/drive.file",
)
SHEETS_ROOT = "https://sheets.googleapis.com"
DRIVE_ROOT = "https://www.googleapis.com"
SCRIPT_ROOT = "https://script.googleapis.com"
SCRIPT_SCOPE = "https://www.googleapis.com/auth/script.projects"   # asked for by `menu install` only


def request_kind(method: str, url: str) -> str:
    """The quota a request counts against: Sheets "read" or "write", or "drive"."""
    if "/v4/spreadsheets" in url:
        return "read" if method.upper() == "GET" else "write"
    return "drive"


def quote_tab(tab: str) -> str:
    """A tab's name as a range in A1 notation ('It''s' for It's)."""
    return "'" + tab.replace("'", "''") + "'"
