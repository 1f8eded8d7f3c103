"""Google Sheets under faults: whole games with half of all requests failing, resumable
creation without orphans, sharing last, the game lock, clear network errors.

Everything runs against the offline fake (tests/fake_google) on its virtual clock, so
retries' waits cost no time. Faults are seeded: the same run fails the same way.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Iterable

import pytest
from click.testing import CliRunner

from sheetbridge.host import status as host_status
from sheetbridge.host.config import CONFIG_FILE
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.record import read_record
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.cli import main
from sheetbridge.core.errors import BackendError, GameBusy
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.sheets import google as G
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.google import store as google_store
from sheetbridge.sheets.store import BOARD, MASTER, player_key
from sheetbridge.sheets.xlsx import XlsxStore
from tests.conftest import players_for
from tests.fake_google import FakeGoogle
from tests.fake_google.server import rendered

HOST = "host@example.com"
RECORD = L.tab_name("record")


def _players(game_id):
    return [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in players_for(game_id)]


# ------------------------------------------------------------------ helpers
def until_ok(fn, log: Counter, what: str, limit: int = 80):
    """Run a command again until it succeeds, as a host would after 'run the same command again'."""
    for _ in range(limit):
        try:
            return fn()
        except BackendError as exc:
            assert "\n" not in str(exc)
            log[what] += 1
    raise AssertionError(f"{what} still failing after {limit} runs")


def paced(fake: FakeGoogle, st):
    """Processes in a row share the host's quota: one pacer per fake (its clock only moves
    when someone waits, so separate pacers would crowd every request into one instant)."""
    if not hasattr(fake, "pacer"):
        fake.pacer = G.Pacer(clock=fake.clock, sleep=fake.sleep)
    st.pacer = st.http.pacer = fake.pacer
    return st


def creating(fake: FakeGoogle, folder: Path):
    """The store `sheetbridge new --google --out FOLDER` signs in with."""
    return paced(fake, fake.store(HOST, game_folder=folder))


def reopen(fake: FakeGoogle, folder: Path):
    """The store a new sheetbridge process opens from the game folder."""
    cfg = json.loads((folder / CONFIG_FILE).read_text())
    st = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST),
                             clock=fake.clock, sleep=fake.sleep)
    st.game_id = cfg["game"]
    return paced(fake, st)


def play(fake: FakeGoogle, game_id: str, folder: Path, seed=7, skip_chance=0.1) -> Counter:
    """host.demo.demo, command by command, each command run again until it succeeds,
    each in a fresh store (a new process). Returns how many runs failed, by command."""
    failed: Counter = Counter()
    players = _players(game_id)
    until_ok(lambda: new_game(game_id, players, creating(fake, folder), seed=seed, folder=folder,
                                name=f"{game_id}-demo-{seed}"), failed, "new")
    rng = Rng.from_seed(seed, "demo players")
    for _ in range(200):
        ld = until_ok(lambda: load(reopen(fake, folder)), failed, "load")
        if ld.match.finished:
            return failed
        subs = random_submissions(ld.match, rng, skip_chance)      # drawn once per round, as in demo
        for p, raw in subs.items():
            if raw is not None:
                until_ok(lambda: fill_submission(reopen(fake, folder), ld, p, raw), failed, "submit")
        # --round makes a re-run safe: it finishes this round's publication or does nothing,
        # never resolves the next round with nobody's submissions.
        until_ok(lambda: resolve(reopen(fake, folder), allow_empty=True, round_no=ld.match.round),
                 failed, "resolve")
    raise AssertionError("the game did not finish")


def tab_values(fake: FakeGoogle, fid: str) -> dict:
    """Every tab of a spreadsheet, as the values Google holds (formulas as their text)."""
    out = {}
    for sheet in fake.files[fid].sheets:
        rows: dict[int, dict[int, object]] = {}
        for (r, c), cell in sheet.cells.items():
            v = rendered(cell, "FORMULA")
            if v != "":
                rows.setdefault(r, {})[c] = v
        out[sheet.title] = [[rows[r].get(c, "") for c in range(max(rows[r]) + 1)] if r in rows else []
                            for r in range(max(rows, default=-1) + 1)]
    return out


def roles(fake: FakeGoogle, folder: Path) -> dict[str, str]:
    """role ("master", "board", "player:Ann") -> spreadsheet id, from the game's record."""
    ld = load(reopen(fake, folder))
    out = {MASTER: ld.master.location, BOARD: ld.board_location}
    out.update({player_key(p): loc for p, loc in ld.locations.items()})
    return out


def published(fake: FakeGoogle, folder: Path) -> dict:
    """Every tab of every spreadsheet of the game, keyed by role, with Google's ids (file ids,
    sheet ids, protected-range ids: they differ from run to run) replaced by role names or
    dropped: the record's id cache ("store") and the lock's owner row are not content."""
    ids = roles(fake, folder)
    by_id = {fid: role for role, fid in ids.items()}

    def anon(v):
        return by_id.get(v, v) if isinstance(v, str) else v

    out = {}
    for role, fid in ids.items():
        tabs = tab_values(fake, fid)
        tabs.pop("Lock", None)
        if RECORD in tabs:
            record = read_record([[str(c) for c in row] for row in tabs[RECORD]], RECORD).data
            record.pop("store", None)
            tabs[RECORD] = json.loads(json.dumps(record), object_hook=lambda d: {k: anon(v) for k, v in d.items()})
        out[role] = {title: [[anon(v) for v in row] for row in rows] if title != RECORD else rows
                     for title, rows in tabs.items()}
    return out


def check_sharing(fake: FakeGoogle, folder: Path, game_id: str, others: Iterable[str] = ()) -> None:
    """No orphan file (besides ``others``), nothing in the trash, and each file shared
    exactly as it should be."""
    ids = roles(fake, folder)
    players = _players(game_id)
    pictures = picture_files(fake, folder)   # each player's picture file (issue 27): one each, never two
    assert sorted(fake.files) == sorted([*ids.values(), *pictures.values(), *others]), "orphan files on Drive"
    assert not [f for f in fake.files.values() if f.trashed]

    def perms(fid):
        return sorted((p["emailAddress"], p["role"]) for p in fake.files[fid].permissions)

    assert perms(ids[MASTER]) == [(HOST, "owner")]
    for p in players:
        assert perms(ids[player_key(p.name)]) == sorted([(HOST, "owner"), (p.email, "writer")])
    assert perms(ids[BOARD]) == sorted([(HOST, "owner")] + [(p.email, "reader") for p in players])
    email = {p.name: p.email for p in players}
    for name, fid in pictures.items():
        assert perms(fid) == sorted([(HOST, "owner"), (email[name], "reader")])


def picture_files(fake: FakeGoogle, folder: Path) -> dict[str, str]:
    """player -> the Drive file of their own picture, from the game's record."""
    return dict(load(reopen(fake, folder)).picture_files)


def picture_contents(fake: FakeGoogle, folder: Path) -> dict[str, bytes]:
    return {p: fake.files[fid].content for p, fid in picture_files(fake, folder).items()}


# ------------------------------------------------------------------ whole games at 50% faults
@pytest.mark.parametrize("game_id", ["big-machine", "flickering-lights"])
def test_a_whole_game_at_half_the_requests_failing_ends_as_without_faults(game_id, tmp_path):
    clean = FakeGoogle(seed=4)
    assert not play(clean, game_id, tmp_path / "clean")
    noisy = FakeGoogle(seed=4)
    noisy.inject(0.5, statuses=(429, 500), seed=11, retry_after=1, after=0.5)
    failed = play(noisy, game_id, tmp_path / "noisy")
    hits = noisy.faults["hits"]
    assert hits[429] > 50 and hits[500] > 50 and hits["after"] > 50      # the faults really happened
    assert sum(failed.values()) > 0                                       # and some commands had to be run again
    noisy.clear_faults()

    assert published(noisy, tmp_path / "noisy") == published(clean, tmp_path / "clean")
    assert picture_contents(noisy, tmp_path / "noisy") == picture_contents(clean, tmp_path / "clean")
    ledger = load(reopen(noisy, tmp_path / "noisy")).match.ledger.rows
    assert len({r.key for r in ledger}) == len(ledger)                    # no ledger row booked twice
    check_sharing(noisy, tmp_path / "noisy", game_id)
    check_sharing(clean, tmp_path / "clean", game_id)
    for fake, folder in ((noisy, tmp_path / "noisy"), (clean, tmp_path / "clean")):
        assert _lock_row(fake, folder) == []                              # every command released the lock


def test_a_rerun_finishes_a_final_board_whose_write_failed(tmp_path):
    """The issue as reported: the last round's public board was never republished."""
    game_id = "flickering-lights"
    clean = FakeGoogle(seed=4)
    play(clean, game_id, tmp_path / "clean")
    fake = FakeGoogle(seed=4)
    folder = tmp_path / "cut"
    new_game(game_id, _players(game_id), creating(fake, folder), seed=7, folder=folder,
               name=f"{game_id}-demo-7")
    rng = Rng.from_seed(7, "demo players")
    board = load(reopen(fake, folder)).board_location
    while True:
        ld = load(reopen(fake, folder))
        if ld.match.finished:
            break
        for p, raw in random_submissions(ld.match, rng, 0.1).items():
            if raw is not None:
                fill_submission(reopen(fake, folder), ld, p, raw)
        last = resolve(reopen(fake, folder), dry_run=True, allow_empty=True).match.finished
        if last:
            fake.fail_always(500, kinds=("write",), file=board)
            with pytest.raises(BackendError, match="board"):
                resolve(reopen(fake, folder), allow_empty=True, round_no=ld.match.round)
            fake.clear_faults()
        resolve(reopen(fake, folder), allow_empty=True, round_no=ld.match.round)
    assert published(fake, folder)[BOARD] == published(clean, tmp_path / "clean")[BOARD]


# ------------------------------------------------------------------ resumable creation
def _fail_from_book(store, fake, n: int, **fault) -> list:
    """Make Google fail (``fault``, see FakeGoogle.fail_always) from the n-th book created on."""
    real = store.create
    calls: list = []

    def create(key, *args, **kwargs):
        if len(calls) == n:
            fake.fail_always(**fault)
        calls.append(key)
        return real(key, *args, **kwargs)
    store.create = create
    return calls


def _journal(folder: Path) -> dict:
    return json.loads((folder / ".sheetbridge-new.json").read_text())


def test_new_cut_off_part_way_is_finished_by_running_it_again(tmp_path):
    game_id = "flickering-lights"
    players = _players(game_id)
    fake = FakeGoogle(seed=5)
    folder = tmp_path / "g"
    st = creating(fake, folder)
    _fail_from_book(st, fake, 3, status=500, kinds=("write",))      # the 4th book's content write keeps failing
    with pytest.raises(BackendError, match=r"player:Dee.*run the same `new` command again"):
        new_game(game_id, players, st, folder=folder)
    # Four spreadsheets exist, every one recorded, none shared with anybody yet.
    assert len(fake.files) == 4
    journal = _journal(folder)
    recorded = {k: e["id"] for k, e in journal["books"].items()}
    assert sorted(recorded.values()) == sorted(fake.files)
    assert [k for k, e in journal["books"].items() if e["written"]] == [player_key(p.name) for p in players[:3]]
    assert all(len(f.permissions) == 1 for f in fake.files.values())          # the owner only
    assert not (folder / CONFIG_FILE).exists()
    seed = journal["seed"]

    fake.clear_faults()
    fake.reset_counts()
    lines: list[str] = []
    res = new_game(game_id, players, creating(fake, folder), folder=folder, progress=lines.append)
    assert res.seed == seed                                    # the seed the first run drew
    assert res.resumed == [player_key(p.name) for p in players[:4]]
    assert sum("reused" in line for line in lines) == 4
    for p in players[:4]:
        assert res.files[p.name] == recorded[player_key(p.name)]
    # The three books already written are not touched again (only shared); Dee's is written.
    for p in players[:3]:
        fid = recorded[player_key(p.name)]
        assert fake.count(file=fid) == fake.count("drive", fid) == 2      # who has it? + the invitation
    assert fake.count("write", recorded[player_key("Dee")]) == 1
    assert not (folder / ".sheetbridge-new.json").exists()
    assert json.loads((folder / CONFIG_FILE).read_text())["files"][player_key("Ann")] == res.files["Ann"]
    check_sharing(fake, folder, game_id)
    assert all(n == 1 for n in fake.invitations.values())
    assert load(reopen(fake, folder)).match.seed == seed


def test_a_failure_while_sharing_is_finished_without_inviting_anyone_twice(tmp_path):
    game_id = "flickering-lights"
    players = _players(game_id)
    fake = FakeGoogle(seed=6)
    folder = tmp_path / "g"
    st = creating(fake, folder)
    real_share = st.share
    shared: list = []

    def share(info, *args, **kwargs):
        if len(shared) == 2:     # the third invitation reaches Google, its answer never comes back
            fake.fail_always(500, kinds=("drive",), after=True,
                             methods=("drive.permissions.create", "drive.permissions.list"))
        shared.append(info.key)
        return real_share(info, *args, **kwargs)
    st.share = share
    with pytest.raises(BackendError, match="sharing the player:Cy spreadsheet"):
        new_game(game_id, players, st, seed=3, folder=folder)
    assert len(fake.files) == len(players) + 2                      # the whole game existed before sharing began
    assert sum(fake.invitations.values()) == 3 and not (folder / CONFIG_FILE).exists()
    fake.clear_faults()
    new_game(game_id, players, creating(fake, folder), seed=3, folder=folder)
    check_sharing(fake, folder, game_id)
    assert set(fake.invitations.values()) == {1}                    # Ann, Bo and Cy were not invited again
    assert len(fake.invitations) == len(players) * 2                # own file + the public board each


def test_a_create_whose_answer_is_lost_leaves_no_second_spreadsheet(tmp_path):
    game_id = "flickering-lights"
    fake = FakeGoogle(seed=7)
    fake.fail_always(500, kinds=("drive",), after=True, methods=("drive.files.create",))
    folder = tmp_path / "g"
    res = new_game(game_id, _players(game_id), creating(fake, folder), seed=3, folder=folder)
    assert len(fake.files) == len(_players(game_id)) + 2 and sorted(fake.live_files()) == sorted(fake.files)
    assert fake.count("error:500") == len(fake.files)               # every create's answer was lost, once
    fake.clear_faults()
    check_sharing(fake, folder, game_id)
    assert res.trashed == []


def test_a_rerun_with_a_player_less_trashes_that_players_unshared_file(tmp_path):
    game_id = "three-modular-rooms"
    players = _players(game_id)
    fake = FakeGoogle(seed=8)
    folder = tmp_path / "g"
    st = creating(fake, folder)
    _fail_from_book(st, fake, len(players), status=500, kinds=("write",))     # players written; the board fails
    with pytest.raises(BackendError):
        new_game(game_id, players, st, seed=3, folder=folder)
    dropped = _journal(folder)["books"][player_key(players[-1].name)]["id"]
    fake.clear_faults()
    res = new_game(game_id, players[:-1], creating(fake, folder), seed=3, folder=folder)
    assert res.trashed == [f"'Three Modular Rooms: {players[-1].name}' ({dropped})"]
    assert fake.files[dropped].trashed and fake.files[dropped].permissions[0]["role"] == "owner"
    assert len(fake.files[dropped].permissions) == 1                 # never shared
    del fake.files[dropped]
    assert sorted(fake.files) == sorted(roles(fake, folder).values())
    assert res.resumed == [player_key(p.name) for p in players[:-1]] + [BOARD]   # its write had failed


# ------------------------------------------------------------------ the game lock
def _game_for_locks(tmp_path, seed=9):
    fake = FakeGoogle(seed=seed)
    folder = tmp_path / "g"
    new_game("three-modular-rooms", _players("three-modular-rooms"), creating(fake, folder), seed=1, folder=folder)
    return fake, folder


def _contender(fake, folder, name: str, pid: int):
    """A store standing for another sheetbridge process (its own owner token, pid and host)."""
    st = reopen(fake, folder)
    st.wall_clock = fake.wall_clock
    st.lock_owner, st.lock_pid, st.lock_host = f"{name}-token", pid, f"host-{name}"
    return st


def _lock_row(fake, folder) -> list:
    master = json.loads((folder / CONFIG_FILE).read_text())["master"]
    return tab_values(fake, master).get(G.LOCK_TAB, [])[1:2]


def test_two_runs_that_both_saw_the_lock_free_the_later_claim_wins(tmp_path):
    fake, folder = _game_for_locks(tmp_path)
    a = G.GameLock(_contender(fake, folder, "a", 4411), "resolve")
    b = G.GameLock(_contender(fake, folder, "b", 4412), "undo")
    a.peek()
    b.peek()                       # both see it free
    a.claim()
    b.claim()                      # b writes last
    with pytest.raises(GameBusy) as err:
        a.confirm()
    assert str(err.value) == ("another sheetbridge is working on this game (undo since 12:00 UTC, pid 4412 on "
                              "host-b); try again when it ends (a lock left by a run that died expires at 12:15 UTC)")
    b.confirm()                    # b holds it
    assert _lock_row(fake, folder)[0][:4] == ["b-token", "undo", "4412", "host-b"]


def test_a_run_that_claims_after_the_holder_confirmed_is_refused_at_once(tmp_path):
    fake, folder = _game_for_locks(tmp_path)
    a = _contender(fake, folder, "a", 4411)
    b = _contender(fake, folder, "b", 4412)
    fake.sleep(3 * 60)                                   # 12:03 UTC
    with a.lock("resolve"):
        fake.reset_counts()
        with pytest.raises(GameBusy, match=r"\(resolve since 12:03 UTC, pid 4411 on host-a\); try again when it "
                                           r"ends \(a lock left by a run that died expires at 12:18 UTC\)"):
            with b.lock("status"):
                raise AssertionError("b must not run")
        assert fake.count() == 1 and fake.count("read") == 1      # refused after one read, nothing written
        assert _lock_row(fake, folder)[0][:2] == ["a-token", "resolve"]
    assert _lock_row(fake, folder) == []                          # released
    with b.lock("status"):
        assert _lock_row(fake, folder)[0][:2] == ["b-token", "status"]


def test_an_expired_lock_is_taken_over_and_its_late_release_leaves_the_new_holder_alone(tmp_path):
    fake, folder = _game_for_locks(tmp_path)
    a = G.GameLock(_contender(fake, folder, "a", 4411), "resolve")
    b_store = _contender(fake, folder, "b", 4412)
    a.acquire()
    assert a.expires == fake.wall_clock() - G.LOCK_SETTLE + G.LOCK_TTL
    fake.sleep(a.expires - fake.wall_clock() - 1)
    with pytest.raises(GameBusy):
        G.GameLock(b_store, "undo").acquire()           # one second before it expires: still held
    fake.sleep(2)
    b = G.GameLock(b_store, "undo")
    b.acquire()                                         # expired: taken over
    a.release()                                         # a comes back late: it must not clear b's row
    assert _lock_row(fake, folder)[0][:2] == ["b-token", "undo"]
    b.release()
    assert _lock_row(fake, folder) == []


@pytest.mark.skipif(os.name != "posix", reason="whether a pid still runs is only checked on POSIX")
def test_a_lock_held_by_a_process_of_this_computer_that_is_gone_is_taken_over(tmp_path):
    import socket
    import subprocess
    import sys
    fake, folder = _game_for_locks(tmp_path)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    dead = _contender(fake, folder, "dead", int(gone.stdout))
    dead.lock_host = socket.gethostname()
    G.GameLock(dead, "resolve").acquire()               # and the process dies without releasing
    me = _contender(fake, folder, "me", os.getpid())
    me.lock_host = socket.gethostname()
    with me.lock("resolve"):
        assert _lock_row(fake, folder)[0][0] == "me-token"
    alive = _contender(fake, folder, "alive", os.getpid())          # this very process: it runs
    alive.lock_host = socket.gethostname()
    G.GameLock(alive, "resolve").acquire()
    with pytest.raises(GameBusy, match=f"pid {os.getpid()} on {socket.gethostname()}"):
        with me.lock("resolve"):
            pass


def test_the_lock_is_reentrant_released_on_error_and_costs_what_the_docs_say(tmp_path):
    fake, folder = _game_for_locks(tmp_path)
    a = _contender(fake, folder, "a", 4411)
    b = _contender(fake, folder, "b", 4412)
    (folder / G.CACHE_FILE).unlink()                    # another computer: no sheet ids known, none needed
    fake.reset_counts()
    with pytest.raises(ValueError):
        with a.lock("resolve"):
            taken = Counter(e.kind for e in fake.log)
            with a.lock("resolve"):                     # re-entrant: no request at all
                assert Counter(e.kind for e in fake.log) == taken
            raise ValueError("a bug in the middle of a command")
    assert taken == Counter(read=1, write=1)            # peek, claim (the read-back comes later: LockRides)
    # + the read-back (this command read nothing of the master to carry it, so at the release) and the release
    assert Counter(e.kind for e in fake.log) == Counter(read=2, write=2)
    assert sum(fake.slept) >= G.LOCK_SETTLE
    with b.lock("resolve"):                             # released despite the error
        pass


def test_a_master_made_before_the_lock_tab_existed_gets_one(tmp_path):
    fake, folder = _game_for_locks(tmp_path)
    master = json.loads((folder / CONFIG_FILE).read_text())["master"]
    sheets = fake.files[master].sheets
    lock_tab = next(t for t in sheets if t.title == G.LOCK_TAB)
    assert lock_tab.props.get("hidden") is True
    sheets.remove(lock_tab)                              # as an older sheetbridge created it
    a = _contender(fake, folder, "a", 4411)
    with a.lock("resolve"):
        assert _lock_row(fake, folder)[0][:2] == ["a-token", "resolve"]
        assert fake.sheet(master, G.LOCK_TAB).props.get("hidden") is True
    assert _lock_row(fake, folder) == []
    res = host_status.status(a)                                    # and the game itself is untouched
    assert len(res[1]) == len(_players("three-modular-rooms"))


def test_before_the_master_exists_the_folder_lock_stands_in(tmp_path):
    """`new --google` has no master to keep a Lock tab in yet: the game folder's file lock
    (the one xlsx games use) keeps a second `new` into the same folder out."""
    import subprocess
    import sys
    fake = FakeGoogle(seed=3)
    folder = tmp_path / "g"
    other = ("import sys, requests\n"
             "from sheetbridge.core.errors import GameBusy\n"
             "from sheetbridge.sheets.google import GoogleStore\n"
             "st = GoogleStore(session=requests.Session(), game_folder=sys.argv[1])\n"
             "try:\n"
             "    with st.lock('new'):\n"
             "        print('ran')\n"
             "except GameBusy as e:\n"
             "    print(e)\n")
    root = Path(__file__).resolve().parent.parent
    with creating(fake, folder).lock("new"):
        out = subprocess.run([sys.executable, "-c", other, str(folder)], capture_output=True, text=True,
                             timeout=60, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
        assert out.stdout.startswith("another sheetbridge is working on this game (new since "), out.stderr
    out = subprocess.run([sys.executable, "-c", other, str(folder)], capture_output=True, text=True,
                         timeout=60, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    assert out.stdout == "ran\n", out.stderr


# ------------------------------------------------------------------ seeds, --force, the CLI
def cli(*args, env=None):
    return CliRunner(env=env).invoke(main, [str(a) for a in args], prog_name="sheetbridge")


def test_games_created_without_a_seed_differ_and_the_printed_seed_replays_one(tmp_path):
    plist = "Ann,Bo,Cy,Dee,Eli,Fay,Gus"
    a = cli("new", "flickering-lights", "--players", plist, "--out", tmp_path / "a")
    b = cli("new", "flickering-lights", "--players", plist, "--out", tmp_path / "b")
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    seeds = []
    for folder, res in ((tmp_path / "a", a), (tmp_path / "b", b)):
        ld = load(XlsxStore(folder))
        assert f"(seed {ld.match.seed}: `--seed {ld.match.seed}` replays it exactly)" in res.output
        config = ld.master.read([L.tab_name("config")])[L.tab_name("config")]
        assert ["seed", str(ld.match.seed), "every round's random draws derive from it"] in config
        assert ld.match.name == f"flickering-lights-{ld.match.seed}"           # the ledger's game id
        seeds.append(ld.match.seed)
    assert seeds[0] != seeds[1] and all(len(str(s)) == 12 for s in seeds)
    again = cli("new", "flickering-lights", "--players", plist, "--out", tmp_path / "c", "--seed", seeds[0])
    assert again.exit_code == 0
    for tab in (L.tab_name("record"), L.tab_name("board")):
        assert (XlsxStore(tmp_path / "a").open(MASTER, "master.xlsx").read([tab])
                == XlsxStore(tmp_path / "c").open(MASTER, "master.xlsx").read([tab]))
    assert new_game("skeld", _players("skeld"), XlsxStore(tmp_path / "d")).seed != \
        new_game("skeld", _players("skeld"), XlsxStore(tmp_path / "e")).seed          # the API: None = fresh


def test_new_force_over_an_xlsx_game_deletes_the_old_files_it_does_not_overwrite(tmp_path):
    out = tmp_path / "g"
    assert cli("new", "three-modular-rooms", "--players", "Ann,Bo,Cy,Zed", "--out", out, "--seed", 1).exit_code == 0
    (out / "notes.txt").write_text("the host's own file")
    refused = cli("new", "three-modular-rooms", "--players", "Ann,Bo", "--out", out)
    assert refused.exit_code == 2 and refused.output.startswith("error: ") and "--force" in refused.output
    res = cli("new", "three-modular-rooms", "--players", "Ann,Bo", "--out", out, "--force")
    assert res.exit_code == 0, res.output
    assert ("Replaced the old game: deleted its files the new game does not use: players/Cy.xlsx, "
            "players/Zed.xlsx.") in res.output
    assert sorted(p.name for p in (out / "players").iterdir()) == ["Ann.xlsx", "Bo.xlsx"]
    assert (out / "notes.txt").exists()                                 # not the game's: left alone
    assert load(XlsxStore(out)).match.players == ["Ann", "Bo"]
    same = cli("new", "three-modular-rooms", "--players", "Ann,Bo", "--out", out, "--force")
    assert "Replaced the old game: the new one overwrote all its files." in same.output


def test_new_force_over_a_google_game_lists_its_spreadsheets_and_deletes_none(tmp_path):
    game_id = "flickering-lights"
    fake = FakeGoogle(seed=12)
    folder = tmp_path / "g"
    new_game(game_id, _players(game_id), creating(fake, folder), seed=1, folder=folder)
    old = roles(fake, folder)
    config = json.loads((folder / CONFIG_FILE).read_text())
    del config["files"]                       # a game made before the config listed its files: read the record
    (folder / CONFIG_FILE).write_text(json.dumps(config))
    res = new_game(game_id, _players(game_id), creating(fake, folder), seed=2, folder=folder)
    assert res.replaced == old and res.removed == [] and res.replaced_note == ""
    assert len(fake.live_files()) == 2 * len(old)                      # nothing deleted, nothing trashed
    check_sharing(fake, folder, game_id, others=old.values())          # the new game is shared as it should be
    ann = fake.files[old[player_key("Ann")]]
    assert not ann.trashed and ann.role("ann@example.com") == "writer"  # the old game: untouched


def _closed_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_without_network_every_command_says_so_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setattr(google_store, "DEFAULT_ATTEMPTS", 2)   # what GoogleStore() falls back on
    env = {G.API_BASE_ENV: f"http://127.0.0.1:{_closed_port()}", G.TOKEN_ENV: "fake-token:host@example.com",
           G.CONFIG_DIR_ENV: str(tmp_path / "cfg")}
    res = cli("new", "skeld", "--players", "Ann <a@x.org>, Bo <b@x.org>, Cy <c@x.org>, Dee <d@x.org>",
              "--out", tmp_path / "g", "--google", env=env)
    assert res.exit_code == 2, res.output
    assert res.output.startswith("error: cannot reach Google (no network?): creating the player:Ann spreadsheet")
    assert "ConnectionError" in res.output and "Traceback" not in res.output and res.output.count("\n") == 1
    assert "run the same `new` command again" in res.output
    (tmp_path / "h").mkdir()
    (tmp_path / "h" / CONFIG_FILE).write_text(json.dumps({"backend": "google", "game": "skeld", "master": "1abc"}))
    for command in ("status", "resolve", "undo", "repair"):
        res = cli(command, tmp_path / "h", env=env)
        assert res.exit_code == 2 and res.output.startswith("error: cannot reach Google (no network?): "), res.output
        assert res.output.count("\n") == 1


def _expired_sign_in(tmp_path) -> Path:
    token = tmp_path / "token.json"
    token.write_text(json.dumps({"token": "old", "refresh_token": "r", "client_id": "c", "client_secret": "s",
                                 "token_uri": f"http://127.0.0.1:{_closed_port()}/token",
                                 "scopes": list(G.SCOPES), "expiry": "2020-01-01T00:00:00Z"}))
    return token


def test_refreshing_the_sign_in_without_network_says_so(tmp_path):
    with pytest.raises(G.GoogleUnreachable, match=r"^cannot reach Google \(no network\?\): refreshing the Google "
                                                  r"sign-in failed"):
        G.build_credentials("oauth", tmp_path / "client.json", _expired_sign_in(tmp_path), interactive=False)
    (tmp_path / "h").mkdir()
    (tmp_path / "h" / CONFIG_FILE).write_text(json.dumps(
        {"backend": "google", "game": "skeld", "master": "1abc", "mode": "oauth",
         "token": str(_expired_sign_in(tmp_path))}))
    res = cli("status", tmp_path / "h", env={G.CONFIG_DIR_ENV: str(tmp_path / "cfg"), G.API_BASE_ENV: None,
                                             G.TOKEN_ENV: None})
    assert res.exit_code == 2 and res.output.startswith("error: cannot reach Google (no network?): "), res.output


def test_an_escaped_transport_error_is_one_line_too(tmp_path, monkeypatch):
    from google.auth.exceptions import TransportError
    from sheetbridge.cli import status

    def offline(folder):
        raise TransportError("HTTPSConnectionPool(host='oauth2.googleapis.com'): Max retries exceeded")
    monkeypatch.setattr(status, "open_store", offline)
    res = cli("status", tmp_path)
    assert res.exit_code == 2
    assert res.output == ("error: cannot reach Google (no network?): TransportError: HTTPSConnectionPool(host="
                          "'oauth2.googleapis.com'): Max retries exceeded; run the same command again when online\n")


def test_auth_uses_the_same_error_convention_as_every_command(tmp_path):
    env = {G.CONFIG_DIR_ENV: str(tmp_path / "cfg")}
    for runner_args in ((main, ["auth", "--credentials", str(tmp_path / "none.json")]),):
        res = CliRunner(env=env).invoke(*runner_args, prog_name="sheetbridge")
        assert res.exit_code == 2 and res.output.startswith("error: no OAuth client file at "), res.output
    from sheetbridge.cli import auth
    res = CliRunner(env=env).invoke(auth.command, ["--credentials", str(tmp_path / "none.json")])
    assert res.exit_code == 2 and res.output.startswith("error: no OAuth client file at ")
    res = cli("new", "skeld", "--out", tmp_path / "x")                   # click's own usage errors too
    assert res.exit_code == 2 and res.output == ("error: Missing option '--players'. "
                                                 "(see `sheetbridge new --help`)\n"), res.output


def test_new_google_force_says_which_spreadsheets_belonged_to_the_replaced_game(tmp_path, monkeypatch):
    from tests.fake_google import serve
    fake = FakeGoogle(seed=13, real_time=True)
    out = tmp_path / "g"
    plist = ", ".join(f"{n} <{n.lower()}@example.com>" for n in players_for("skeld"))
    with serve(fake, idle=30, lifetime=120) as server:
        env = {G.API_BASE_ENV: server.url, G.TOKEN_ENV: fake.token_for(HOST), G.CONFIG_DIR_ENV: str(tmp_path / "cfg")}
        first = cli("new", "skeld", "--players", plist, "--out", out, "--google", env=env)
        assert first.exit_code == 0, first.output
        assert "(seed " in first.output and "shared with that player only" in first.output
        old = json.loads((out / CONFIG_FILE).read_text())["files"]
        res = cli("new", "skeld", "--players", plist, "--out", out, "--google", "--force", env=env)
    assert res.exit_code == 0, res.output
    assert "The replaced game's 6 Google spreadsheet(s) were NOT deleted and are still shared as before: " in res.output
    for key, sid in old.items():
        assert f"https://docs.google.com/spreadsheets/d/{sid}" in res.output and not fake.files[sid].trashed
    assert "the board https://docs.google.com/spreadsheets/d/" + old[BOARD] in res.output
    assert "Ann's file https://docs.google.com/spreadsheets/d/" + old[player_key("Ann")] in res.output
    assert len(fake.files) == 12
