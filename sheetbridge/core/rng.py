"""A small seeded random number generator whose whole state is one integer.

Why not :mod:`random`? Game modules must be pure, their state must round-trip
through JSON, and results must not change when Python's ``random`` changes its
algorithms. SplitMix64 is tiny, fast, well studied and fully specified here.

>>> rng = Rng.from_seed("demo", 1)
>>> rng.randint(1, 6) == Rng.from_seed("demo", 1).randint(1, 6)
True
"""
from __future__ import annotations

import hashlib
from typing import Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN, _MIX1, _MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_TWO64 = 1 << 64
_FLOAT_STEPS = float(1 << 53)
_JUMP = (_GOLDEN << 40) & _MASK   # the state's move over 2**40 draws
_LIMITS_UP_TO = 1024
_LIMITS = [0] + [_TWO64 - _TWO64 % n for n in range(1, _LIMITS_UP_TO)]   # below(n) draws again at or above these


def derive_seed(*parts: object) -> int:
    """A 64-bit seed derived from any parts (game seed, round number, purpose)."""
    text = "\x1f".join(map(str, parts)).encode("utf-8")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


class Rng:
    """SplitMix64. ``state`` is a plain int, so it can live in game state."""

    __slots__ = ("state", "draws")

    def __init__(self, state: int) -> None:
        self.state = state & _MASK
        self.draws = 0

    @classmethod
    def from_seed(cls, *parts: object) -> "Rng":
        return cls(derive_seed(*parts))

    def next_u64(self) -> int:
        self.draws += 1
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    # Every draw goes through next_u64. Issue 26.6 retired the four copies of its three lines that
    # below, random, choice and shuffled held: they saved under 3% of a simulated game even where it
    # draws most (benchmarks/simulate_speed.py --instructions: Flickering Lights 59.7 M instructions
    # a game with one step against 58.3 M with the copies, 2.4%; Bugcatcher 67.7 M against 67.3 M).
    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0 or n > _TWO64:
            raise ValueError(f"below() needs 0 < n <= 2**64, not {n}")
        limit = _LIMITS[n] if n < _LIMITS_UP_TO else _TWO64 - _TWO64 % n   # a draw at or above is drawn again
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        """Uniform float in [0, 1)."""
        return (self.next_u64() >> 11) / _FLOAT_STEPS

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list in random order (Fisher-Yates); the input is untouched."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`k` items in random order: the first `k` of :meth:`shuffled` (a draw for every item)."""
        return self.shuffled(items)[:k]

    def pick(self, items: Sequence[T], k: int) -> list[T]:
        """`k` distinct items (all of them if fewer) in random order, with `k` draws: the first `k`
        steps of a Fisher-Yates shuffle. Not the same items as :meth:`sample`, which draws for
        every item; for new code that takes a few of many.

        >>> Rng(5).pick("abcdef", 3) == Rng(5).pick("abcdef", 3)
        True
        >>> sorted(Rng(5).pick("abc", 9))
        ['a', 'b', 'c']
        """
        out = list(items)
        n = len(out)
        for i in range(min(k, n)):
            j = i + self.below(n - i)
            out[i], out[j] = out[j], out[i]
        return out[:k]

    def jumped(self, i: int) -> "Rng":
        """Stream `i` of this one: a fresh copy advanced by ``i * 2**40`` draws (SplitMix64's state
        moves by a constant a draw, so this is one addition). Streams 0, 1, 2 ... never overlap while
        each draws fewer than 2**40 numbers: independent like :meth:`fork`'s, without a hash, for
        handing one stream to each of many players a round.

        >>> a, b = Rng(7).jumped(1), Rng(7).jumped(2)
        >>> a.next_u64() != b.next_u64(), Rng(7).jumped(0).state == 7
        (True, True)
        """
        return Rng(self.state + i * _JUMP)

    def fork(self, *purpose: object) -> "Rng":
        """An independent stream for one purpose, so adding draws elsewhere does not shift it."""
        return Rng(derive_seed(self.state, *purpose))
