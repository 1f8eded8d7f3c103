"""The shortcuts taken for speed (issue 13) give exactly what the general code gives.

Each shortcut is checked against the code it stands in for, on many seeded random inputs,
including the inputs where the two could part: a player colliding with themselves, cells that
need the form, tables changed in place.
"""
import dataclasses
import inspect
import random
from typing import Any

import pytest

from sheetbridge.api import match_from_position, new_match
from sheetbridge.core.errors import SheetbridgeError
from sheetbridge.core.facts import Fact
from sheetbridge.core.intake import _prepare, plain, prepare
from sheetbridge.core.match import Match, _has_content
from sheetbridge.core.parsing import match_choice, shorten, table_key
from sheetbridge.core.rng import Rng
from sheetbridge.core.types import Submission
from sheetbridge.games import bugcatcher as bc
from sheetbridge.games import skeld
from sheetbridge.templates import default_tables


def _plan(rnd: random.Random) -> list[str]:
    codes = list(bc.PATH_CODES) * 3 + [bc.SWAP, bc.GSWAP, bc.IDLE]
    return [rnd.choice(codes) for _ in range(rnd.randint(0, 9))]


@pytest.mark.parametrize("options", [
    {},
    {"start_nodes_claimed": False, "crossing_before_arrival": False},
    {"offboard_policy": "skip_action", "gswap_takes_step": False, "blocked_cells": "B2, C3, D4"},
    {"columns": 3, "rows": 2, "blocked_cells": "A1"},
])
def test_walking_one_plan_alone_finds_what_the_whole_round_engine_finds(options):
    opts = {**bc.DEFAULTS, **options}
    rnd = random.Random(13)
    failures = collisions = 0
    for _ in range(3000):
        start = {"B": bc.point_fine(rnd.randint(0, opts["columns"]), rnd.randint(0, opts["rows"])),
                 "C": bc.cell_fine(rnd.randrange(opts["columns"]), rnd.randrange(opts["rows"]))}
        colour = rnd.choice((bc.BLUE, bc.BLACK))
        plan = _plan(rnd)
        full = bc.run_paths({"p": start}, {"p": colour}, {"p": plan}, opts)
        expected = [(e.step, e.code, e.result, e.to) for e in full.events["p"]
                    if e.result in ("offboard", "blocked", "collision")]
        got = [(e.step, e.code, e.result, e.to) for e in bc.walk_alone(start, colour, plan, opts)]
        assert got == expected, (start, colour, plan)
        failures += bool(expected)
        collisions += any(r == "collision" for _, _, r, _ in expected)
    assert failures > 500 and collisions > 100       # the comparison met the cases that matter


def _raw(rnd: random.Random) -> dict:
    words = ["3", " 5 ", "Null", "duel", "", "  ", "=1+2", "yes", "BD", "x" * 30, "-10", "7, 8"]
    odd = ["\u0663", "\uff2e\uff55\uff4c\uff4c", "1" * 31, "x" * 250, None, 7, "\u2212" + "3"]
    cell = lambda: rnd.choice(odd) if rnd.random() < 0.1 else rnd.choice(words)  # noqa: E731
    return {rnd.choice(["play", "buy", "other"]): [{rnd.choice(["card", "room", "buy_cards", "buy_hide", "note"]): cell()
                                                   for _ in range(rnd.randint(0, 3))} for _ in range(rnd.randint(0, 3))]
            for _ in range(rnd.randint(1, 3))}


def test_a_plain_submission_is_prepared_as_the_full_rule_prepares_it():
    m = new_match("three-modular-rooms", ["Ann", "Bo"], seed=1)
    form = m.form("Ann")
    rnd = random.Random(5)
    plain_seen = other_seen = 0
    for _ in range(3000):
        raw = _raw(rnd)
        full = _prepare(form, "Ann", raw)
        quick = plain(raw)
        if quick is not None:
            plain_seen += 1
            assert (quick, full.problems, full.notices, full.refused_labels, full.rejected) == (full.raw, [], [], set(),
                                                                                               False)
        else:
            other_seen += 1
        assert prepare(form, "Ann", raw) == full
    assert plain_seen > 1000 and other_seen > 500


def _parse_with_the_form_always_built(m: Match, player: str, raw: dict):
    """Match.parse as it was before the form was built only when needed (the reference)."""
    if raw is None or not _has_content(raw):
        return None
    form = m.form(player)
    prep = _prepare(form, player, raw)
    sub = m.game.parse(m.state, player, prep.raw)
    problems = list(prep.problems)
    refused = {pr.label: i for i, pr in enumerate(problems) if pr.label in prep.refused_labels}
    for pr in sub.problems:
        label = pr.label or form.label_for(pr.field)
        if label in refused:
            i = refused.pop(label)
            problems[i] = dataclasses.replace(problems[i], default=pr.default or problems[i].default)
            continue
        if label in prep.refused_labels:
            continue
        problems.append(dataclasses.replace(pr, label=label, value=shorten(pr.value)))
    return Submission(player, sub.values, tuple(problems), prep.raw, tuple(prep.notices))


@pytest.mark.parametrize("game_id", ["three-modular-rooms", "bugcatcher", "skeld"])
def test_a_match_parses_every_submission_as_when_the_form_was_always_built(game_id):
    m = new_match(game_id, [f"P{i}" for i in range(1, 10 if game_id != "skeld" else 5)], seed=2)
    rnd = random.Random(6)
    rng = Rng.from_seed("fast paths")
    for round_no in range(2):
        for _ in range(300):
            player = rnd.choice(m.players)
            raw = m.game.random_submission(m.state, player, rng)
            if rnd.random() < 0.5:   # mistype some cells, some of them so that they need the form
                for rows in raw.values():
                    for row in rows:
                        for k in row:
                            if rnd.random() < 0.3:
                                row[k] = rnd.choice(["seven", "", "=A1", "\u0663", "x" * 300, "BD BD", "yes please"])
            assert m.parse(player, raw) == _parse_with_the_form_always_built(m, player, raw)
        m.resolve({p: m.game.random_submission(m.state, p, rng) for p in m.players})


def test_a_table_key_follows_the_tables_content_even_when_changed_in_place():
    rect = [["id", "reward"], ["J1", "6"]]
    first = table_key(rect)
    assert table_key(rect) is first                   # the same table again: the same key, not rebuilt
    rect[1][1] = "7"
    assert table_key(rect) == (("id", "reward"), ("J1", "7"))
    rect[1][1] = 7                                     # not text: keyed as text, never remembered
    assert table_key(rect) == (("id", "reward"), ("J1", "7")) and table_key(rect) is not table_key(rect)
    assert table_key([["a", None]]) == (("a", ""),)


def test_bugcatcher_missions_are_read_again_when_the_table_changes():
    table = [list(r) for r in default_tables(bc.GAME)[bc.MISSIONS_TABLE]]
    missions, problems = bc.read_missions(table)
    assert not problems and missions[0]["reward"] == int(table[1][table[0].index("reward")])
    table[1][table[0].index("reward")] = "41"
    again, _ = bc.read_missions(table)
    assert again[0]["reward"] == 41
    again[0]["accepted"].append("Ann")                # the caller's copy: the next read is untouched
    assert bc.read_missions(table)[0][0]["accepted"] == []


def test_choices_looked_up_by_folded_text_find_what_a_scan_finds():
    choices = ("Null", "NULL", "Solitary", "Straße", "STRASSE", "ǅ")
    for text in ["null", " NULL ", "solitary", "strasse", "straße", "ǆ", "Ǆ", "duel", ""]:
        assert match_choice(text, choices) == match_choice(text, list(choices))


def test_the_ships_lookups_are_the_scans_they_replace():
    grid, problems = skeld.read_board(default_tables(skeld.GAME)[skeld.BOARD_TABLE])
    assert not problems
    board = skeld.Board(tuple(tuple(r) for r in grid))
    cells = {v: (i, j) for i, r in enumerate(board.grid) for j, v in enumerate(r)}
    for a in cells:
        assert board.pos(a) == cells[a]
        for b in cells:
            (i, j), (k, m) = cells[a], cells[b]
            if i != k and j != m:
                expected = None
            else:
                di, dj = (k > i) - (k < i), (m > j) - (m < j)
                expected, x, y = [], i, j
                while (x, y) != (k, m):
                    x, y = x + di, y + dj
                    expected.append(board.grid[x][y])
            got = board.line(a, b)
            assert got == expected
            if got:
                got.append("changed")                   # a caller's list: the board's answer stays
                assert board.line(a, b) == expected
    with pytest.raises(KeyError):
        board.pos("nowhere")


def _fact_types() -> list[type]:
    from sheetbridge.api import games
    from sheetbridge.core.types import _TYPES
    games()                                            # every game's facts registered
    return [c for c in _TYPES.values() if dataclasses.is_dataclass(c) and issubclass(c, Fact)]


def _args_for(cls: type) -> list[Any]:
    """Positional arguments that make an instance (every field a plain value)."""
    return [None for f in dataclasses.fields(cls) if not f.kw_only and f.default is dataclasses.MISSING]


def test_a_facts_quick_init_makes_what_the_dataclass_init_makes():
    rnd = random.Random(17)
    pool = ["Ann", "", 0, 3, -1, None, (1, 2), (), ("Ann",), 2.5, True, [1], {"a": 1}]
    quick_types = 0
    for cls in _fact_types():
        if not getattr(cls.__init__, "quick_on_first_use", False) and \
                "_fact_values" not in cls.__init__.__code__.co_varnames:   # not made by @fact (Fact, the core's)
            continue
        reference = dataclasses.dataclass(frozen=True)(type("Reference", (cls,), {}))   # the generated init
        assert str(inspect.signature(cls)) == str(inspect.signature(reference))        # before the first use
        quick_types += "_fact_values" in cls.__init__.__code__.co_varnames or \
            "_fact_values" in type(cls(*_args_for(cls))).__init__.__code__.co_varnames  # and after it
        assert str(inspect.signature(cls)) == str(inspect.signature(reference))
        fields = dataclasses.fields(cls)
        required = [f for f in fields if f.default is dataclasses.MISSING]
        for _ in range(40):
            positional = [rnd.choice(pool) for f in fields if not f.kw_only]
            positional = positional[:rnd.randint(sum(1 for f in required if not f.kw_only), len(positional))]
            keywords = {f.name: rnd.choice(pool) for f in fields if f.kw_only and
                        (f.default is dataclasses.MISSING or rnd.random() < 0.5)}
            got, expected = cls(*positional, **keywords), reference(*positional, **keywords)
            assert list(vars(got).items()) == list(vars(expected).items())
            assert repr(got).split("(", 1)[1] == repr(expected).split("(", 1)[1]
            assert dataclasses.replace(got) == got == cls(*positional, **keywords)
            if not any(isinstance(v, (list, dict)) for v in vars(got).values()):
                assert hash(got) == hash(expected)     # a dataclass's hash is its fields'
            with pytest.raises(dataclasses.FrozenInstanceError):
                got.audience = ()
        with pytest.raises(TypeError):
            cls(*[None] * (len(fields) + 1))
    assert quick_types > 100                           # the games' facts take the quick init


def _below_by_calls(rng: Rng, n: int) -> int:
    """Rng.below as written before its draw was inlined (the reference)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        x = rng.next_u64()
        if x < limit:
            return x % n


def test_the_rngs_inlined_draws_are_its_next_u64():
    rnd = random.Random(19)
    for t in range(1000):
        rng, reference = Rng.from_seed("inlined", t), Rng.from_seed("inlined", t)
        for _ in range(40):
            what = rnd.randrange(6)
            if what == 0:
                n = rnd.choice([1, 2, 3, 7, 10, 2 ** 63 + 5, 2 ** 64 - 1, 2 ** 64, rnd.randrange(1, 10 ** 18)])
                assert rng.below(n) == _below_by_calls(reference, n)
            elif what == 1:
                assert rng.random() == (reference.next_u64() >> 11) / float(1 << 53)
            elif what == 2:
                # mostly short; some long enough to cross the table of rejection limits (1024)
                items = list(range(rnd.randrange(0, 12) if rnd.random() < 0.95
                                   else rnd.choice([63, 1023, 1024, 1025, 1100])))
                expected = list(items)
                for i in range(len(expected) - 1, 0, -1):
                    j = _below_by_calls(reference, i + 1)
                    expected[i], expected[j] = expected[j], expected[i]
                assert rng.shuffled(items) == expected and items == sorted(items)
            elif what == 3:
                items = "abcdefg"[:rnd.randrange(1, 8)]
                assert rng.choice(items) == items[_below_by_calls(reference, len(items))]
            elif what == 4:
                assert rng.randint(-5, 9) == -5 + _below_by_calls(reference, 15)
            else:   # pick: the first k steps of a Fisher-Yates shuffle from the front
                items, k = list(range(rnd.randrange(0, 40))), rnd.randrange(0, 12)
                expected = list(items)
                for i in range(min(k, len(items))):
                    j = i + _below_by_calls(reference, len(items) - i)
                    expected[i], expected[j] = expected[j], expected[i]
                assert rng.pick(items, k) == expected[:k] and items == sorted(items)
            assert (rng.state, rng.draws) == (reference.state, reference.draws)
    with pytest.raises(ValueError):
        Rng(1).below(0)
    with pytest.raises(ValueError):   # more values than a draw has: it would draw for ever
        Rng(1).below(2 ** 64 + 1)


def test_a_jumped_stream_is_the_stream_after_that_many_draws():
    """jumped(i) starts where the stream would be after i * 2**40 draws; checked where draws can be
    counted, with the state's step per draw that the jump multiplies."""
    from sheetbridge.core import rng as rng_module
    assert rng_module._JUMP == (rng_module._GOLDEN * 2 ** 40) % 2 ** 64
    for seed in range(20):
        walked = Rng.from_seed("jump", seed)
        start = walked.state
        for _ in range(37):
            walked.next_u64()
        assert Rng(start + 37 * rng_module._GOLDEN).next_u64() == walked.next_u64()
        one, two = Rng(start).jumped(1), Rng(start).jumped(2)
        assert one.state == (start + rng_module._JUMP) % 2 ** 64 and two.state == (start + 2 * rng_module._JUMP) % 2 ** 64
        assert len({one.next_u64(), two.next_u64(), Rng(start).next_u64()}) == 3


def test_pick_gives_every_item_every_place():
    rng = Rng.from_seed("pick")
    seen = {(i, x) for _ in range(2000) for i, x in enumerate(rng.pick("abcdef", 3))}
    assert seen == {(i, x) for i in range(3) for x in "abcdef"}
    assert sorted(rng.pick("abcdef", 6)) == list("abcdef") and rng.pick("abc", 0) == []


@pytest.mark.parametrize("options", [{}, {"blocked_cells": "B2, C3, D4"}, {"columns": 3, "rows": 2, "blocked_cells": "A1"}])
def test_the_simulated_players_table_of_steps_is_the_steps_computed(options):
    opts = {**bc.DEFAULTS, **options}
    cols, rows, blocked = opts["columns"], opts["rows"], bc.blocked_fine(opts)
    table = bc._legal_steps(cols, rows, blocked)
    points = [(x, y) for x in range(-2, 2 * cols + 3) for y in range(-2, 2 * rows + 3)]
    assert set(table["B"]) == set(table["C"]) == {p for p in points if bc.on_board(p, cols, rows)}
    for n in "BC":
        for at in points:
            expected = {d: (at[0] + 2 * dx, at[1] + 2 * dy) for d, (dx, dy) in bc.DIRS.items()
                        if bc.on_board((at[0] + 2 * dx, at[1] + 2 * dy), cols, rows)
                        and not (n == "C" and (at[0] + 2 * dx, at[1] + 2 * dy) in blocked)}
            got = bc.steps_from(n, at, cols, rows, blocked)
            assert list(got.items()) == list(expected.items())
            if at in table[n]:
                assert list(table[n][at].items()) == list(expected.items())


def test_the_cells_bugcatcher_reads_without_the_rule_are_read_so_by_the_rule():
    from sheetbridge.core.parsing import is_formula, yes_no
    for text, code in bc._EXACT_CODES.items():
        assert text == bc.clean(text) and not is_formula(text) and bc.parse_action(text) == code
    for text, answer in bc._EXACT_YES_NO.items():
        assert text == bc.clean(text) and not is_formula(text) and yes_no(text) is answer


def test_bugcatchers_presented_missions_are_made_from_the_mission_as_before():
    missions, _ = bc.read_missions(default_tables(bc.GAME)[bc.MISSIONS_TABLE])
    missions.append({**missions[0], "id": "M", "manual": True, "text": "Ask the host.", "expires": 4})
    for r, m in enumerate(missions):
        assert bc._mission_presented(r, *(m.get(k) for k in bc._PRESENTED_KEYS)) == bc.MissionPresented(
            r, m["id"], m["name"], m["node"], m["shape"], bool(m.get("manual")), m["reward"], m["penalty"],
            m["failure_rounds"], m["expires"], bc.mission_text(m))


def test_bugcatchers_remembered_shape_search_is_find_shape():
    rnd = random.Random(5)
    for _ in range(2000):
        shape = "".join(rnd.choice("UDLR") for _ in range(rnd.randint(1, 4)))
        variants = bc._shape_variants(shape, rnd.random() < .5, rnd.random() < .5, rnd.random() < .5)
        moves = "".join(rnd.choice("UDLR") for _ in range(rnd.randint(0, 7)))
        anywhere = rnd.random() < .7
        assert bc._found_shape(moves, variants, anywhere) == bc.find_shape(moves, list(variants), anywhere)


def _parse_the_long_way(m: Match, player: str, raw: Any) -> Submission | None:
    """Match.parse without its shortcuts: the form is always built and prepare always runs
    (for inputs without over-long cells)."""
    if raw is None or not _has_content(raw):
        return None
    form = m.form(player)
    prep = prepare(form, player, raw)
    sub = m.game.parse(m.state, player, prep.raw)
    problems = list(prep.problems) + [dataclasses.replace(pr, label=pr.label or form.label_for(pr.field),
                                                          value=shorten(pr.value)) for pr in sub.problems]
    return Submission(player, sub.values, tuple(problems), prep.raw, tuple(prep.notices))


def test_match_parse_of_a_plain_submission_is_the_long_way():
    rnd = random.Random(8)
    m = new_match("bugcatcher", [f"P{i}" for i in range(1, 6)], seed="parse paths")
    rng = Rng.from_seed("parse paths")
    seen_problems = seen_blank = 0
    for _ in range(4):
        for p in m.players:
            raw = m.game.random_submission(m.state, p, rng)
            for variant in range(4):
                tried = {s: [dict(row) for row in rows] for s, rows in raw.items()}
                cells = [(row, k) for rows in tried.values() for row in rows for k in row]
                if variant == 1:      # spaces around, an odd word: a problem to label
                    row, k = rnd.choice(cells)
                    row[k] = rnd.choice([" xyz ", "  ", "BU ", " yes", "=A1"])
                elif variant == 2:    # blank cells only: nothing submitted
                    for row, k in cells:
                        row[k] = rnd.choice(["", "  "])
                elif variant == 3:    # not plain: read by the rule and told
                    row, k = rnd.choice(cells)
                    row[k] = "\uff35"
                got = m.parse(p, tried)
                assert got == _parse_the_long_way(m, p, tried)
                seen_problems += bool(got and got.problems)
                seen_blank += got is None
        m.resolve({p: m.game.random_submission(m.state, p, rng) for p in m.players})
    assert seen_problems and seen_blank


@pytest.mark.parametrize("options", [
    {}, {"blocked_cells": "B2, C3, D4"}, {"columns": 3, "rows": 2, "blocked_cells": "A1"},
    {"bid_scope": "shared", "gswap_takes_step": False, "energy_overflow": "reject_all"},
    {"start_nodes_claimed": False, "offboard_policy": "skip_action", "mission_requires_acceptance": False},
])
def test_bugcatchers_random_play_claims_only_what_parse_reads(options):
    """random_play is random_submission (same draws, same text), and the values it claims are what
    parse reads from that text, without a problem. Where it is unsure (crossing paths, a short list)
    it claims nothing, and there parse may well find a problem."""
    players = [f"P{i}" for i in range(1, 6)]
    claimed = unsure = unsure_with_problems = 0
    for seed in range(6):
        m = new_match("bugcatcher", players, seed=f"claims {seed}", options=options)
        rng = Rng.from_seed("claims", seed)
        while not m.finished:
            raw = {}
            for p in m.players:
                a, b = rng.fork("player", p, m.round), rng.fork("player", p, m.round)
                raw[p], values = m.game.random_play(m.state, p, a)
                assert raw[p] == m.game.random_submission(m.state, p, b) and (a.state, a.draws) == (b.state, b.draws)
                read = m.parse(p, raw[p])
                if values is None:
                    unsure += 1
                    unsure_with_problems += bool(read and read.problems)
                else:
                    claimed += 1
                    assert read == Submission(p, values, (), raw[p], ())
            m.resolve(raw)
    if options.get("columns") == 3:   # 5 usable cells: every pregame list is short, a problem to report
        assert unsure >= 6 * len(players) and unsure_with_problems >= 6 * len(players) and claimed
    else:
        assert claimed > 10 * unsure   # the shortcut is taken nearly always
        assert unsure_with_problems    # and where it is not, there was something to find


def test_a_claim_parse_does_not_read_is_caught_with_checks_on_and_trusted_with_them_off():
    players = ["Ann", "Bo", "Cy"]
    for checks in (True, False):
        m = new_match("bugcatcher", players, seed="wrong claim")
        m.checks = checks
        raw, values = m.game.random_play(m.state, "Ann", Rng.from_seed("wrong claim"))
        wrong = {**values, "central": list(reversed(values["central"]))}
        if checks:
            with pytest.raises(SheetbridgeError, match="bugcatcher.random_play claimed values for Ann"):
                m.resolve({"Ann": raw}, known={"Ann": wrong})
            assert m.round == 0 and not m.rounds   # nothing resolved
        else:
            rec = m.resolve({"Ann": raw}, known={"Ann": wrong})
            assert rec.submissions["Ann"].values == wrong and rec.raw["Ann"] is raw


def test_a_simulation_reads_few_of_its_random_submissions_back(monkeypatch):
    from sheetbridge.simulate import play_games
    calls = []
    original = Match._read   # the one reading of a submission (Match.parse's, and resolve's when parse has not read it)
    monkeypatch.setattr(Match, "_read", lambda self, p, raw: calls.append(p) or original(self, p, raw))
    df = play_games("bugcatcher", [f"P{i}" for i in range(1, 10)], games=10, seed="reads", workers=1)
    submissions = int(df["rounds"].sum()) * 9
    assert 0 < len(calls) < submissions // 20


def test_a_simulation_lets_a_rounds_facts_go_only_when_nobody_reads_them(monkeypatch):
    """With every seat on the game's own random player, each round's facts are counted as the round
    ends and let go; the counts are those of the facts made. A strategy that reads its view still
    gets every earlier round's facts."""
    from collections import Counter
    from sheetbridge.simulate import play_game, strategy
    records, made = [], Counter()
    original = Match.resolve

    def resolve(self, *args, **kwargs):
        rec = original(self, *args, **kwargs)
        records.append(rec)
        made.update(type(f).__name__ for f in rec.facts)
        return rec
    monkeypatch.setattr(Match, "resolve", resolve)
    players = ["P1", "P2", "P3", "P4"]
    row = play_game("skeld", players, "forget", ["random"])
    assert len(records) == row["rounds"] > 1 and all(rec.facts == () and not rec.raw for rec in records)
    made["MainMatchResult"] += 1   # and the end's own fact, once a game
    assert {k[5:]: v for k, v in row.items() if k.startswith("fact:")} == dict(made) and sum(made.values()) > 50

    seen = []

    @strategy("reads-its-facts-test", "skeld")
    def reads(view, rng):
        seen.append((view.round, len(view.facts)))
        return None
    records.clear()
    made.clear()
    row = play_game("skeld", players, "keep", ["random", "reads-its-facts-test"])
    assert all(rec.facts for rec in records)
    made["MainMatchResult"] += 1
    assert {k[5:]: v for k, v in row.items() if k.startswith("fact:")} == dict(made)
    told = [n for r, n in seen if r == max(r for r, _ in seen)]
    assert told and min(told) > 0 and all(n >= 1 for n in told)


def test_a_forgotten_round_keeps_its_ledger_and_a_detached_one_its_drawn_reports():
    """Three Modular Rooms: Bo's -10 takes a garnet from Ann, in Bo's room (card -10 in the rules)."""
    def played() -> Any:
        m = new_match("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=7, garnets={"Ann": 10, "Bo": 10, "Cy": 10})
        return m.resolve({"Ann": {"play": [{"card": "3", "room": "Null"}]},
                          "Bo": {"play": [{"card": "-10", "room": "Null"}]},
                          "Cy": {"play": [{"card": "5", "room": "Duel"}]}})
    rec = played()
    assert rec.facts and rec.raw
    rec.forget()
    assert rec.facts == () and rec.raw == {} and rec.submissions == {} and rec.host_log == []
    assert rec.public is None and rec.private == {}   # nothing left to draw them from
    assert sorted((r.player, r.change) for r in rec.ledger if r.round == 1) == [("Ann", -1), ("Bo", 1)]

    rec = played()
    drawn = rec.public.text()
    rec.detach()
    assert rec.public.text() == drawn and rec.facts


def test_the_shared_missions_of_later_rounds_are_never_written():
    """A state holds the missions of later rounds as read from the table, shared with every game that
    reads it (a round copies a mission before it writes to it). Whole simulated games, with checks
    off as in a simulation, leave the shared ones exactly as read."""
    import copy
    from sheetbridge.core.parsing import table_key
    from sheetbridge.simulate.play import _default_tables, play_games
    key = table_key(_default_tables("bugcatcher")[bc.MISSIONS_TABLE])
    before = copy.deepcopy(bc._read_missions_cached(key))
    for options in ({}, {"mission_requires_acceptance": False}, {"rounds": 3}):
        df = play_games("bugcatcher", [f"P{i}" for i in range(1, 10)], games=8, seed="shared", options=options,
                        workers=1)
        assert df["fact:MissionCompleted"].sum() > 0 and df["fact:MissionPenalty"].sum() > 0
    # a game opened at a position writes the earlier missions' records as it sets them up
    pos = {"round": 4, "nodes": {"P1": {"border": [1, 1], "central": "C3"}, "P2": {"border": [4, 1], "central": "F5"},
                                 "P3": {"border": [2, 4], "central": "A1"}},
           "missions": {"F1": {"accepted": ["P1"], "completed_by": ["P1"], "completed_round": 1},
                                    "Z1": {"accepted": ["P2"], "penalized": ["P2"]}}}
    m = match_from_position("bugcatcher", ["P1", "P2", "P3"], pos, garnets={"P1": 2, "P2": 2, "P3": 2})
    assert {x["id"]: x["status"] for x in m.state["missions"]}["F1"] == "completed"
    assert bc._read_missions_cached(key) == before


def test_the_facts_each_viewer_sees_at_once_are_what_each_sees_alone():
    """visible_by_viewer (one pass over a round's facts for every viewer) picks, for each viewer and
    in order, what visible picks for that viewer alone: public, host-only, one player, several
    players, a name listed twice, a name that is no viewer."""
    from sheetbridge.core.facts import HOST, HOST_ONLY, PUBLIC, visible, visible_by_viewer

    @dataclasses.dataclass(frozen=True)
    class Seen(Fact):
        n: int = 0

    rng = random.Random(7)
    names = ["Ann", "Bo", "Cy", "Dee", "Eli"]
    for trial in range(300):
        facts = []
        for n in range(rng.randrange(0, 25)):
            kind = rng.randrange(5)
            audience = (PUBLIC if kind == 0 else HOST_ONLY if kind == 1 else
                        tuple(rng.choice(names + ["Zed"]) for _ in range(rng.randrange(1, 4))) if kind < 4 else
                        tuple(rng.sample(names, rng.randrange(3, 6))))
            facts.append(Seen(audience=audience, n=n))
        viewers = [None, HOST, *rng.sample(names, rng.randrange(0, 6))]
        rng.shuffle(viewers)
        got = visible_by_viewer(facts, viewers)
        assert list(got) == viewers
        for v in viewers:
            assert got[v] == visible(facts, v), (trial, v)
