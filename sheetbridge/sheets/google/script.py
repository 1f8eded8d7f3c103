"""The menu's Apps Script project, bound to the master spreadsheet (`sheetbridge menu install`)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

import requests
from gspread.exceptions import APIError

from ...core.errors import ConfigError
from .urls import SCRIPT_ROOT

if TYPE_CHECKING:
    from .store import GoogleStore

ENABLE_SCRIPT_API = ("turn on the Apps Script API for your account at https://script.google.com/home/usersettings "
                     "and run the command again, or add the menu by hand: `sheetbridge menu show`")


def install_script(store: "GoogleStore", files: Sequence[Mapping[str, str]], script_id: str | None = None,
                   title: str = "Sheetbridge menu") -> str:
    """Put `files` (name, type, source) into an Apps Script project bound to the master spreadsheet:
    creates the project (parent = the master) unless `script_id` names one already, then replaces its
    content. Returns the project's id. One or two requests."""
    http = store.http
    try:
        if not script_id:
            r = http.request("post", f"{SCRIPT_ROOT}/v1/projects",
                             json={"title": title, "parentId": store.master_location()})
            script_id = r.json()["scriptId"]
        http.request("put", f"{SCRIPT_ROOT}/v1/projects/{script_id}/content", json={"files": list(files)})
    except APIError as exc:
        msg = str(exc.error.get("message", "")) if isinstance(getattr(exc, "error", None), dict) else str(exc)
        if exc.code == 403 and "Apps Script API" in msg:
            raise ConfigError(f"Google refused: the Apps Script API is turned off for this account; "
                              f"{ENABLE_SCRIPT_API}") from None
        raise store.http.failure("installing the Sheetbridge menu", exc) from None
    except requests.RequestException as exc:
        raise store.http.failure("installing the Sheetbridge menu", exc) from None
    return script_id
