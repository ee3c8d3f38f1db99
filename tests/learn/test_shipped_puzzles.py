"""Every shipped puzzle replayed: its solution reaches its goal under the exact physics and the
referee, still does under the light hand's 100 draws as often as its figure says (>= 70 %), and
the greedy player's shot does not reach it."""

from __future__ import annotations

import json

import pytest

from hikone_carrom.learn import Puzzle, load_shipped, puzzle_by_id
from hikone_carrom.learn.cli import main, shipped_path
from hikone_carrom.learn.generate import find_puzzle, positions
from hikone_carrom.learn.verify import DRAWS, THRESHOLD, exact_reaches, greedy_shot, robustness

SHIPPED = load_shipped()


def test_at_least_fifty_puzzles_ship_with_unique_ids_in_order() -> None:
    assert len(SHIPPED) >= 50
    assert [p.id for p in SHIPPED] == [f"p{k + 1:04d}" for k in range(len(SHIPPED))]
    assert {p.difficulty for p in SHIPPED} <= {1, 2, 3, 4, 5}
    assert puzzle_by_id(SHIPPED[-1].id) == SHIPPED[-1]
    assert puzzle_by_id("p0000") is None


@pytest.mark.parametrize("puzzle", SHIPPED, ids=[p.id for p in SHIPPED])
def test_the_solution_is_proved_and_greedys_shot_fails(puzzle: Puzzle) -> None:
    match = puzzle.match()
    assert exact_reaches(match, puzzle.goal, puzzle.solution)
    share = robustness(match, puzzle.goal, puzzle.solution, puzzle.seed, DRAWS)
    assert share == puzzle.robustness
    assert share >= THRESHOLD
    greedy = greedy_shot(match)
    assert greedy == puzzle.greedy
    assert not exact_reaches(match, puzzle.goal, greedy)
    assert match.actions == ()  # the proof left the position as it was


def test_a_puzzle_survives_its_json_form() -> None:
    for puzzle in SHIPPED[:5]:
        assert Puzzle.from_dict(json.loads(json.dumps(puzzle.to_dict()))) == puzzle


def test_the_first_puzzle_is_found_again_at_its_source_position() -> None:
    first = SHIPPED[0]
    seed = int(first.source[1:].split("s")[0])
    match = next(m for m, name in positions(seed) if name == first.source)
    found = find_puzzle(match, first.source, seed)
    assert found is not None and found.to_dict() | {"id": first.id} == first.to_dict()


def test_the_build_command_rebuilds_the_shipped_file_bit_for_bit(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "puzzles.json"
    assert main(["build", "--count", "2", "--seed", "0", "--out", str(out), "--quiet"]) == 0
    assert "2 puzzles" in capsys.readouterr().out
    built = json.loads(out.read_text(encoding="utf-8"))
    shipped = json.loads(shipped_path().read_text(encoding="utf-8"))
    assert built["build"] == {"seed": 0, "count": 2} and shipped["build"]["seed"] == 0
    assert built["puzzles"] == shipped["puzzles"][:2]
    assert out.read_bytes() == _file_of(shipped, 2)


def _file_of(data: dict[str, object], count: int) -> bytes:
    """The bytes the build writes for the first ``count`` puzzles of ``data``."""
    puzzles = data["puzzles"]
    assert isinstance(puzzles, list)
    head = {
        "format": data["format"],
        "build": {"seed": 0, "count": count},
        "puzzles": puzzles[:count],
    }
    return (json.dumps(head, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
