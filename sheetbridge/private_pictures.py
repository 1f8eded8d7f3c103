"""Each player's private picture in their own Results tab (issue 27, point 4).

A game that draws a picture for a player (Skeld's map of their room, Bugcatcher's board
with their own moves) draws it from that player's facts alone (``visible(facts, player)``),
the same view the Results tab's text comes from. On a backend that embeds images (xlsx),
the last resolved round's picture is shown below the player's report, so the host no longer
sends each PNG by hand. Nothing here reads another player's facts.

The caption names the round: a Results tab whose text is unchanged shows the same picture,
so comparing a tab's values (what the orchestrator's publication plan does) also tells
whether its picture must be redrawn.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from .core.match import Match
from .sheets.model import CellData, TabData, TabImage


def player_picture(m: Match, round_no: int, player: str) -> Any:
    """The round's picture for ``player``, drawn from the facts they may see; None if none."""
    rec = next((r for r in m.rounds if r.round == round_no), None)
    if rec is None or not rec.facts or player not in m.players:
        return None
    from .core.facts import visible
    return m.game.picture(visible(rec.facts, player), player, m.context(round_no))


def latest_picture(m: Match, player: str) -> tuple[int, Any] | None:
    """(round, picture) of the last resolved round, if the game draws ``player`` one for it."""
    if not m.rounds:
        return None
    last = m.rounds[-1].round
    pic = player_picture(m, last, player)
    return None if pic is None else (last, pic)


def picture_caption(round_no: int) -> str:
    return f"Round {round_no}: your picture (drawn from what only you were told)"


def with_picture(tab: TabData, m: Match, player: str) -> TabData:
    """The Results tab ``tab`` with the player's picture of the last round below it: a blank row,
    the caption, then the image anchored under the caption. Unchanged when there is none."""
    found = latest_picture(m, player)
    if found is None:
        return tab
    round_no, pic = found
    from .pictures import png_bytes
    rows = [list(r) for r in tab.rows] + [[], [CellData(picture_caption(round_no), bold=True)]]
    image = TabImage(png_bytes(pic), row=len(rows), col=0, name=f"round-{round_no}-your-picture.png")
    return replace(tab, rows=rows, images=[*tab.images, image])


# ------------------------------------------------------------ Google: a Drive file per player, linked

def links_pictures(store: Any) -> bool:
    """A backend that keeps each player's picture in a file of theirs and links it (Google)."""
    return bool(getattr(store, "links_pictures", False))


def prepare_picture_files(ld: Any) -> None:
    """Before the commit of a round that draws a player a picture: make sure that player has their
    Drive file (created empty and shared with them alone), recorded in ``ld.picture_files`` so the
    commit names it and every later plan links it."""
    if not links_pictures(ld.store):
        return
    from .sheets.google_pictures import ensure_picture_file
    emails = {p.name: p.email for p in ld.players}
    for player in ld.match.players:
        if player not in ld.picture_files and latest_picture(ld.match, player) is not None:
            ld.picture_files[player] = ensure_picture_file(ld.store, player, emails.get(player, ""))


def with_link(tab: TabData, m: Match, player: str, file_id: str | None) -> tuple[TabData, list[tuple[str, bytes]]]:
    """The Results tab with a line linking the player's picture file, and the upload that puts the
    last round's picture in it: (tab, [(file id, png)]). Unchanged, and nothing to upload, when the
    round draws them none or they have no file yet."""
    found = latest_picture(m, player)
    if found is None or not file_id:
        return tab, []
    round_no, pic = found
    from .pictures import png_bytes
    from .sheets.google_pictures import picture_link
    caption = f"{picture_caption(round_no)}; only you can open it: {picture_link(file_id)}"
    rows = [list(r) for r in tab.rows] + [[], [CellData(caption, bold=True)]]
    return replace(tab, rows=rows), [(file_id, png_bytes(pic))]


def upload(store: Any, uploads: list[tuple[str, bytes]]) -> None:
    if not uploads:
        return
    from .sheets.google_pictures import upload_picture
    for file_id, png in uploads:
        upload_picture(store, file_id, png)
