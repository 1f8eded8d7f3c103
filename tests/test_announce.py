"""Announcements: Discord markdown, clean splitting under 2,000 characters, and a webhook
posted to a local HTTP server (never the internet)."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetbridge.host.announce import Attachment, markdown, post_webhook, split_messages
from sheetbridge.core.errors import BackendError, UsageError
from sheetbridge.core.types import Block, Cell, Report

FENCE = "```"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=3000), st.just(FENCE), st.builds(lambda n: f"**Block {n}**", st.integers())),
                max_size=60),
       st.sampled_from([60, 500, 2000]))
def test_every_message_fits_renders_and_loses_nothing(lines, limit):
    if sum(line == FENCE for line in lines) % 2:
        lines = lines + [FENCE]
    text = "\n".join(lines)
    msgs = split_messages(text, limit)
    assert all(len(m) <= limit for m in msgs)
    assert all(sum(1 for ln in m.split("\n") if ln.strip() == FENCE) % 2 == 0 for m in msgs)   # code blocks close
    strip = lambda s: s.replace(FENCE, "").replace("\n", "")                                     # noqa: E731
    assert "".join(strip(m) for m in msgs) == strip(text)


def test_a_long_report_is_cut_between_blocks():
    blocks = tuple(Block(f"Room {i}", tuple(f"line {j} " + "x" * 60 for j in range(5))) for i in range(12))
    msgs = split_messages(markdown(Report("Round 3", blocks)))
    assert len(msgs) > 1 and all(len(m) <= 2000 for m in msgs)
    for m in msgs[1:]:
        assert m.startswith("**Room ")            # each later message starts at a block title


def test_markdown_keeps_player_text_from_pinging_everyone():
    rep = Report("Round 1", (Block("Chat", ("@everyone look",), ((Cell("`x`"),),)),))
    text = markdown(rep)
    assert "@everyone" not in text and "@\u200beveryone" in text


class Hook:
    """A local stand-in for a Discord webhook: answers each POST from a script of statuses."""

    def __init__(self, statuses):
        self.statuses = list(statuses)
        self.posts = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.posts.append((self.headers.get("Content-Type", ""), body))
                status = outer.statuses.pop(0) if outer.statuses else 204
                payload = json.dumps({"retry_after": 0.01}).encode() if status == 429 else b""
                self.send_response(status)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api/webhooks/1/abc"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.fixture
def hook(request):
    h = Hook(getattr(request, "param", []))
    yield h
    h.close()


@pytest.mark.parametrize("hook", [[429, 500]], indirect=True)
def test_webhook_retries_rate_limits_and_server_errors_then_posts_in_order(hook):
    waits = []
    n = post_webhook(hook.url, ["first", "second"], [Attachment("board.png", b"\x89PNG fake")], sleep=waits.append)
    assert n == 2
    bodies = [b for _, b in hook.posts]
    assert len(bodies) == 4                                     # 429, 500, then the two messages
    assert json.loads(bodies[2])["content"] == "first"
    assert json.loads(bodies[2])["allowed_mentions"] == {"parse": []}
    ctype, last = hook.posts[3]
    assert ctype.startswith("multipart/form-data") and b"second" in last and b"board.png" in last
    assert len(waits) == 2 and waits[0] >= 0.01


@pytest.mark.parametrize("hook", [[404]], indirect=True)
def test_webhook_errors_are_one_line(hook):
    with pytest.raises(BackendError, match="Discord answered 404 to message 1 of 1"):
        post_webhook(hook.url, ["x"], sleep=lambda s: None)
    with pytest.raises(UsageError, match="not a web address"):
        post_webhook("discord.com/oops", ["x"])
