"""What players and the public read cites no ruling numbers (issue 15): "(R11)", "(A33)" are for
the host log, code comments and docs. Full random games of every game, every text a player sees."""
import re

import pytest

from sheetbridge.api import new_match
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng

from conftest import players_for

# A ruling number (R, A, E, V, E-P numbers of shared/rulings) standing alone as an item of a
# parenthesised list ("(R11)", "(self-collision, R45, A7)", "(R9-R12)"), or after "ruling".
# Board squares such as "(case 1: A3 was claimed)" or "(D4, E4, D5, E5)" are game words, not citations.
RULING = r"(?:E-P\d+|[RAEV]\d+[a-z]?)(?:\s*[-\u2013]\s*(?:E-P\d+|[RAEV]\d+[a-z]?))?"
ITEM = re.compile(rf"(?:see\s+|ruling\s+)?{RULING}")
SQUARE = re.compile(r"^[A-Z]\d+$")
AFTER_RULING = re.compile(rf"\bruling\s+{RULING}", re.IGNORECASE)


def citations(text: str) -> list[str]:
    found = [m.group(0) for m in AFTER_RULING.finditer(text)]
    for m in re.finditer(r"\(([^()]*)\)", text):
        items = [i.strip() for i in re.split(r"[,;]|\band\b", m.group(1))]
        if any(SQUARE.match(i) and not ITEM.fullmatch(i) for i in items):
            continue  # a list of board squares such as D4, E4
        if any(ITEM.fullmatch(i) for i in items):
            found.append(m.group(0))
    return found


def test_the_pattern_finds_citations_and_spares_game_words():
    assert citations("Random card (R33, A24).") == ["(R33, A24)"]
    assert citations("collides (self-collision, R45, A7, E6)") == ["(self-collision, R45, A7, E6)"]
    assert citations("see ruling A3") == ["ruling A3"]
    assert citations("not a corner (E-P2)") == ["(E-P2)"] and citations("scores (R9-R12)") == ["(R9-R12)"]
    assert citations("Your spaces (your red spaces)") == [] and citations("Round 3 of 11") == []
    assert citations("failed (case 1: A3 was already claimed)") == [] and citations("tiles (D4, E4, D5, E5)") == []


def form_texts(form) -> list[str]:
    out = [form.round_label, *form.help]
    for sec in form.sections:
        out += [sec.title, sec.help, *sec.row_labels]
        for f in sec.fields:
            out += [f.label, f.help, f.allowed()]
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_no_ruling_numbers_in_anything_a_player_reads(game_id, seed):
    players = players_for(game_id)
    m = new_match(game_id, players, seed=seed, garnets={p: 10 for p in players})
    rng = Rng.from_seed(seed, "random players")
    found: dict[str, str] = {}

    def check(where: str, text: str) -> None:
        for c in citations(text):
            found.setdefault(c, f"{where}: {text[:160]}")

    while not m.finished:
        for p in m.players:
            for t in form_texts(m.form(p)):
                check(f"round {m.round} form of {p}", t)
        rec = m.resolve(random_submissions(m, rng, 0.15))
        for sub in rec.submissions.values():
            for pr in (sub.problems if sub else ()):
                check("problem", pr.message)
    for p in m.players:
        check(f"{p}'s Results", m.player_report(p).text())
    check("public board", m.public_report().text())
    assert not found, "\n".join(f"{c}  <- {where}" for c, where in sorted(found.items()))
