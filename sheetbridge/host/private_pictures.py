"""Each player's private picture in their own Results tab (issue 27, point 4).

A game that draws a picture for a player (Skeld's map of their room, Bugcatcher's board
with their own moves) draws it from that player's facts alone (``visible(facts, player)``),
the same view the Results tab's text comes from. On a backend that embeds images (xlsx),
the last resolved round's picture is shown below the player's report, so the host no longer
sends each PNG by hand. Nothing here reads another player's facts.

The "Your picture" block names the round: a Results tab whose text is unchanged shows the same
picture, so comparing a tab's values (what the transaction's publication plan does) also tells
whether its picture must be redrawn. On Google, where a sheet cannot hold an image that is not
public, the block links a Drive file of the player's own (``sheets/google/pictures.py``).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..core.match import Match
from ..core.types import Block, Report
from ..sheets import layout as L
from ..sheets.model import TabData, TabImage


def player_picture(m: Match, round_no: int, player: str) -> Any:
    """The round's picture for ``player``, drawn from the facts they may see; None if none."""
    rec = next((r for r in m.rounds if r.round == round_no), None)
    if rec is None or not rec.facts or player not in m.players:
        return None
    from ..core.facts import visible
    return m.game.picture(visible(rec.facts, player), player, m.context(round_no))


def latest_picture(m: Match, player: str) -> tuple[int, Any] | None:
    """(round, picture) of the last resolved round, if the game draws ``player`` one for it."""
    if not m.rounds:
        return None
    last = m.rounds[-1].round
    pic = player_picture(m, last, player)
    return None if pic is None else (last, pic)


PICTURE_BLOCK = "Your picture"


def results_tab(report: Report, m: Match, player: str, *, embed: bool = False,
                link: str | None = None) -> TabData:
    """The player's Results tab: their report, then (when the last round draws them a picture) a
    "Your picture" block naming the round, and the picture itself below it (``embed``: xlsx) or
    the address of their own picture file (``link``: Google). Otherwise the report alone."""
    found = latest_picture(m, player) if embed or link else None
    if found is None:
        return L.report_tab(report, kept=False)   # (the player's own: drawn once a command)
    round_no, pic = found
    line = f"Round {round_no}, drawn from what only you were told: " + (f"{link} (only you can open it)" if link
                                                                         else "below.")
    tab = L.report_tab(replace(report, blocks=(*report.blocks, Block(PICTURE_BLOCK, (line,)))), kept=False)
    if not embed:
        return tab
    from .pictures import png_bytes
    image = TabImage(png_bytes(pic), row=len(tab.rows) + 1, col=0, name=f"round-{round_no}-your-picture.png")
    return replace(tab, images=[*tab.images, image])


# ------------------------------------------------------------ Google: a Drive file per player, linked


def prepare_picture_files(ld: Any) -> None:
    """Before the commit of a round that draws a player a picture: make sure that player has their
    Drive file (created empty and shared with them alone), recorded in ``ld.picture_files`` so the
    commit names it and every later plan links it."""
    if not ld.store.links_pictures:
        return
    from ..sheets.google.pictures import ensure_picture_file
    emails = {p.name: p.email for p in ld.players}
    for player in ld.match.players:
        if player not in ld.picture_files and latest_picture(ld.match, player) is not None:
            ld.picture_files[player] = ensure_picture_file(ld.store, player, emails.get(player, ""))


def picture_link_of(ld: Any, player: str) -> str | None:
    """The address of the player's picture file (Google), if they have one."""
    file_id = ld.picture_files.get(player) if ld.store.links_pictures else None
    if not file_id:
        return None
    from ..sheets.google.pictures import picture_link
    return picture_link(file_id)


def picture_uploads(ld: Any, player: str) -> list[tuple[str, bytes]]:
    """The upload that puts the last round's picture in the player's file: [(file id, png)] or []."""
    file_id = ld.picture_files.get(player) if ld.store.links_pictures else None
    found = latest_picture(ld.match, player) if file_id else None
    if found is None:
        return []
    from .pictures import png_bytes
    return [(file_id, png_bytes(found[1]))]


def upload(store: Any, uploads: list[tuple[str, bytes]]) -> None:
    if not uploads:
        return
    from ..sheets.google.pictures import upload_picture
    for file_id, png in uploads:
        upload_picture(store, file_id, png)
