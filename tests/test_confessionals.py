"""Each player's confessional and picture posted to their own channel (issue 27, point 4).

A real Skeld game on xlsx (Skeld draws every player a picture of their own), webhooks typed by
the host in the master's Players tab, `sheetbridge announce --post-private` run through the CLI
and received by a local HTTP server on 127.0.0.1 (never the internet).
"""
from __future__ import annotations

import json
import re
import threading
from email.parser import BytesParser
from email.policy import default as email_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import openpyxl
import pytest

from sheetbridge.host.demo import fill_submission
from sheetbridge.host.media import announcement
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.confessionals import WEBHOOK_HEADER, short_webhook
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.sheets.xlsx import XlsxStore
from tests.test_cli_xlsx import run

PLAYERS = ["Ann", "Bo", "Cy", "Dee"]


class Channels:
    """Discord webhooks of several channels on one local server: every POST kept with its path."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, str, bytes]] = []     # (path, content type, body)
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.posts.append((self.path, self.headers.get("Content-Type", ""), body))
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, player: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{self.path(player)}"

    @staticmethod
    def path(player: str) -> str:
        return f"/api/webhooks/{1000 + PLAYERS.index(player)}/{player}-channel-SECRET-token"

    def received(self, player: str) -> tuple[list[str], list[bytes]]:
        """The texts and the attached files posted to ``player``'s channel, in order."""
        texts, files = [], []
        for path, ctype, body in self.posts:
            if path != self.path(player):
                continue
            if ctype.startswith("multipart/"):
                msg = BytesParser(policy=email_policy).parsebytes(b"Content-Type: " + ctype.encode() + b"\r\n\r\n"
                                                                  + body)
                for part in msg.iter_parts():
                    if part.get_param("name", header="content-disposition") == "payload_json":
                        texts.append(json.loads(part.get_content())["content"])
                    else:
                        files.append(part.get_payload(decode=True))
            else:
                texts.append(json.loads(body)["content"])
        return texts, files

    def close(self) -> None:
        self.server.shutdown()


@pytest.fixture
def channels():
    c = Channels()
    yield c
    c.close()


@pytest.fixture
def skeld(tmp_path) -> Path:
    """A Skeld game on xlsx with round 1 resolved from random (valid) entries."""
    folder = tmp_path / "skeld"
    store = XlsxStore(folder)
    new_game("skeld", [PlayerInfo(n, "", 10) for n in PLAYERS], store, seed=4, folder=folder)
    ld = load(store)
    for p, raw in random_submissions(ld.match, Rng.from_seed(5, "test players")).items():
        fill_submission(store, ld, p, raw)
    assert resolve(XlsxStore(folder)).action == "resolved"
    return folder


def type_webhooks(folder: Path, urls: dict[str, str]) -> None:
    """The host pastes each player's channel webhook into the master's Players tab."""
    path = folder / "master.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    header = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "player")
    col = next(c for c in range(1, ws.max_column + 1) if ws.cell(header, c).value == WEBHOOK_HEADER)
    for r in range(header + 1, ws.max_row + 1):
        if ws.cell(r, 1).value in urls:
            ws.cell(r, col).value = urls[ws.cell(r, 1).value]
    wb.save(path)


def all_text(path: Path) -> str:
    wb = openpyxl.load_workbook(path)
    return "\n".join(str(v) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for v in row if v)


def test_each_confessional_and_picture_goes_to_its_own_channel_only(skeld, channels):
    type_webhooks(skeld, {p: channels.url(p) for p in PLAYERS})
    out = run("announce", skeld, "--post-private").output
    ann = announcement(XlsxStore(skeld))
    round_no = ann.round
    for p in PLAYERS:
        texts, files = channels.received(p)
        assert texts == ann.private[p]                       # every message of theirs, in order, nothing else
        own = (skeld / "pictures" / "private" / f"{p}-round-{round_no}.png").read_bytes()
        assert files == [own]                                # their own picture, the one in their folder
        assert f"posted {p}'s confessional ({len(texts)} message(s) and their picture)" in out
        others = [q for q in PLAYERS if q != p]
        for q in others:                                     # nothing drawn or written for another player
            their = (skeld / "pictures" / "private" / f"{q}-round-{round_no}.png").read_bytes()
            assert their == own or their not in files
            assert not [m for m in ann.private[q] if m not in ann.private[p] and m in texts]
    assert {path for path, _, _ in channels.posts} == {channels.path(p) for p in PLAYERS}
    # A webhook is a secret: only a short prefix is ever printed, and no file but the master holds it.
    assert "SECRET" not in out and short_webhook(channels.url("Ann")) in out
    for p in PLAYERS:
        assert "SECRET" not in all_text(skeld / "players" / f"{p}.xlsx")
    assert "SECRET" not in all_text(skeld / "board.xlsx")


def test_webhooks_survive_every_master_write_and_stay_out_of_the_record(skeld, channels):
    type_webhooks(skeld, {p: channels.url(p) for p in PLAYERS})
    run("undo", skeld)                                       # the master is rewritten from the record
    ld = load(XlsxStore(skeld))
    assert ld.webhooks == {p: channels.url(p) for p in PLAYERS}
    wb = openpyxl.load_workbook(skeld / "master.xlsx")
    outside = "\n".join(str(v) for ws in wb.worksheets if ws.title != "Players"
                        for row in ws.iter_rows(values_only=True) for v in row if v)
    assert "SECRET" not in outside


def test_a_shared_or_missing_webhook_gets_nothing_and_the_host_is_told_in_one_line(skeld, channels):
    # Bo's cell holds Ann's webhook (a copy-paste slip): Ann's secrets must not reach Bo's channel,
    # nor Bo's Ann's. Dee has none. Cy's is posted.
    type_webhooks(skeld, {"Ann": channels.url("Ann"), "Bo": channels.url("Ann"), "Cy": channels.url("Cy")})
    res = run("announce", skeld, "--post-private", ok=False)
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "SECRET" not in res.output
    assert f"Ann: the webhook {short_webhook(channels.url('Ann'))} is also Bo's" in res.output
    assert "Bo: the webhook" in res.output and "is also Ann's" in res.output
    assert "Dee: no confessional webhook in the master's Players tab" in res.output
    assert "--post-private --player Ann --player Bo --player Dee`" in res.output
    assert {path for path, _, _ in channels.posts} == {channels.path("Cy")}
    # The host fixes Bo's and Dee's and posts only those left.
    type_webhooks(skeld, {"Bo": channels.url("Bo"), "Dee": channels.url("Dee")})
    run("announce", skeld, "--post-private", "--player", "Ann", "--player", "Bo", "--player", "Dee")
    with_picture = [re.sub(r"/api/webhooks/\d+/", "", path) for path, ctype, _ in channels.posts
                    if ctype.startswith("multipart/")]
    assert sorted(with_picture) == sorted(f"{p}-channel-SECRET-token" for p in PLAYERS)   # each once
