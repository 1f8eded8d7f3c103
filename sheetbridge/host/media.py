"""What goes out to be read: the round's announcement (Discord Markdown and pictures), each player's
confessional posted to their webhook, and the dry run the menu previews in the master."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..core.errors import UsageError
from ..sheets import layout as L
from ..sheets.model import TabData
from ..sheets.store import MASTER, Store
from .config import read_setting
from .confessionals import Delivery, deliveries
from .picture_files import round_pictures
from .session import ResolveResult, folder_hint, load
from .transaction import commit


@dataclass
class Announcement:
    round: int
    public: list[str]                       # Discord messages, in order
    private: dict[str, list[str]]           # player -> their messages (for confessionals)
    pictures: dict[str, bytes]              # "board" or player -> PNG


def announcement(store: Store, round_no: int | None = None) -> Announcement:
    """The round's public announcement and each player's private results as Discord Markdown,
    drawn from the same facts as the public board and the Results tabs."""
    from .announce import markdown, split_messages
    from .pictures import render_png
    ld = load(store)
    m = ld.match
    if not m.rounds:
        raise UsageError(f"no round has been resolved yet; the opening post of round {m.round} is ready: "
                         f"`sheetbridge announce {folder_hint(store)} --opening`")
    rec = m.rounds[-1] if round_no is None else next((r for r in m.rounds if r.round == round_no), None)
    if rec is None:
        raise UsageError(f"round {round_no} is not resolved; resolved rounds: "
                         + ", ".join(str(r.round) for r in m.rounds))
    public = split_messages(markdown(rec.public)) if rec.public is not None else []
    if m.finished and rec is m.rounds[-1]:
        from ..core.types import Report
        public += split_messages(markdown(Report(f"{m.game.spec.name}: the end", m._outcome_blocks())))
    private = {p: split_messages(markdown(rec.private[p])) for p in m.players if p in rec.private}
    pictures = {k: render_png(v) for k, v in round_pictures(m, rec.round).items()}
    return Announcement(rec.round, public, private, pictures)


# ------------------------------------------------------------ what the menu shows the host

PREVIEW_TAB = "Preview"
ANNOUNCEMENT_TAB = "Announcement"


def preview_lines(res: ResolveResult) -> list[str]:
    """The dry run as lines: public report, every private report, ledger entries, problems (host only)."""
    lines = [res.message]
    lines += [f"warning: {w}" for w in res.warnings]
    rec, m = res.record, res.match
    if rec is None or m is None:
        return lines
    lines += ["", f"== Public report, round {rec.round}"] + (rec.public.text().splitlines() if rec.public else [])
    for p in m.players:
        if p in rec.private:
            lines += ["", f"== Private to {p}"] + rec.private[p].text().splitlines()
    lines += ["", "== Ledger entries"] + [f"{r.player}: {r.change:+d} {r.reason}" for r in rec.ledger]
    problems = rec.problems()
    if problems:
        lines += ["", "== Submission problems (the rules' defaults apply)"] + problems
    return lines


def write_preview(store: Store, res: ResolveResult) -> None:
    """Put a dry run in the master's Preview tab (the master is shared with no one), under the game's
    lock: on xlsx writing one tab saves the whole master, which must never put back an older round."""
    from ..sheets.model import CellData
    rows = [[CellData(line)] for line in preview_lines(res)]
    with store.lock("preview"):
        store.open(MASTER, store.master_location()).write({PREVIEW_TAB: TabData(rows=rows, col_widths={0: 120.0})})


def post_announcement(store: Store, webhook: str | None = None, request_id: str | None = None) -> str:
    """The last round's announcement: posted to the Discord webhook (given, or the Config tab's "webhook"
    setting) at most once per request, or written to the master's Announcement tab to copy by hand."""
    from .announce import Attachment, post_webhook
    from ..sheets.model import CellData
    with store.lock("announce"):
        ld = load(store)
        if request_id and request_id in ld.handled:
            return f"request {request_id} was already done"
        ann = announcement(store)
        url = webhook or read_setting(ld.master.read([L.tab_name("config")])[L.tab_name("config")], "webhook")
        if url:
            files = [Attachment(f"round-{ann.round}-board.png", ann.pictures["board"])] if "board" in ann.pictures else []
            n = post_webhook(url, ann.public, files)
            if request_id:
                ld.handled.append(request_id)
                commit(ld)
            return f"posted round {ann.round}'s announcement ({n} message(s)) to Discord"
        rows = [[CellData(line)] for msg in ann.public for line in msg.splitlines() + ["", "-----", ""]]
        ld.master.write({ANNOUNCEMENT_TAB: TabData(rows=rows, col_widths={0: 120.0})})
        return (f"round {ann.round}'s announcement is in the master's {ANNOUNCEMENT_TAB} tab, ready to paste "
                "(no webhook set in the Config tab)")


def post_confessionals(store, round_no: int | None = None, post: Callable[..., int] | None = None,
                       players: Sequence[str] | None = None) -> tuple[int, list[Delivery]]:
    """The round's confessionals (the last resolved round's by default), each posted to its player's
    webhook from the master's Players tab (``players``: only theirs). Returns the round and what
    happened to each player's."""
    from .announce import post_webhook
    ann = announcement(store, round_no)
    ld = load(store)
    config = L.tab_name("config")
    public = read_setting(ld.master.read([config])[config], "webhook")
    unknown = [p for p in players or () if p not in ld.match.players]
    if unknown:
        raise UsageError(f"--player {unknown[0]}: not a player of this game; players: {', '.join(ld.match.players)}")
    private = {p: msgs for p, msgs in ann.private.items() if not players or p in players}
    return ann.round, deliveries(private, ann.pictures, ld.webhooks, public, ann.round, post or post_webhook)
