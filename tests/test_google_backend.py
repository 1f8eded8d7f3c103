"""The Google Sheets store against the offline fake Google, through the real gspread client.

Everything here is offline: the fake (tests/fake_google) serves Sheets v4 and Drive v3
through a requests transport adapter (or loopback HTTP on 127.0.0.1 for a CLI
subprocess) and checks every request against Google's discovery documents.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from gspread.exceptions import APIError

from sheetbridge.host import demo as host_demo
from sheetbridge.host.config import CONFIG_FILE
from sheetbridge.host.demo import demo, fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.status import status
from sheetbridge.host.undo import undo
from sheetbridge.core.errors import BackendError, ConfigError, WorkbookError
from sheetbridge.sheets import google as G
from sheetbridge.sheets import layout as L
from sheetbridge.host.private_pictures import PICTURE_BLOCK
from sheetbridge.sheets.google.pictures import PICTURE_MIME
from sheetbridge.sheets.model import CellData as C, TabData
from sheetbridge.sheets.store import BOARD, MASTER, player_key
from sheetbridge.sheets.xlsx import XlsxStore
from tests.conftest import players_for
from tests.fake_google import FakeGoogle, serve

HOST = "host@example.com"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fake():
    return FakeGoogle(seed=3)


@pytest.fixture
def store(fake):
    return fake.store(HOST)


def sample_tabs() -> dict[str, TabData]:
    return {
        "Submission": TabData(rows=[
            [C("Submission", bold=True, fill="1F3864", font="FFFFFF"), C("=1+1")],
            [C("Round"), C(3)],
            [C("Room"), C("", choices=("Null", "Red", "Blue"), input=True, fill="FFF2CC"),
             C("", choices=("Null", "Red", "Blue"), input=True)],
            [C("Note"), C("a long line that wraps", wrap=True), C(2.5), C(True), C(None), C("007")],
        ], frozen_rows=1, col_widths={0: 22, 1: 14}),
        "Results": TabData(rows=[[C("Your hand", bold=True)], [C("3 of Hearts")]], protected=True),
        "State": TabData(rows=[[C('{"round": 3}')]], hidden=True),
    }


def new_book(store, key="player:Ann", writer=None, reader=None, tabs=None):
    info = store.create(key, f"Test: {key}", tabs or sample_tabs(), reader_email=reader, writer_email=writer)
    return info, store.open(info.key, info.location)


# ------------------------------------------------------------------ round trips
def test_round_trip_values_formats_dropdowns_hidden_protection(fake, store):
    tabs = sample_tabs()
    info, book = new_book(store, writer="ann@example.com")
    got = book.read(list(tabs))
    assert got == {name: tab.values() for name, tab in tabs.items()}
    assert got["Submission"][0] == ["Submission", "=1+1"]            # the literal text, not 2
    assert got["Submission"][3] == ["Note", "a long line that wraps", "2.5", "TRUE", "", "007"]

    sid = info.location
    assert fake.cell(sid, "Submission", 0, 1)["userEnteredValue"] == {"stringValue": "=1+1"}
    assert fake.cell(sid, "Submission", 1, 1)["userEnteredValue"] == {"numberValue": 3}
    assert fake.cell(sid, "Submission", 3, 5)["userEnteredValue"] == {"stringValue": "007"}
    head = fake.cell(sid, "Submission", 0, 0)["userEnteredFormat"]
    assert head["textFormat"]["bold"] is True
    assert head["backgroundColor"] == {"red": round(0x1F / 255, 4), "green": round(0x38 / 255, 4),
                                       "blue": round(0x64 / 255, 4)}
    assert head["textFormat"]["foregroundColor"] == {"red": 1.0, "green": 1.0, "blue": 1.0}
    assert fake.cell(sid, "Submission", 3, 1)["userEnteredFormat"] == {"wrapStrategy": "WRAP"}
    for col in (1, 2):
        rule = fake.cell(sid, "Submission", 2, col)["dataValidation"]
        assert rule["condition"]["type"] == "ONE_OF_LIST"
        assert [v["userEnteredValue"] for v in rule["condition"]["values"]] == ["Null", "Red", "Blue"]
        assert rule["strict"] is True
    assert "dataValidation" not in fake.cell(sid, "Submission", 1, 1)
    sub = fake.sheet(sid, "Submission")
    assert sub.props["gridProperties"]["frozenRowCount"] == 1
    assert sub.col_px[0] == round(22 * 7 + 5) and sub.col_px[1] == round(14 * 7 + 5)
    assert sub.col_px[2] == G.DEFAULT_COL_PIXELS
    assert fake.sheet(sid, "State").props.get("hidden") is True
    assert not fake.sheet(sid, "Submission").props.get("hidden")
    (prot,) = fake.sheet(sid, "Results").protected
    assert prot["range"] == {"sheetId": fake.sheet(sid, "Results").id}
    assert prot["editors"]["users"] == [HOST] and prot["warningOnly"] is False
    assert not fake.sheet(sid, "Submission").protected
    assert [s.title for s in fake.files[sid].sheets] == ["Submission", "Results", "State"]  # no stray Sheet1


def test_rewrite_replaces_whole_tabs(fake, store):
    info, book = new_book(store)
    sid = info.location
    book.write({"Submission": TabData(rows=[[C("only")]]),
                "Results": TabData(rows=[[C("now public")]], protected=False),
                "State": TabData(rows=[[C("x")]], hidden=False)})
    assert book.read(["Submission", "Results", "State"]) == {
        "Submission": [["only"]], "Results": [["now public"]], "State": [["x"]]}
    sub = fake.sheet(sid, "Submission")
    assert set(sub.cells) == {(0, 0)}                      # old values, formats, dropdowns are gone
    assert "frozenRowCount" not in sub.props["gridProperties"]
    assert sub.col_px[0] == G.DEFAULT_COL_PIXELS
    assert fake.sheet(sid, "Results").protected == []
    assert not fake.sheet(sid, "State").props.get("hidden")
    # protect again, twice: one protected range, not two
    book.write({"Results": TabData(rows=[[C("a")]], protected=True)})
    book.write({"Results": TabData(rows=[[C("b")]], protected=True)})
    assert len(fake.sheet(sid, "Results").protected) == 1


def test_player_typed_formula_reads_back_as_its_text(fake, store):
    info, book = new_book(store, writer="ann@example.com")
    ann = fake.gspread_client("ann@example.com")
    ws = ann.open_by_key(info.location).worksheet("Submission")
    ws.update([["=SUM(1,2)"]], "B3", value_input_option="USER_ENTERED")
    assert fake.cell(info.location, "Submission", 2, 1)["userEnteredValue"] == {"formulaValue": "=SUM(1,2)"}
    assert book.read(["Submission"])["Submission"][2][1] == "=SUM(1,2)"


def test_missing_tab_names_the_book_and_tab(fake, store):
    info, book = new_book(store)
    with pytest.raises(WorkbookError, match=r"no tab named 'Ledger'.*Submission, Results, State"):
        book.read(["Submission", "Ledger"])
    fresh = fake.store(HOST).open(info.key, info.location)          # no cache: Google's 400 path
    with pytest.raises(WorkbookError, match=r"no tab named 'Ledger'"):
        fresh.read(["Ledger"])


# ------------------------------------------------------------------ costs
def test_one_batched_read_and_one_batched_write_per_book(fake, store):
    info, book = new_book(store)
    fake.reset_counts()
    book.read(["Submission", "Results", "State"])
    assert fake.count("read", info.location) == 1 and fake.count() == 1
    book.write({"Submission": TabData(rows=[[C("x", choices=("a", "b"))]]),
                "Results": TabData(rows=[[C("y")]], protected=True),
                "New tab": TabData(rows=[[C("z")]], protected=True, hidden=True)})
    assert fake.count("write", info.location) == 1 and fake.count() == 2
    assert fake.count("metadata") == 0
    assert book.read(["New tab"]) == {"New tab": [["z"]]}


def test_no_metadata_reads_once_the_cache_is_imported(fake, store):
    info, book = new_book(store)
    book.write({"Extra": TabData(rows=[[C(1)]], protected=True)})
    cache = json.loads(json.dumps(store.export_cache()))              # as stored in the master
    later = fake.store(HOST)
    later.import_cache(cache)
    fake.reset_counts()
    b = later.open(info.key, info.location)
    b.read(["Submission", "Results", "Extra"])
    b.write({"Results": TabData(rows=[[C("r2")]], protected=True),
             "Extra": TabData(rows=[[C(2)]], protected=True)})
    assert fake.count("metadata") == 0 and fake.count() == 2
    assert len(fake.sheet(info.location, "Results").protected) == 1
    assert len(fake.sheet(info.location, "Extra").protected) == 1
    # without the cache, the store reads the metadata once and carries on
    blind = fake.store(HOST)
    blind.open(info.key, info.location).write({"Results": TabData(rows=[[C("r3")]], protected=True)})
    assert fake.count("metadata") == 1
    assert len(fake.sheet(info.location, "Results").protected) == 1


def test_every_request_has_a_timeout(fake, store):
    info, book = new_book(store, writer="ann@example.com")
    book.read(["Results"])
    book.write({"Results": TabData(rows=[[C("x")]])})
    assert fake.log and all(entry.timeout == G.DEFAULT_TIMEOUT for entry in fake.log)


def test_requests_are_paced_under_the_per_minute_quota(fake, store):
    info, book = new_book(store)
    fake.reset_counts()
    for _ in range(130):
        book.read(["Results"])
    assert not fake.quota_hits                       # the fake's own 60-a-minute quota never tripped
    times = sorted(e.at for e in fake.log if e.kind == "read")
    assert len(times) == 130
    assert max(sum(1 for t in times if start <= t < start + 60) for start in times) <= G.PACE_PER_MINUTE
    assert store.pacer.waited >= 120


def test_the_fake_enforces_the_quota_when_nothing_paces(fake):
    raw = fake.store(HOST, per_minute=1000, attempts=1)
    info, book = new_book(raw)
    with pytest.raises(BackendError, match="429"):
        for _ in range(70):
            book.read(["Results"])
    assert fake.quota_hits


# ------------------------------------------------------------------ privacy
def test_permissions_each_player_book_names_only_that_player_and_the_host(fake, store):
    players = {"Ann": "ann@example.com", "Bo": "bo@example.com", "Cy": "cy@example.com"}
    books = {p: new_book(store, player_key(p), writer=e)[0].location for p, e in players.items()}
    board = store.create(BOARD, "board", {"Board": TabData(rows=[[C("public")]], protected=True)},
                         reader_email=",".join(players.values())).location
    master = store.create(MASTER, "master", {"Record": TabData(rows=[[C("secret record")]])}).location
    assert store.master_location() == master

    def perms(fid):
        return sorted((p.get("emailAddress"), p["role"], p["type"]) for p in store.permissions(fid))

    assert perms(master) == [(HOST, "owner", "user")]
    for p, e in players.items():
        assert perms(books[p]) == sorted([(HOST, "owner", "user"), (e, "writer", "user")])
        f = fake.files[books[p]]
        assert f.writers_can_share is False and f.copy_requires_writer is True
    assert perms(board) == sorted([(HOST, "owner", "user")] + [(e, "reader", "user") for e in players.values()])

    # Read as each player: their own book and the board, nothing else.
    for p, e in players.items():
        assert sorted(fake.readable_by(e)) == sorted([books[p], board])
        client = fake.gspread_client(e)
        assert client.open_by_key(books[p]).worksheet("Results").get_all_values() == [["Your hand"], ["3 of Hearts"]]
        for other in [master] + [books[q] for q in players if q != p]:
            with pytest.raises(APIError) as err:
                client.http_client.values_batch_get(other, ["'Results'"])
            assert err.value.code == 403
        # A writer cannot reshare, nor edit the protected Results tab; the form is theirs.
        with pytest.raises(APIError) as err:
            client.http_client.request("post", f"https://www.googleapis.com/drive/v3/files/{books[p]}/permissions",
                                       json={"type": "user", "role": "reader", "emailAddress": "eve@example.com"})
        assert err.value.code == 403
        ws = client.open_by_key(books[p])
        with pytest.raises(APIError) as err:
            ws.worksheet("Results").update([["hacked"]], "A1")
        assert err.value.code == 403
        ws.worksheet("Submission").update([["Red"]], "B3")
        with pytest.raises(APIError):    # the board is read-only for players
            client.open_by_key(board).worksheet("Board").update([["x"]], "A1")


def test_service_account_without_a_shared_drive_folder_cannot_create(fake):
    sa = fake.store("bot@proj.iam.gserviceaccount.com")
    with pytest.raises(BackendError, match="storage quota"):
        sa.create(MASTER, "m", {"A": TabData(rows=[[C(1)]])})


# ------------------------------------------------------------------ robustness
def test_injected_429_and_500_are_survived_with_identical_results(fake):
    clean_fake = FakeGoogle(seed=3)
    results = []
    for f, share in ((clean_fake, 0.0), (fake, 0.35)):
        if share:
            f.inject(share, statuses=(429, 500, 503), seed=11, retry_after=7)
        st = f.store(HOST)
        info, book = new_book(st, writer="ann@example.com")
        for i in range(6):
            book.write({"Results": TabData(rows=[[C(f"round {i}")]], protected=True),
                        f"Tab {i}": TabData(rows=[[C(i), C("=x")]])})
        results.append(book.read(["Submission", "Results"] + [f"Tab {i}" for i in range(6)]))
    assert results[0] == results[1]
    hits = fake.faults["hits"]
    assert hits[429] > 0 and hits[500] > 0
    assert 0 < len(fake.slept) <= sum(hits.values())     # one wait per retried answer


def test_retry_after_is_honoured(fake, store):
    info, book = new_book(store)
    fake.slept.clear()
    fake.inject(0.5, statuses=(429,), seed=2, retry_after=7)
    for i in range(10):
        book.read(["Results"])
    assert fake.faults["hits"][429] == len(fake.slept) > 0
    assert min(fake.slept) >= 7                           # never sooner than the server asked


def test_a_persistent_error_is_one_clear_line_and_bounded(fake, store):
    info, book = new_book(store)
    fake.fail_always(500, kinds=("write",))
    fake.reset_counts()
    with pytest.raises(BackendError) as err:
        book.write({"Results": TabData(rows=[[C("x")]])})
    msg = str(err.value)
    assert "\n" not in msg
    assert f"writing Results to the player:Ann spreadsheet ({info.location})" in msg
    assert "500" in msg and "run the same command again" in msg and "resumable" in msg
    assert fake.count("error:500") == G.DEFAULT_ATTEMPTS          # bounded, not endless
    assert sum(fake.slept) < G.DEFAULT_ATTEMPTS * G.MAX_WAIT
    fake.clear_faults()
    book.write({"Results": TabData(rows=[[C("x")]])})
    assert book.read(["Results"]) == {"Results": [["x"]]}


def test_a_write_that_landed_but_whose_answer_was_lost_is_completed(fake, store):
    """A new tab was added by a write whose answer never arrived: the retry sees
    'already exists', refreshes the ids once and completes the write."""
    info, book = new_book(store)
    book.write({"Later": TabData(rows=[[C("v1")]])})
    stale = fake.store(HOST)
    stale.import_cache({"books": {info.location: {"sheets": {"Submission": 1, "Results": 2, "State": 3}}}})
    stale.open(info.key, info.location).write({"Later": TabData(rows=[[C("v2")]])})
    assert book.read(["Later"]) == {"Later": [["v2"]]}
    assert [s.title for s in fake.files[info.location].sheets].count("Later") == 1


# ------------------------------------------------------------------ the validator can fail
@pytest.mark.parametrize("body, field", [
    ({"requests": [{"addSheet": {"properties": {"title": "x", "colour": "red"}}}]}, "requests[0].addSheet.properties.colour"),
    ({"requests": [{"updateDimensionProperties": {"range": {"sheetId": 1, "dimension": "SIDEWAYS"},
                                                  "properties": {"pixelSize": 10}, "fields": "pixelSize"}}]},
     "requests[0].updateDimensionProperties.range.dimension"),
    ({"requests": [{"updateCells": {"range": {"sheetId": "one"}, "fields": "userEnteredValue"}}]},
     "requests[0].updateCells.range.sheetId"),
    ({"requests": [{"updateCells": {"rows": {"values": []}, "fields": "*", "range": {"sheetId": 1}}}]},
     "requests[0].updateCells.rows"),
    ({"requests": [{"addSheet": {}, "deleteSheet": {"sheetId": 1}}]}, "requests[0]"),
    ({"requests": [{"updateCells": {"range": {"sheetId": 1}, "fields": "*", "rows": [{"values": [
        {"userEnteredValue": {"stringValue": "a", "numberValue": 1}}]}]}}]},
     "requests[0].updateCells.rows[0].values[0].userEnteredValue"),
])
def test_a_body_that_does_not_conform_to_the_discovery_document_gets_400(fake, store, body, field):
    info, _ = new_book(store)
    http = fake.gspread_client(HOST).http_client
    with pytest.raises(APIError) as err:
        http.batch_update(info.location, body)
    e = err.value.error
    assert err.value.code == 400 and e["status"] == "INVALID_ARGUMENT"
    violations = e["details"][0]["fieldViolations"]
    assert any(v["field"] == field for v in violations), violations


def test_query_parameters_and_drive_bodies_are_checked_too(fake, store):
    info, _ = new_book(store)
    http = fake.gspread_client(HOST).http_client
    with pytest.raises(APIError, match="TYPE_ENUM") as err:
        http.values_batch_get(info.location, ["Results"], params={"valueRenderOption": "FORMULAS"})
    assert err.value.code == 400
    with pytest.raises(APIError, match="Cannot bind query parameter"):
        http.values_batch_get(info.location, ["Results"], params={"renderOption": "FORMULA"})
    url = f"https://www.googleapis.com/drive/v3/files/{info.location}/permissions"
    with pytest.raises(APIError, match="Required field role") as err:
        http.request("post", url, json={"type": "user", "emailAddress": "x@example.com"})
    assert err.value.error["errors"][0]["domain"] == "global"
    # the conforming counterparts pass
    assert http.values_batch_get(info.location, ["Results"], params={"valueRenderOption": "FORMULA"})
    assert http.request("post", url, json={"type": "user", "role": "reader",
                                           "emailAddress": "x@example.com"}).ok


def test_every_request_the_store_sent_conformed(fake, store):
    info, book = new_book(store, writer="ann@example.com")
    book.write(sample_tabs())
    book.read(list(sample_tabs()))
    assert fake.log and all(e.status == 200 for e in fake.log)


# ------------------------------------------------------------------ config and credentials
def _service_account_file(tmp_path: Path) -> Path:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    example = json.loads((ROOT / "credentials.example.json").read_text())["service_account_key_file"]
    path = tmp_path / "sa.json"
    path.write_text(json.dumps({**example, "private_key": pem}))
    return path


def test_credentials_example_shows_both_kinds(tmp_path):
    example = json.loads((ROOT / "credentials.example.json").read_text())
    oauth = tmp_path / "client.json"
    oauth.write_text(json.dumps(example["oauth_client_secret_file"]))
    assert G.check_credentials_file(oauth) == "oauth"
    sa = tmp_path / "sa.json"
    sa.write_text(json.dumps(example["service_account_key_file"]))
    assert G.check_credentials_file(sa) == "service_account"
    with pytest.raises(ConfigError, match="neither an OAuth client secret"):
        G.check_credentials_file(ROOT / "credentials.example.json")


@pytest.mark.parametrize("content, message", [
    (None, "no OAuth client file at"),
    ("{not json", "not valid JSON"),
    ('{"installed": {"client_id": "x"}}', "lacks client_secret"),
    ('{"web": {"client_id": "x"}}', "Desktop app"),
    ('{"type": "service_account", "client_email": "a@b", "private_key": "nope", "token_uri": "t"}', "not a PEM key"),
])
def test_auth_explains_a_missing_or_malformed_file(tmp_path, content, message):
    path = tmp_path / "c.json"
    if content is not None:
        path.write_text(content)
    flag = "--service-account" if content and "service_account" in content else "--credentials"
    from sheetbridge.cli import auth
    res = CliRunner(env={G.CONFIG_DIR_ENV: str(tmp_path / "cfg")}).invoke(auth.command, [flag, str(path)])
    assert res.exit_code != 0
    assert message in res.output and "Traceback" not in res.output


def test_auth_with_a_service_account_records_it(tmp_path):
    from sheetbridge.cli import auth
    sa = _service_account_file(tmp_path)
    env = {G.CONFIG_DIR_ENV: str(tmp_path / "cfg")}
    res = CliRunner(env=env).invoke(auth.command, ["--service-account", str(sa)])
    assert res.exit_code == 0, res.output
    assert "sheetbridge@my-sheetbridge-project.iam.gserviceaccount.com" in res.output
    assert "cannot create files in a personal Drive" in res.output
    saved = json.loads((tmp_path / "cfg" / "google.json").read_text())
    assert saved["mode"] == "service_account" and saved["credentials"] == str(sa.resolve())
    creds = G.build_credentials("service_account", sa)
    assert set(creds.scopes) == set(G.SCOPES)


def test_open_google_store_without_credentials_says_how_to_fix(tmp_path, monkeypatch):
    monkeypatch.setenv(G.CONFIG_DIR_ENV, str(tmp_path))
    monkeypatch.delenv(G.TOKEN_ENV, raising=False)
    with pytest.raises(ConfigError, match="sheetbridge auth"):
        G.open_google_store({"master": "abc"})


# ------------------------------------------------------------------ loopback HTTP
def test_loopback_http_mode_serves_the_store_over_a_socket(tmp_path, monkeypatch):
    fake = FakeGoogle(seed=5, real_time=True)
    with serve(fake, idle=30, lifetime=120) as server:
        monkeypatch.setenv(G.API_BASE_ENV, server.url)
        monkeypatch.setenv(G.TOKEN_ENV, fake.token_for(HOST))
        monkeypatch.setenv(G.CONFIG_DIR_ENV, str(tmp_path))
        st = G.open_google_store({"mode": "oauth"})
        info, book = new_book(st, writer="ann@example.com")
        assert book.read(["Results"]) == {"Results": [["Your hand"], ["3 of Hearts"]]}
    assert fake.count("write", info.location) == 1 and fake.count("read", info.location) == 1


def test_the_cli_runs_as_a_subprocess_against_the_loopback_fake(tmp_path):
    fake = FakeGoogle(seed=6, real_time=True)
    game = "three-modular-rooms"
    names = players_for(game)
    plist = ", ".join(f"{n} <{n.lower()}@example.com>" for n in names)
    out = tmp_path / "game"
    with serve(fake, idle=60, lifetime=300) as server:
        env = {**os.environ, G.API_BASE_ENV: server.url, G.TOKEN_ENV: fake.token_for(HOST),
               G.CONFIG_DIR_ENV: str(tmp_path / "cfg"), "PYTHONPATH": str(ROOT)}

        def cli(*args):
            return subprocess.run([sys.executable, "-c", "from sheetbridge.cli import main; main()", *args],
                                  env=env, capture_output=True, text=True, timeout=240, cwd=tmp_path)

        res = cli("new", game, "--players", plist, "--out", str(out), "--google")
        assert res.returncode == 0, res.stderr + res.stdout
        cfg = json.loads((out / CONFIG_FILE).read_text())
        assert cfg["backend"] == "google" and cfg["master"] in fake.files
        assert (out / G.CACHE_FILE).exists()
        fake.reset_counts()
        res = cli("status", str(out))
        assert res.returncode == 0, res.stderr + res.stdout
        res = cli("resolve", str(out), "--allow-empty")
        assert res.returncode == 0, res.stderr + res.stdout
        assert fake.count("metadata") == 0 and fake.count("drive") == 0
    master = fake.files[cfg["master"]]
    assert [p["emailAddress"] for p in master.permissions] == [HOST]


# ------------------------------------------------------------------ whole games
def _players(game_id):
    return [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in players_for(game_id)]


def snapshot(store) -> dict:
    """Everything players and the host see, keyed by player name (not by file)."""
    ld = load(store)
    tabs = [L.tab_name(k) for k in ("submission", "results", "board")]
    out = {"master": {k: v for k, v in ld.master.read([L.tab_name(k) for k in
                                                        ("ledger", "board", "rounds", "log", "config")]).items()},
           "ledger": [r.as_list() for r in ld.match.ledger.rows]}
    for p in ld.match.players:
        out[p] = store.open(player_key(p), ld.locations[p]).read(tabs)
    if ld.board_location:
        out["board book"] = store.open(BOARD, ld.board_location).read([L.tab_name("board")])
    return out


def without_picture_block(snap: dict) -> dict:
    """A snapshot with each player's "Your picture" block (the Results tab's last) left out."""
    out = dict(snap)
    for key, tabs in snap.items():
        results = tabs.get(L.tab_name("results")) if isinstance(tabs, dict) else None
        at = next((i for i, row in enumerate(results or []) if row[:1] == [PICTURE_BLOCK]), None)
        if at is not None:
            out[key] = {**tabs, L.tab_name("results"): results[:at]}
    return out


def run_demo_on_fake(fake, game_id, folder, seed=7, monkeypatch=None, per_round=None):
    st = fake.store(HOST, game_folder=folder)
    st.game_id = game_id
    if monkeypatch is not None:
        real = host_demo.resolve

        def counted(store, **kw):
            start = len(fake.log)
            res = real(store, **kw)
            per_round.append(fake.log[start:])
            return res
        monkeypatch.setattr(host_demo, "resolve", counted)   # each round the demo resolves
    res = demo(game_id, st, seed=seed, folder=folder, players=_players(game_id))
    if monkeypatch is not None:
        monkeypatch.undo()
    return st, res


def test_a_whole_demo_game_matches_the_xlsx_run(game_id, tmp_path, monkeypatch):
    fake = FakeGoogle(seed=1)
    per_round: list = []
    gstore, gres = run_demo_on_fake(fake, game_id, tmp_path / "g", monkeypatch=monkeypatch, per_round=per_round)
    xstore = XlsxStore(tmp_path / "x")
    xres = demo(game_id, xstore, seed=7, folder=tmp_path / "x", players=_players(game_id))
    assert gres.rounds == xres.rounds and gres.rounds == len(per_round)
    assert gres.match.ledger.rows == xres.match.ledger.rows
    # Alike but for each player's picture: shown in the Results tab on xlsx, linked on Google (issue 27).
    assert without_picture_block(snapshot(gstore)) == without_picture_block(snapshot(xstore))
    pictures = {fid for fid, f in fake.files.items() if f.mime == PICTURE_MIME}

    n = len(gres.match.players)
    assert not fake.quota_hits
    for entries in per_round:                    # the bound, per resolved round
        ok = [e for e in entries if e.status == 200]
        assert len(ok) == len(entries)
        by_file: dict = {}
        for e in ok:
            by_file.setdefault(e.file, []).append(e.kind)
        master = gstore.master_location()
        for fid, kinds in by_file.items():
            if fid in pictures or fid == "-":    # players' picture files: found or made once, then an upload a round
                assert kinds.count("drive") <= (2 * n if fid == "-" else 3), (fid, kinds)
                continue
            # The master is read twice: at the start, and to compare-and-set its revision before the commit;
            # and the game lock (its Lock tab) costs 2 reads and 2 writes (see docs/google.md).
            assert kinds.count("read") <= (4 if fid == master else 1), (fid, kinds)
            assert kinds.count("write") <= (3 if fid == master else 1), (fid, kinds)
            assert set(kinds) <= {"read", "write"}, (fid, kinds)   # no metadata, no Drive
        assert sum(e.kind == "read" for e in ok) <= n + 5          # players, board, master twice, the lock
        assert sum(e.kind == "write" for e in ok) <= n + 4          # players, board, master, the lock

    # privacy: every player can open exactly their own file, the public board and their own picture's file
    ld = load(gstore)
    for p in _players(game_id):
        own = [ld.picture_files[p.name]] if p.name in ld.picture_files else []
        assert sorted(fake.readable_by(p.email)) == sorted([ld.locations[p.name], ld.board_location, *own])
        perms = fake.files[ld.locations[p.name]].permissions
        assert sorted(x["emailAddress"] for x in perms) == sorted([HOST, p.email])
    assert [x["emailAddress"] for x in fake.files[gstore.master_location()].permissions] == [HOST]


def test_a_reopened_game_costs_no_metadata_reads(tmp_path):
    game_id = "flickering-lights"
    fake = FakeGoogle(seed=2)
    folder = tmp_path / "g"
    st = fake.store(HOST, game_folder=folder)
    new_game(game_id, _players(game_id), st, seed=3, folder=folder)
    cfg = json.loads((folder / CONFIG_FILE).read_text())
    assert cfg["backend"] == "google" and cfg["host_email"] == HOST
    fake.reset_counts()
    again = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST),
                                clock=fake.clock, sleep=fake.sleep)
    again.game_id = game_id
    status(again)
    res = resolve(again, allow_empty=True)
    assert res.action == "resolved"
    assert fake.count("metadata") == 0 and fake.count("drive") == 0


def test_faults_during_a_whole_game_change_nothing(tmp_path):
    game_id = "flickering-lights"
    clean = FakeGoogle(seed=4)
    noisy = FakeGoogle(seed=4)
    noisy.inject(0.2, statuses=(429, 500), seed=9, retry_after=3)
    a, _ = run_demo_on_fake(clean, game_id, tmp_path / "a")
    b, _ = run_demo_on_fake(noisy, game_id, tmp_path / "b")
    assert sum(noisy.faults["hits"].values()) > 10
    assert snapshot(a) == snapshot(b)


def test_a_round_cut_off_while_publishing_is_completed_by_resolving_again(tmp_path):
    game_id = "flickering-lights"
    players = _players(game_id)
    stores = []
    for fake in (FakeGoogle(seed=8), FakeGoogle(seed=8)):
        st = fake.store(HOST, game_folder=tmp_path / str(len(stores)))
        st.game_id = game_id
        new_game(game_id, players, st, seed=5, folder=tmp_path / str(len(stores)))
        stores.append((fake, st))
    (fake_a, a), (fake_b, b) = stores
    resolve(a, allow_empty=True)                                     # the clean run
    cut = load(b).locations[players[-1].name]
    fake_b.fail_always(500, kinds=("write",), file=cut)                # the last player's file keeps failing
    with pytest.raises(BackendError, match="run the same command again"):
        resolve(b, allow_empty=True)
    fake_b.clear_faults()
    res = resolve(b, allow_empty=True)
    assert res.action == "published"
    assert snapshot(a) == snapshot(b)
    ledger = snapshot(b)["ledger"]
    assert len({tuple(r) for r in ledger}) == len(ledger)              # nothing booked twice


def test_the_record_in_the_master_alone_is_enough_cache(tmp_path):
    """Another computer (no local cache file): the ids kept in the master's Record tab suffice."""
    game_id = "flickering-lights"
    fake = FakeGoogle(seed=2)
    folder = tmp_path / "g"
    st = fake.store(HOST, game_folder=folder)
    new_game(game_id, _players(game_id), st, seed=3, folder=folder)
    cfg = json.loads((folder / CONFIG_FILE).read_text())

    def reopen():
        again = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST),
                                    clock=fake.clock, sleep=fake.sleep)
        again.game_id = game_id
        return again

    resolve(reopen(), allow_empty=True)               # round 1 writes a complete record
    (folder / G.CACHE_FILE).unlink()
    fake.reset_counts()
    res = resolve(reopen(), allow_empty=True)
    assert res.action == "resolved"
    assert fake.count("metadata") == 0 and fake.count("drive") == 0


def test_status_dry_run_resolve_and_undo_match_the_xlsx_game(tmp_path):
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    game_id = "three-modular-rooms"
    players = _players(game_id)
    fake = FakeGoogle(seed=12)
    gstore = fake.store(HOST, game_folder=tmp_path / "g")
    gstore.game_id = game_id
    xstore = XlsxStore(tmp_path / "x")
    seen = []
    for st, folder in ((gstore, tmp_path / "g"), (xstore, tmp_path / "x")):
        new_game(game_id, players, st, seed=21, folder=folder)
        log = []
        for round_ in range(2):
            ld = load(st)
            for p, raw in random_submissions(ld.match, Rng.from_seed(21, f"r{round_}"), 0.2).items():
                if raw is not None:
                    fill_submission(st, ld, p, raw)
            _, lines = status(st)
            log.append(lines)
            dry = resolve(st, dry_run=True, allow_empty=True)
            log.append((dry.action, dry.message))
            done = resolve(st, allow_empty=True)
            log.append((done.action, done.message, [r.as_list() for r in done.record.ledger]))
        undone = undo(st)
        log.append((undone.action, undone.message))
        seen.append((log, snapshot(st)))
    assert seen[0] == seen[1]


def test_the_fake_refuses_cells_over_googles_50000_characters(fake, store):
    info, book = new_book(store)
    sh = fake.gspread_client(HOST).open_by_key(info.location)
    with pytest.raises(APIError, match="50000 characters"):
        sh.worksheet("Results").update([["x" * 50001]], "A1", raw=True)
    # The store never sends such a cell: it shortens the value with a visible note.
    book.write({"Results": TabData(rows=[[C("x" * 50001)], [C("x" * 50000)]])})
    got = book.read(["Results"])["Results"]
    assert len(got[0][0]) == 50000 and got[0][0].endswith("x... [shortened: 50,001 characters]")
    assert got[1] == ["x" * 50000]


def test_a_tab_a_player_deleted_or_renamed_is_redrawn(fake, store):
    info, book = new_book(store, writer="ann@example.com")
    sh = fake.gspread_client("ann@example.com").open_by_key(info.location)
    sh.del_worksheet(sh.worksheet("Submission"))
    with pytest.raises(WorkbookError, match="no tab named 'Submission'"):
        book.read(["Submission", "Results"])
    book.write({"Submission": TabData(rows=[[C("form")]])})          # e.g. `sheetbridge repair`
    assert book.read(["Submission"]) == {"Submission": [["form"]]}
    sh = fake.gspread_client("ann@example.com").open_by_key(info.location)
    sh.worksheet("Submission").update_title("Mine now")
    book.write({"Submission": TabData(rows=[[C("form 2")]])})        # stale cache: the tab is renamed back
    assert sorted(s.title for s in fake.files[info.location].sheets) == ["Results", "State", "Submission"]
    assert book.read(["Submission"]) == {"Submission": [["form 2"]]}
