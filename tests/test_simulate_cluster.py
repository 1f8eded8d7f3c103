"""`simulate --cluster`: the same seed gives the same report on a Dask cluster as on this machine.

The cluster is a real Dask distributed scheduler with 4 workers, started by the test in this process
(processes=False: threads, so that starting it costs about a second; the scheduler, the workers, the
task hand-out and the results' way back are the same as across machines)."""
import pytest
from click.testing import CliRunner

from sheetbridge.cli import main
from sheetbridge.simulate import play_games, strategy
from sheetbridge.simulate import balance_report

distributed = pytest.importorskip("distributed", reason="install sheetbridge[cluster] (the test extra has it)")


@strategy("lowest-card-test", "three-modular-rooms")
def lowest_card(view, rng):
    """A strategy of the designer's own, to show the workers run whatever the seats play."""
    hand = view.form.section("play").fields[0].choices
    return {"play": [{"card": min(hand, key=int), "room": rng.choice(("Null", "Solitary", "Duel"))}]}


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=4, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as c:
        yield c


def test_the_same_seed_gives_the_same_report_on_a_cluster_of_4_workers(cluster):
    assert len(cluster.scheduler_info["workers"]) == 4
    args = dict(games=60, seed=11, strategies=["random", "lowest-card-test"], option_games=20,
                sweep="cards_consumed,announce_buyer")
    local = balance_report("three-modular-rooms", ["A", "B", "C"], workers=1, **args)
    remote = balance_report("three-modular-rooms", ["A", "B", "C"], cluster=cluster.scheduler_address, **args)
    assert remote.data.equals(local.data)
    assert remote.text() == local.text() and remote.to_json() == local.to_json()
    assert remote.verdict.options[0].option == "cards_consumed"
    other = play_games("three-modular-rooms", ["A", "B", "C"], 60, seed=12, cluster=cluster.scheduler_address)
    assert not other.equals(local.data)             # the seed decides the games, not the cluster


def test_the_command_on_a_cluster_prints_what_it_prints_locally(cluster):
    args = ["simulate", "three-modular-rooms", "--games", "24", "--players", "3", "--seed", "2", "--json"]
    local = CliRunner().invoke(main, [*args, "--workers", "1"])
    remote = CliRunner().invoke(main, [*args, "--cluster", cluster.scheduler_address])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout
    assert f"on the Dask cluster at {cluster.scheduler_address}" in remote.stderr


def test_an_unreachable_scheduler_is_one_line_saying_what_to_do(monkeypatch):
    monkeypatch.setattr("sheetbridge.simulate.cluster.CONNECT_TIMEOUT", "1s")
    res = CliRunner().invoke(main, ["simulate", "three-modular-rooms", "--games", "4",
                                    "--cluster", "tcp://127.0.0.1:9"])
    assert res.exit_code != 0 and "Traceback" not in res.output
    err = res.stderr.strip().splitlines()[-1]
    assert err.startswith("error: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'") and "dask scheduler" in err


def test_a_worker_holds_a_few_chunks_whatever_the_number_of_games(cluster):
    """Memory per worker stays flat: at no time does the scheduler hold more than two chunks per worker
    thread (in flight or finished and not yet read), however many chunks the games make."""
    held = []

    def tick(n):
        held.append(len(cluster.scheduler.tasks))
    df = play_games("three-modular-rooms", ["A", "B", "C"], 120, seed=4, cluster=cluster.scheduler_address,
                    progress=tick)
    assert len(df) == 120 and len(held) == 120           # chunks of 1 game (120 // (4 threads * 16))
    assert max(held) <= 4 * 2


@pytest.mark.fuzz
def test_the_same_report_on_4_worker_processes_over_a_thousand_games():
    """The larger version (pytest -m fuzz): worker processes, so every task and every row crosses a
    process boundary as it would between machines."""
    args = dict(games=1000, seed=21, option_games=100, sweep="announce_buyer,cards_consumed")
    players = [f"P{i + 1}" for i in range(9)]
    local = balance_report("three-modular-rooms", players, workers=2, **args)
    with distributed.LocalCluster(n_workers=4, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        remote = balance_report("three-modular-rooms", players, cluster=c.scheduler_address, **args)
    assert remote.to_json() == local.to_json() and remote.text() == local.text()
