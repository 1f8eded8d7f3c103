"""Skeld: what players see: the private report (R37-R41), the form, pictures and colours, no ruling
numbers."""
import re

from sheetbridge.api import new_match as api_new_match
from sheetbridge.core.types import FieldKind
from sheetbridge.games import skeld
from sheetbridge.games.skeld import GAME

from .helpers import PLAYERS, new_match, place, row, sub, text


# ------------------------------------------------------------------ information model (R37-R41)

def test_private_report_holds_the_four_things_and_nothing_of_others():
    m = new_match()
    place(m, "uri", 0, "4B", energy=5)
    place(m, "uri", 1, "1A", energy=5)
    place(m, "Ann", 0, "4B", energy=5, items=[("S", 1)])
    place(m, "Spadez", 0, "1B", energy=5, parasite=True)  # not with uri's crewmates at the end
    place(m, "Marcer", 0, "5A", energy=5)
    m.resolve({"uri": sub(row(room="4B", energy="2")), "Ann": sub(row(room="4B", energy="1")),
               "Marcer": sub(row(move="3A", room="3A", energy="4")), "Spadez": sub(row(move="1A"))})
    report = m.rounds[-1].private["uri"]
    assert [b.title for b in report.blocks] == [
        "1. Crewmates sharing your rooms", "2. Activations of rooms you are in",
        "3. Energy at the start of round 2", "4. Bonuses and parasites of crewmates in your rooms"]
    rep = text(report)
    # 1. co-location (Spadez ended in 1A with CrewB)
    assert "CrewA is in 4B: with Ann.Red" in rep and "CrewB is in 1A: with Spadez.CrewN" in rep
    # 2. the activator of a room uri was in
    assert "4B (Hyacinth) was activated by uri" in rep
    # 3. own next energy: CrewA 5 - 2 + 3 = 6; CrewB 5 + 3 -> 7
    assert "CrewA: 6" in rep and "CrewB: 7" in rep
    # 4. items of co-located crewmates, with parasites
    assert "Ann.Red in 4B: Summoner's Meme (1 use left)" in rep
    assert "Spadez.CrewN in 1A: a Parasite" in rep
    # nothing else: not Marcer's room, bid, energy or activation (3A)
    assert "Marcer" not in rep and "3A" not in rep
    assert "Ann: " not in rep  # no other player's energy
    pub = text(m.rounds[-1].public)
    assert "4B (Hyacinth)" in pub and "3A (Streamline)" in pub  # R41: rooms activated
    assert "uri" not in pub and "Marcer" not in pub  # no activators in public


def test_form_has_dropdowns_per_crewmate():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4, items=[("S", 1)])
    form = GAME.form(m.state, "uri")
    crew_sec = form.section("crew")
    assert crew_sec.rows == 2 and crew_sec.row_labels[0].startswith("CrewA")
    fields = {f.name: f for f in crew_sec.fields}
    assert fields["move_to"].kind is FieldKind.CHOICE and "3C" in fields["move_to"].choices
    # CrewA in 4B and CrewB in 1B: their rows and columns only (9C is in neither)
    assert "9C" not in fields["move_to"].choices and "8C" in fields["move_to"].choices
    assert "Summoner wall E" in fields["item"].choices and "Eat Yellow Banana" not in fields["item"].choices
    assert form.section("garnets").fields[0].name == "cap_upgrades"
    pre = GAME.form(api_new_match("skeld", PLAYERS).state, "uri")
    assert pre.round == 0 and pre.section("crew").fields[1].choices == skeld.START_CELLS


# ------------------------------------------------------------------ colours and pictures

def test_every_legend_colour_is_distinct_and_text_is_readable_on_its_fill():
    import itertools
    from coloraide import Color
    from sheetbridge.sheets.layout import contrast
    legend = dict(skeld.FILL_LEGEND)
    legend.update({"new": skeld.NEW_THIS_ROUND, "wall": skeld.WALL_COLOUR, "crew": skeld.CREW_COLOUR})
    # Before the fix "activated" (2F75B5) and the Vault (4472C4) were two similar blues: CIEDE2000 4.9.
    assert Color("#2F75B5").delta_e("#4472C4", method="2000") < 10
    assert legend["Activated room"] != legend["Vault V"]
    for (a, ca), (b, cb) in itertools.combinations(legend.items(), 2):
        # CIEDE2000: about 2 is barely noticeable side by side; 10 or more is told apart at a glance
        assert Color("#" + ca).delta_e("#" + cb, method="2000") >= 10, (a, b)
    for fill in skeld.ROOM_FILL.values():
        assert contrast(fill, skeld.room_text_colour(fill)) >= 4.5, fill   # WCAG AA for normal text
    # the board tab uses the same colours
    m = new_match()
    cells = {c.text: c for r in GAME.public_view(m.state).blocks[0].grid for c in r}
    assert cells["P"].fill == "C00000" and cells["P"].font == "FFFFFF" and cells["V"].fill == "2F5597"
    assert GAME.public_view(m.state).blocks[0].legend == skeld.FILL_LEGEND


def test_pictures_show_the_ship_and_only_your_own_crewmates():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    place(m, "uri", 1, "1B", energy=5)
    place(m, "Ann", 0, "4B", energy=4, items=[("S", 1)])
    place(m, "Ann", 1, "2A", energy=5)
    for p in ("Marcer", "Spadez"):
        place(m, p, 0, "13B")
        place(m, p, 1, "13B")
    m.resolve({"uri": sub(row(room="1A", energy="2")),
               "Ann": sub(row(move="3C", room="3C", energy="2", item="Summoner wall E"))})
    pics = round_pictures(m, 1)
    assert set(pics) == {"board", "Marcer", "uri", "Spadez", "Ann"}
    board, mine, ann = draw(pics["board"]), draw(pics["uri"]), draw(pics["Ann"])

    def rgb(h):
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))

    def cell(i, j, dx, dy):   # a point in the room of row i, column j (0-based)
        x, y = skeld.cell_xy(i, j)
        return x + dx, y + dy
    assert board.getpixel(cell(2, 4, 80, 30)) == rgb("C00000")     # P (row 3, column 5) is red
    assert board.getpixel(cell(3, 3, 80, 30)) == rgb("2F5597")     # V (row 4, column 4) is blue
    assert board.getpixel(cell(0, 1, 80, 30)) == rgb("BDD7EE")     # 2A, not activated: Frontier light blue
    assert board.getpixel(cell(0, 0, 80, 30)) == rgb("595959")     # 1A, activated by uri: grey
    assert board.getpixel(cell(0, 0, 2, 30)) == rgb("FFC000")      # ... and framed: activated this round
    assert board.getpixel(cell(2, 3, 0, 30)) == rgb("E6007E")      # the wall between 3C and 4B
    # uri's own crewmates are tagged on uri's picture only; Ann's are not on it.
    assert mine.getpixel(cell(0, 0, 6, 48)) == rgb(skeld.CREW_COLOUR)    # CrewA's tag in 1A
    assert mine.getpixel(cell(1, 0, 6, 48)) == rgb(skeld.CREW_COLOUR)    # CrewB's tag in 1B
    assert board.getpixel(cell(0, 0, 6, 48)) == rgb("595959")
    assert mine.getpixel(cell(2, 2, 6, 48)) == rgb("595959")             # 3C: Ann's Red is there, not shown
    assert ann.getpixel(cell(2, 2, 6, 48)) == rgb(skeld.CREW_COLOUR)
    texts = [s.text for s in pics["uri"].shapes if hasattr(s, "text")]
    assert "by uri" in texts and "CrewA" in texts and "Red" not in texts
    assert "by Ann" not in texts   # uri was not in 3C: who activated it is not uri's to know
    assert not any(getattr(s, "text", "").startswith("by ") for s in pics["board"].shapes)


# ------------------------------------------------------------------ what players read

def test_no_ruling_numbers_in_anything_players_or_the_public_read():
    from sheetbridge.api import play_random
    ruling = re.compile(r"\b[RAE]\d{1,2}\b")
    for options in ({}, {"reveal_failure_reasons": "on", "public_garnets": "on", "announce_disables": "on",
                         "endgame_full_reveal": "on"}):
        m = play_random("skeld", PLAYERS, seed=3, options=options)
        texts = [m.public_report().text()] + [m.player_report(p).text() for p in PLAYERS]
        texts += [f.help for f in GAME.form(new_match().state, "uri").section("crew").fields]
        texts += list(GAME.form(new_match().state, "uri").help) + list(GAME.form(api_new_match("skeld", PLAYERS).state,
                                                                             "uri").help)
        for rec in m.rounds:
            texts += [p.message for s in rec.submissions.values() if s for p in s.problems]
        out = m.outcome()
        texts += list(out.reasons) + [a.reason for a in out.awards] + [r.question for r in out.requests]
        found = sorted({hit for t in texts for hit in ruling.findall(t)})
        assert found == [], found
