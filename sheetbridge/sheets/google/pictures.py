"""A player's private picture on Google: one Drive file per player, shared with that player only.

Google Sheets takes no image bytes through its API (an image in a cell needs a public address,
which would show a player's secrets to anyone with the link), so a Google game keeps each
player's picture in a PNG file of their own on the host's Drive, shared with that player alone
(reader), and links it from their Results tab. The file is made once (:func:`ensure_picture_file`,
before the round's commit, empty until published) and its content replaced by each round's
picture (:func:`upload_picture`, with the player's book, after the commit: running the command
again uploads the same bytes). Costs: a Drive search, a create and an invitation per player,
once in a game; one upload per player whose picture changed, per round.

Creating is not idempotent, so the file is tagged (Drive appProperties, private to this app)
with a digest of the game's master and the player: a create whose answer was lost is found by
the tag, never made twice.
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

import requests
from gspread.exceptions import APIError
from gspread.urls import DRIVE_FILES_API_V3_URL

from ..store import BookInfo

if TYPE_CHECKING:
    from .store import GoogleStore

PICTURE_TAG = "sheetbridgePicture"
PICTURE_MIME = "image/png"
UPLOAD_URL = "https://www.googleapis.com/upload/drive/v3/files"


def picture_link(file_id: str) -> str:
    """The address a player opens (signed in as the account the file is shared with)."""
    return f"https://drive.google.com/file/d/{file_id}/view"


def _tags(store: "GoogleStore", player: str) -> dict[str, str]:
    return {PICTURE_TAG: hashlib.sha256(f"{store.master_id}\n{player}".encode()).hexdigest()[:16]}


def ensure_picture_file(store: "GoogleStore", player: str, email: str) -> str:
    """The id of ``player``'s picture file: found by its tag, or created; then shared with ``email``
    alone (reader), besides the host who owns it. Returns the file id."""
    tags = _tags(store, player)
    body: dict[str, Any] = {"name": f"{player}: your picture.png", "mimeType": PICTURE_MIME, "appProperties": tags,
                            "writersCanShare": False, "copyRequiresWriterPermission": True}
    if store.folder_id:
        body["parents"] = [store.folder_id]
    sent = False

    def attempt() -> dict:
        nonlocal sent
        found = store._list_files(tags)
        if found:
            return found[0]
        sent = True
        return store.http.request("post", DRIVE_FILES_API_V3_URL, json=body, retry=False,
                                  params={"supportsAllDrives": "true", "fields": "id"}).json()

    what = f"creating {player}'s picture file on Drive"
    try:
        file_id = store.http.retrying()(attempt)["id"]
    except (APIError, requests.RequestException) as exc:
        raise store.http.failure(what, exc) from None
    store.share(BookInfo(key=f"picture:{player}", location=file_id, title=""), reader_email=email or None)
    return file_id


def upload_picture(store: "GoogleStore", file_id: str, png: bytes) -> None:
    """Replace the file's content with ``png`` (a simple media upload: the same bytes again change nothing)."""
    try:
        store.http.request("patch", f"{UPLOAD_URL}/{file_id}", data=png, headers={"Content-Type": PICTURE_MIME},
                           params={"uploadType": "media", "supportsAllDrives": "true", "fields": "id"})
    except (APIError, requests.RequestException) as exc:
        raise store.http.failure(f"uploading a picture to Drive ({file_id})", exc) from None
