"""Checks every registered game must pass. A game joins by registering."""
import json

import pytest

from sheetbridge.api import load_match, new_match, play_random
from sheetbridge.core.rng import Rng
from sheetbridge.core.types import to_json

from conftest import players_for


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_full_game_ends_with_outcome(game_id, seed):
    m = play_random(game_id, players_for(game_id), seed=seed)
    out = m.outcome()
    assert out is not None
    assert out.winners or out.requests, "a finished game names its winner(s), or the decision it waits for"
    assert set(out.winners) <= set(m.players)
    for p in m.players:
        assert m.ledger.balance(p) >= 0


def test_same_seed_same_output(game_id):
    a = play_random(game_id, players_for(game_id), seed=11)
    b = play_random(game_id, players_for(game_id), seed=11)
    assert json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)
    assert [r.as_list() for r in a.ledger.rows] == [r.as_list() for r in b.ledger.rows]


def test_different_seed_differs(game_id):
    a = play_random(game_id, players_for(game_id), seed=11)
    b = play_random(game_id, players_for(game_id), seed=12)
    assert json.dumps(a.to_json(), sort_keys=True) != json.dumps(b.to_json(), sort_keys=True)


def test_state_round_trips_through_json_and_replays(game_id):
    m = play_random(game_id, players_for(game_id), seed=5)
    data = json.loads(json.dumps(m.to_json()))
    back = load_match(data, m.ledger.rows)
    assert back.state == m.state
    back.replay()  # recomputes every round from the record; raises if anything differs
    assert json.dumps(back.state, sort_keys=True) == json.dumps(m.state, sort_keys=True)


def test_undo_then_redo_gives_same_round(game_id):
    m = new_match(game_id, players_for(game_id), seed=3, garnets={p: 10 for p in players_for(game_id)})
    from sheetbridge.core.match import random_submissions
    rng = Rng.from_seed(3, "t")
    first = m.resolve(random_submissions(m, rng))
    second_raw = random_submissions(m, rng)
    state_before = json.dumps(m.state, sort_keys=True)
    balances_before = m.ledger.balances(m.players)
    rec = m.resolve(second_raw)
    m.undo()
    assert json.dumps(m.state, sort_keys=True) == state_before
    assert m.ledger.balances(m.players) == balances_before
    again = m.resolve(second_raw)
    assert json.dumps(to_json(again.private), sort_keys=True) == json.dumps(to_json(rec.private), sort_keys=True)
    assert first.round < again.round


def test_parse_never_raises_on_garbage(game_id):
    m = new_match(game_id, players_for(game_id), seed=1)
    p = m.players[0]
    form = m.form(p)
    junk = ["seven", "=1+1", "-999", "99999999999", "💥", "  ", "None", "1,2,3,4,5,6,7,8,9"]
    for i, text in enumerate(junk):
        raw = {s.name: [{f.name: text for f in s.fields} for _ in range(s.rows)] for s in form.sections}
        sub = m.parse(p, raw)
        assert sub is None or sub.player == p
        for prob in (sub.problems if sub else ()):
            assert p in prob.message and prob.field


def golden_text(game_id):
    """A seeded random game's reports as text: rule changes show up as diffs of this file."""
    m = play_random(game_id, players_for(game_id), seed=1)
    out = [f"# golden playthrough of {game_id}, seed 1, players {', '.join(m.players)}"]
    for rec in m.rounds:
        out.append(f"\n## round {rec.round}")
        out.append("raw: " + json.dumps(rec.raw, sort_keys=True, ensure_ascii=False))
        out.append(rec.public.text())
        for p in m.players:
            if p in rec.private:
                out.append(f"-- private to {p}")
                out.append(rec.private[p].text())
        for row in rec.ledger:
            out.append(f"ledger: {row.player} {row.change:+d} {row.reason}")
        for f in rec.facts:   # the round as data: a rule change shows in the facts too
            data = to_json(f)
            kind = data.pop("__t").rsplit(".", 1)[-1]
            out.append(f"fact {kind}: " + json.dumps(data, sort_keys=True, ensure_ascii=False))
    out.append("\n## outcome")
    out.append(json.dumps(to_json(m.outcome()), sort_keys=True, ensure_ascii=False, indent=1))
    return "\n".join(out) + "\n"


def test_golden_playthrough(game_id):
    import os
    from conftest import ROOT
    path = ROOT / "tests" / "golden" / f"{game_id}.txt"
    text = golden_text(game_id)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file for {game_id}: run UPDATE_GOLDEN=1 pytest tests/test_conformance.py -k golden"
    assert path.read_text(encoding="utf-8") == text, (
        f"{game_id}'s seeded playthrough changed; if the rules change is intended, "
        "regenerate with UPDATE_GOLDEN=1 and review the diff")


def test_reports_are_drawn_from_the_facts_each_viewer_may_see(game_id):
    """A game that returns facts renders every report from them: after a JSON round trip of the
    record, re-rendering from the visible facts gives the same text, and no player's report
    changes when facts only others may see are removed."""
    from sheetbridge.core.facts import PUBLIC, visible
    m = play_random(game_id, players_for(game_id), seed=4)
    assert all(rec.facts for rec in m.rounds), f"{game_id}: every round's results are typed facts"
    back = load_match(json.loads(json.dumps(m.to_json())), m.ledger.rows)
    for old, new in zip(m.rounds, back.rounds):
        assert new.facts == old.facts
        assert new.public == old.public and new.private == old.private
        for p in m.players:
            mine = tuple(f for f in old.facts if f.audience == PUBLIC or p in f.audience)
            assert visible(old.facts, p) == mine
            assert m.render(old.facts, p, old.round) == old.private[p]
