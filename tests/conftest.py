import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sheetbridge.api import games  # noqa: E402


def game_ids():
    return list(games())


def players_for(game_id, count=None):
    spec = games()[game_id].spec
    n = count or spec.recommended_players or spec.max_players or spec.min_players
    names = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]
    return names[:n] if n <= len(names) else [f"P{i+1}" for i in range(n)]


@pytest.fixture(params=game_ids())
def game_id(request):
    return request.param
