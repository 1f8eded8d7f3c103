"""The OS lock on a game folder's lock file: taken at once or not at all, released by the OS if the
process dies (so a crash never leaves the game locked).

On POSIX it is ``fcntl.flock`` on the open file, which is what filelock does there; filelock itself
is used elsewhere (Windows). Why not filelock everywhere: since its 3.14 its import loads its
asyncio half, 14-20 ms of every command, about 5% of a whole 9-player `resolve` (issue 31). Two
locks of one process on the same file are two open files, so they exclude each other as two
processes do (with filelock too); re-entry within a thread is the caller's (``xlsx.py``).
"""
from __future__ import annotations

import errno
import os
from typing import Any

try:
    import fcntl
except ImportError:   # (Windows)
    fcntl = None  # type: ignore[assignment]


class LockHeld(Exception):
    """Another process (or another lock of this one) holds the file's lock."""


class FolderLock:
    """A held lock on `path` (created if missing): :meth:`release` it once."""

    def __init__(self, path: str, *, use_filelock: bool | None = None) -> None:
        """Take the lock now, or raise :class:`LockHeld`. `use_filelock`: force one way (tests);
        None: ``fcntl`` where there is one."""
        self._fd: int | None = None
        self._filelock: Any = None
        if use_filelock or fcntl is None or not self._flock(path):
            self._filelock = _take_with_filelock(path)

    def _flock(self, path: str) -> bool:
        """Take the lock with flock; False where the file system has no flock (some network mounts)."""
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LockHeld(path) from None
        except OSError as e:
            os.close(fd)
            if e.errno in (errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
                return False
            raise
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return True

    def release(self) -> None:
        if self._filelock is not None:
            self._filelock.release()
            self._filelock = None
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)


def _take_with_filelock(path: str) -> Any:
    from filelock import FileLock, Timeout
    lock = FileLock(path, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise LockHeld(path) from None
    return lock
