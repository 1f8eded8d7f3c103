"""Simulated games on a Dask distributed cluster (`simulate --cluster ADDRESS`).

The games are cut into the same kind of seed ranges as on local processes and each range is one
task; every game is fixed by its own seed ("<seed>:<i>"), so the rows, and so the report, are the
same as a local run's with the same seed. Only a few tasks per worker thread are in flight at a
time and each result is let go as soon as it is read, so a worker holds a few chunks of rows
whatever the number of games (its memory stays flat: a million games are a longer queue, not a
bigger worker).

Needs ``pip install 'sheetbridge[cluster]'`` (Dask's ``distributed``), imported only here and only
when asked. The workers must have the same sheetbridge installed (and any plugin games or
strategies registered at import): a task names the function that plays a chunk, not its code.
"""
from __future__ import annotations

from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from ..core.errors import UsageError

# Tasks in flight per worker thread: enough that no thread waits for its next chunk, few enough
# that what a worker holds does not grow with the number of games.
IN_FLIGHT_PER_THREAD = 2
CONNECT_TIMEOUT = "20s"


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise UsageError("--cluster needs Dask distributed, which is not installed; "
                         "install it with: pip install 'sheetbridge[cluster]'") from None
    return distributed


@contextmanager
def connected(cluster: Any) -> Iterator[Any]:
    """A client of the scheduler at `cluster` (an address), closed afterwards; a client given is kept open."""
    if not isinstance(cluster, str):
        yield cluster
        return
    with cluster_threads(cluster) as (client, _):
        yield client


@contextmanager
def cluster_threads(address: Any) -> Iterator[tuple[Any, int]]:
    """A client of the scheduler at `address` (or the client given) and the worker threads it has now."""
    if not isinstance(address, str):
        yield address, max(1, sum(address.nthreads().values()))
        return
    distributed = _distributed()
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {address!r} ({e}); start one with "
                         "`dask scheduler` and workers with `dask worker ADDRESS`, then pass its "
                         "address, e.g. --cluster tcp://10.0.0.5:8786") from None
    try:
        threads = sum(client.nthreads().values())
        if threads == 0:
            raise UsageError(f"the Dask scheduler at {address} has no workers; start some with "
                             f"`dask worker {address}`")
        yield client, threads
    finally:
        client.close()


def play_chunks_on_cluster(client: Any, chunks: Sequence[tuple], play_chunk: Callable[[tuple], list[dict]],
                           progress: Callable[[int], None] | None = None) -> list[dict]:
    """Every chunk played on the cluster; the rows in chunk order, whatever order they finish in."""
    distributed = _distributed()
    threads = max(1, sum(client.nthreads().values()))
    results: list[list[dict] | None] = [None] * len(chunks)
    waiting = deque(range(len(chunks)))
    running = distributed.as_completed(loop=client.loop)
    index: dict[str, int] = {}

    def submit_next() -> None:
        i = waiting.popleft()
        fut = client.submit(play_chunk, chunks[i], pure=False)   # a fresh key each: nothing cached across runs
        index[fut.key] = i
        running.add(fut)

    for _ in range(min(len(chunks), threads * IN_FLIGHT_PER_THREAD)):
        submit_next()
    for fut in running:
        i = index.pop(fut.key)
        results[i] = fut.result()
        fut.release()        # the worker lets the rows go now that we hold them
        if progress:
            progress(len(chunks[i][2]))
        if waiting:
            submit_next()
    return [row for rows in results for row in rows or ()]
