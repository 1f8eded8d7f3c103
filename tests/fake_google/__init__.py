"""An offline Google Sheets v4 + Drive v3 for tests (see server.py), driven through the
real gspread client via a requests transport adapter, or over loopback HTTP."""
from .loopback import LoopbackServer, serve
from .schema import Discovery, drive, sheets
from .server import ApiError, FakeGoogle, FakeTransport

__all__ = ["ApiError", "Discovery", "FakeGoogle", "FakeTransport", "LoopbackServer", "drive", "serve", "sheets"]
