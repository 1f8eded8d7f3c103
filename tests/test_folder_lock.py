"""The OS lock on an offline game's folder (sheets/folder_lock.py): flock on POSIX, filelock where
there is none; either way it excludes the other, another process, and is freed when its holder dies."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sheetbridge.sheets import folder_lock
from sheetbridge.sheets.folder_lock import FolderLock, LockHeld

WAYS = [pytest.param(False, id="flock"), pytest.param(True, id="filelock")]
HOLD = ("import sys, time\n"
        "from sheetbridge.sheets.folder_lock import FolderLock\n"
        "lock = FolderLock(sys.argv[1], use_filelock=sys.argv[2] == '1')\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n")


@pytest.mark.parametrize("first", WAYS)
@pytest.mark.parametrize("second", WAYS)
def test_a_held_lock_refuses_another_until_released(tmp_path: Path, first: bool, second: bool) -> None:
    path = str(tmp_path / ".sheetbridge.lock")
    held = FolderLock(path, use_filelock=first)
    with pytest.raises(LockHeld):
        FolderLock(path, use_filelock=second)
    held.release()
    again = FolderLock(path, use_filelock=second)
    again.release()
    again.release()   # (a second release is nothing)


@pytest.mark.parametrize("way", WAYS)
def test_another_process_holding_it_refuses_us_and_its_death_frees_it(tmp_path: Path, way: bool) -> None:
    path = str(tmp_path / ".sheetbridge.lock")
    proc = subprocess.Popen([sys.executable, "-c", HOLD, path, "1" if way else "0"], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        with pytest.raises(LockHeld):
            FolderLock(path)
        with pytest.raises(LockHeld):
            FolderLock(path, use_filelock=True)
    finally:
        os.kill(proc.pid, signal.SIGKILL)   # a crash: no release, the OS frees the lock
        proc.wait()
    deadline = time.monotonic() + 5
    while True:
        try:
            FolderLock(path).release()
            break
        except LockHeld:
            assert time.monotonic() < deadline, "the lock of a killed process was not freed"
            time.sleep(0.05)


def test_a_file_system_without_flock_is_locked_by_filelock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import fcntl
    from types import SimpleNamespace

    def no_flock(fd: int, op: int) -> None:
        raise OSError(errno.ENOSYS, "flock not supported")
    # (folder_lock's own view of fcntl: filelock's, the real module, still has flock)
    monkeypatch.setattr(folder_lock, "fcntl", SimpleNamespace(flock=no_flock, LOCK_EX=fcntl.LOCK_EX,
                                                              LOCK_NB=fcntl.LOCK_NB, LOCK_UN=fcntl.LOCK_UN))
    path = str(tmp_path / ".sheetbridge.lock")
    lock = FolderLock(path)
    assert lock._filelock is not None and lock._fd is None
    with pytest.raises(LockHeld):
        FolderLock(path, use_filelock=True)
    lock.release()
    FolderLock(path, use_filelock=True).release()
