"""Post-game analyses in the background: one job per finished game, one shot at a time, stored as
it grows and told to whoever listens (the room's clients, over the WebSocket).

Each step is one shot of the library's ``hikone_carrom.ai.analysis.Analyser``, run in the thinking
pool's analysis lane (a worker of its own at the idle CPU priority, which goes on from the
previous shot's replay), so that it takes neither the threads that simulate people's shots nor
a computer's or a hint's place; the partial result is stored after every shot, so a restarted
server resumes an analysis where it stopped. Jobs run one at a time (others wait, status
"queued").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from hikone_carrom.ai.analysis import ANALYSIS_VERSION, Analysis, shot_numbers
from hikone_carrom.server.core.errors import RoomError
from hikone_carrom.server.core.runner import Runner
from hikone_carrom.server.storage import GameStore, StoredAnalysis, StoreError
from hikone_carrom.server.thinking.pool import AnalysisJob, ThinkingPool

__all__ = ["AnalysisJobs", "Listener"]

log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], None]
"""Called with every ``analysis`` message of a game (progress, then the result)."""


def _message(
    game_id: str, status: str, done: int, total: int, result: dict[str, Any] | None
) -> dict[str, Any]:
    return {
        "type": "analysis",
        "game_id": game_id,
        "status": status,
        "done": done,
        "total": total,
        "result": result,
    }


class AnalysisJobs:
    """The analyses of one server: started on request, at most ``parallel`` at a time, each
    shot analysed by ``thinker``."""

    def __init__(
        self, store: GameStore, runner: Runner, thinker: ThinkingPool, parallel: int = 1
    ) -> None:
        self.store = store
        self.runner = runner
        self.thinker = thinker
        self._slots = asyncio.Semaphore(parallel)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._live: dict[str, dict[str, Any]] = {}
        self._listeners: dict[str, dict[str, Listener]] = {}

    async def status(self, game_id: str) -> dict[str, Any]:
        """The ``analysis`` message of a game now: status "none" (never asked), "queued",
        "running" (with the analysis of the shots done so far), "done" or "failed".

        Raises:
            RoomError: no such game (``no_game``, 404).
        """
        live = self._live.get(game_id)
        if live is not None:
            return live
        await self._game_record(game_id, finished=False)
        stored = await self.runner.store(self.store.analysis, game_id)
        if stored is None or stored.version != ANALYSIS_VERSION:
            return _message(game_id, "none", 0, 0, None)
        status = "stopped" if stored.status == "running" else stored.status
        return _message(game_id, status, stored.done, stored.total, stored.result)

    async def request(
        self, game_id: str, *, key: str | None = None, listener: Listener | None = None
    ) -> dict[str, Any]:
        """Start (or resume) the analysis of a finished game unless it is done or under way;
        ``listener`` (under ``key``) then gets every message of it. Returns the status now.

        Raises:
            RoomError: no such game (``no_game``, 404) or the game is not over (``not_over``).
        """
        if key is not None and listener is not None:
            self._listeners.setdefault(game_id, {})[key] = listener
        if game_id in self._tasks:
            return self._live[game_id]
        record = await self._game_record(game_id, finished=True)
        stored = await self.runner.store(self.store.analysis, game_id)
        partial: Analysis | None = None
        if stored is not None and stored.version == ANALYSIS_VERSION and stored.result:
            if stored.status == "done":
                return _message(game_id, "done", stored.done, stored.total, stored.result)
            partial = Analysis.from_dict(stored.result)
        total = len(shot_numbers(record))
        done = 0 if partial is None else len(partial.shots)
        self._live[game_id] = _message(
            game_id, "queued", done, total, None if partial is None else partial.to_dict()
        )
        self._tasks[game_id] = asyncio.get_running_loop().create_task(
            self._run(game_id, record, partial)
        )
        return self._live[game_id]

    async def _game_record(self, game_id: str, *, finished: bool) -> dict[str, Any]:
        try:
            game = await self.runner.store(self.store.game, game_id)
        except StoreError as err:
            raise RoomError("no_game", "No such game", "その試合はありません", status=404) from err
        if finished and game.record is None:
            raise RoomError(
                "not_over",
                "The game is not over: it is analysed once it has ended",
                "試合はまだ終わっていません。分析は試合が終わってからです",
            )
        return game.record or {}

    def _tell(self, message: dict[str, Any]) -> None:
        game_id = message["game_id"]
        self._live[game_id] = message
        for listener in list(self._listeners.get(game_id, {}).values()):
            try:
                listener(message)
            except Exception:  # a listener's failure must not stop the analysis
                log.exception("analysis listener failed")

    async def _save(self, message: dict[str, Any], error: str | None = None) -> None:
        await self.runner.store(
            self.store.save_analysis,
            StoredAnalysis(
                message["game_id"],
                ANALYSIS_VERSION,
                message["status"],
                message["done"],
                message["total"],
                message["result"],
                error,
            ),
        )

    async def _run(self, game_id: str, record: dict[str, Any], partial: Analysis | None) -> None:
        numbers = shot_numbers(record)
        result = partial or Analysis(int(record["players"]), ())
        todo = [n for n in numbers if n not in {s.n for s in result.shots}]
        try:
            async with self._slots:
                message = _message(game_id, "running", len(result.shots), len(numbers), None)
                message["result"] = result.to_dict()
                self._tell(message)
                await self._save(message)
                for n in todo:
                    part = await self._step(game_id, record, n)
                    result = result.merged(part)
                    message = _message(
                        game_id, "running", len(result.shots), len(numbers), result.to_dict()
                    )
                    self._tell(message)
                    await self._save(message)
                final = _message(game_id, "done", len(numbers), len(numbers), result.to_dict())
                await self._save(final)
                self._tell(final)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            log.exception("analysis of %s failed", game_id)
            failed = _message(game_id, "failed", len(result.shots), len(numbers), None)
            with contextlib.suppress(Exception):
                await self._save(failed, error=str(err))
            self._tell(failed)
        finally:
            self._tasks.pop(game_id, None)
            self._live.pop(game_id, None)
            self._listeners.pop(game_id, None)

    async def _step(self, game_id: str, record: dict[str, Any], n: int) -> Analysis:
        """The analysis of shot ``n`` of the game (in the thinking pool's analysis lane)."""
        return await self.thinker.analyse(AnalysisJob(game_id, record, n))

    async def close(self) -> None:
        """Stop every job (what is done is stored; a later request resumes)."""
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
