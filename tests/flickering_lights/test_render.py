"""Flickering Lights: pictures, and every round's play revealed at the end."""
from sheetbridge.core.facts import of_type, visible
from sheetbridge.games import flickering_lights as fl

from .helpers import CORNERS, CSD, CSS, DUO, P, ROW1, SBS, _to_round_four, new, sp


# ------------------------------------------------------------------ pictures

def _pixel(img, xy):
    return img.getpixel((round(xy[0]), round(xy[1])))


def _rgb(hexcolour):
    return tuple(int(hexcolour[i:i + 2], 16) for i in (0, 2, 4))


def _contrast(a, b):
    def lum(c):
        def lin(v):
            x = v / 255
            return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4
        r, g, bl = _rgb(c)
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(bl)
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_board_picture_shows_the_resulting_grid_in_its_colours():
    from sheetbridge.core.picture import Box, Label
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    # Ann (Red Coordinator) A1 +2 on ROW1: red A1-D1, A2, B2, A3; blue E1-H1; the rest gray.
    m = new({1: ROW1}, {1: (CSD, CSD)})
    m.resolve({"Ann": sp("A1")})
    pics = round_pictures(m, 1)
    assert set(pics) == {"board"}              # no private board outside round 4
    img = draw(pics["board"])
    red, blue, gray = _rgb(fl.FILL["R"]), _rgb(fl.FILL["B"]), _rgb(fl.FILL["."])
    for sq in ("A1", "D1", "A2", "B2", "A3"):
        assert _pixel(img, fl.square_box(0, sq)) == red, sq
    for sq in ("E1", "H1"):
        assert _pixel(img, fl.square_box(0, sq)) == blue, sq
    for sq in ("C2", "A4", "H8"):
        assert _pixel(img, fl.square_box(0, sq)) == gray, sq
    # Row 1 at the bottom (A1 option row_one) moves A1 to the last drawn row.
    mb = new({1: ROW1}, {1: (CSD, CSD)}, options={"row_one": "bottom"})
    mb.resolve({"Ann": sp("A1")})
    img_b = draw(round_pictures(mb, 1)["board"])
    assert _pixel(img_b, fl.square_box(0, "A1", "bottom")) == red
    assert _pixel(img_b, fl.square_box(0, "A1", "top")) == gray          # that spot is A8 now
    # The legend: distinct colours, each label readable on its fill (WCAG contrast 4.5 or more).
    shapes = pics["board"].shapes
    legend = [s for s in shapes if isinstance(s, Box) and s.outline == "000000"]
    assert len({b.fill for b in legend}) == len(legend) == 3
    for box in legend:
        label = next(s for s in shapes if isinstance(s, Label) and s.x == box.x + 36 and s.y == box.y + 12)
        assert _contrast(label.colour, box.fill) >= 4.5, label.text


def test_round_four_pictures_hide_the_board_and_give_each_player_theirs():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m = _to_round_four(DUO)
    m.resolve({"Ann": sp("D4")})
    pics = round_pictures(m, 4)
    assert set(pics) == {"board"} | set(P)     # R49, R50: everyone has a board of their own this round
    hidden = _rgb(fl.FILL["?"])
    pub = draw(pics["board"])
    # R48: only the centre four (D4 red, E4 blue, D5 and E5 gray) at the start; the rest dark.
    assert _pixel(pub, fl.square_box(0, "D4")) == _rgb(fl.FILL["R"])
    assert _pixel(pub, fl.square_box(0, "E4")) == _rgb(fl.FILL["B"])
    assert _pixel(pub, fl.square_box(0, "D5")) == _rgb(fl.FILL["."])
    assert _pixel(pub, fl.square_box(0, "A1")) == hidden
    ann = draw(pics["Ann"])
    known = set()
    tiles = next(f for f in of_type(m.rounds[-1].facts, fl.FogTiles) if f.player == "Ann").tiles
    for t in tiles:                             # DUO: every non-centre tile is gray
        assert _pixel(ann, fl.square_box(0, t.square)) == _rgb(fl.FILL["."])
        known.add(t.square)
    other = next(sq for sq in ("A1", "B2", "C3", "H8", "G7") if sq not in known)
    assert _pixel(ann, fl.square_box(0, other)) == hidden
    # The end: the round 5 grid beside round 4's, now revealed (D4's +4 reached 39 squares: red).
    m.resolve({})
    end = draw(round_pictures(m, 5)["board"])
    assert _pixel(end, fl.square_box(1, "A4")) == _rgb(fl.FILL["R"]) and _pixel(end, fl.square_box(1, "H8")) == _rgb(fl.FILL["."])


# ------------------------------------------------------------------ rules fidelity (issue 12)

def test_reveal_play_at_end_publishes_every_rounds_values_and_submissions():
    # A35 option: off by default (the play stays the host's); on, the last round publishes every round's values,
    # flips and submissions as applied, Round 4 replacements included.
    roles = {1: (CSD, CSD), 2: (CSS, CSS), 3: (CSD, CSD), 4: (SBS, SBS), 5: (CSD, CSD)}
    plays = ({"Ann": sp("A1")}, {}, {}, {"Ann": sp("E4")}, {})
    for on in (False, True):
        m = new({1: CORNERS, 2: DUO, 3: CORNERS, 4: DUO, 5: ROW1}, roles,
                options={"reveal_play_at_end": "yes" if on else "no"})
        for raw in plays:
            rec = m.resolve(raw)
        public = visible(rec.facts, None)
        values = {(f.round, f.square): f.value for f in of_type(public, fl.SpaceValue)}
        applied = {(f.round, f.player): f for f in of_type(public, fl.SpacesApplied)}
        if not on:
            assert not values and not applied
            assert "Every round's play" not in rec.public.text()
            continue
        assert values == {(1, "A1"): 2, (4, "D4"): 4}     # round 4: E4 (blue) replaced by D4, the only red
        assert applied[4, "Ann"].replacements == (fl.FogReplacement("spaces", "E4", "D4", "red"),)
        assert applied[1, "Ann"].spaces == (fl.SpaceRaise("A1", 2),) and len(applied) == 5 * 7
        text = rec.public.text()
        assert "Round 1: Ann A1 (+2); Bo submitted nothing" in text and "(E4 replaced by D4)" in text
