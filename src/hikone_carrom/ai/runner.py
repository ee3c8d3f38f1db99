"""Running evaluation tasks: in this process, on local worker processes (the default), or on a
Ray cluster (optional extra ``ray``, imported only when asked for).

Local workers are started with the "spawn" method and limit numba to one thread each, so that a
decision's time (s) is that of one core. Ray workers get the same limit through the job's runtime
environment. A Ray task carries everything it needs as plain data: the task itself (JSON) and the
fingerprint of the driver's ``hikone_carrom`` source, which the worker checks against its own
installed copy so that a run never mixes results of different code (determinism across runners).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from hikone_carrom.ai.errors import AIError, EvaluationError
from hikone_carrom.ai.evaluation import SoloTask, Task, run_task, task_from_dict, task_to_dict
from hikone_carrom.board import DEFAULT_BOARD, BoardSpec

__all__ = [
    "LOCAL_RAY",
    "CodeMismatchError",
    "RayConnectionError",
    "RemoteTaskError",
    "WorkerTaskError",
    "code_fingerprint",
    "ray_session",
    "require_ray",
    "run_inline",
    "run_local",
    "run_ray",
    "warm_up",
]

LOCAL_RAY = "local"
"""The ``--ray`` address that starts a private local Ray instance (no dashboard)."""

_RAY_ADDRESS = re.compile(r"^(auto|(ray://)?[A-Za-z0-9._-]+:[0-9]{1,5})$")
_RAY_IN_FLIGHT = 512
"""Most Ray tasks submitted and not yet collected (bounds the driver's memory on big runs)."""
_LOCAL_OBJECT_STORE = 128 * 1024 * 1024
"""Object store of a local Ray instance (B): results are small JSON lines."""
_WORKER_ENV = {"NUMBA_NUM_THREADS": "1"}


class RayConnectionError(AIError, ConnectionError):
    """Ray could not be started or reached at the given address."""


class RemoteTaskError(AIError):
    """A task failed on a Ray worker; ``key`` names it. Finished results are kept on disk."""

    def __init__(self, en: str, ja: str, key: str) -> None:
        super().__init__(en, ja)
        self.key = key


class WorkerTaskError(AIError):
    """Raised on a Ray worker for an AIError of a task (keeps ``en`` and ``ja`` across pickling,
    so the driver can report it in both languages)."""

    def __reduce__(self) -> tuple[type[WorkerTaskError], tuple[str, str]]:
        return (type(self), (self.en, self.ja))


class CodeMismatchError(WorkerTaskError):
    """A Ray worker's ``hikone_carrom`` differs from the driver's (results would not match)."""


def warm_up() -> None:
    """Load the compiled physics once (numba's cache) so no decision's time includes it: a
    decision (its batches run on one thread) and a shot."""
    run_task(SoloTask("greedy", "0x", 0, cap=1))


def _one_thread() -> None:
    """Worker initializer: one numba thread per worker (decision time on one core), warmed up.

    Only the number of threads *used* is set: numba has read ``NUMBA_NUM_THREADS`` when the
    physics was imported, and changing that variable afterwards makes its next compilation (an
    empty cache on a fresh machine) fail."""
    import numba

    numba.set_num_threads(1)
    warm_up()


def run_inline(tasks: Sequence[Task], board: BoardSpec = DEFAULT_BOARD) -> Iterator[dict[str, Any]]:
    """Run the tasks on ``board`` one after another in this process, yielding each result line."""
    if tasks:
        warm_up()
    for task in tasks:
        yield run_task(task, board)


def run_local(
    tasks: Sequence[Task], jobs: int, board: BoardSpec = DEFAULT_BOARD
) -> Iterator[dict[str, Any]]:
    """Run the tasks on ``board`` on ``jobs`` local worker processes, yielding result lines as
    they finish."""
    if jobs < 1:
        raise EvaluationError("jobs must be >= 1", "jobs は1以上です")
    if jobs == 1:
        yield from run_inline(tasks, board)
        return
    ctx = get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_one_thread) as pool:
        try:
            pending: set[Future[dict[str, Any]]] = set()
            queue = list(tasks)
            queue.reverse()
            while queue or pending:
                while queue and len(pending) < 2 * jobs:
                    pending.add(pool.submit(run_task, queue.pop(), board))
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in sorted(done, key=lambda f: id(f)):
                    yield fut.result()
        except BaseException:
            _stop_workers(pool)
            raise


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End a pool whose run stopped early (an error, an interrupt, the caller closing the
    iterator): its running tasks are dropped (their results were never written), so no worker
    goes on simulating a game nobody will read."""
    workers = list(pool._processes.values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()


@cache
def code_fingerprint() -> str:
    """SHA-256 (hex) of this installed ``hikone_carrom`` package's Python source files."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


_warmed = False


def _run_remote(payload: dict[str, Any]) -> dict[str, Any]:
    """Ray task body: check the code fingerprint, warm up once per worker, run the task."""
    global _warmed
    if payload["code"] != code_fingerprint():
        raise CodeMismatchError(
            "this Ray worker's hikone_carrom differs from the driver's: install the same "
            "version on every node",
            "この Ray ワーカーの hikone_carrom がドライバと異なります: "
            "全ノードに同じ版を入れてください",
        )
    try:
        if not _warmed:
            warm_up()
            _warmed = True
        return run_task(task_from_dict(payload["task"]), BoardSpec.from_dict(payload["board"]))
    except WorkerTaskError:
        raise
    except AIError as err:
        raise WorkerTaskError(err.en, err.ja) from err


_LOOPBACK_SWITCH = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def require_ray(address: str, importer: Callable[[str], Any] | None = None) -> Any:
    """The ``ray`` module, after checking ``address`` ("local", "auto", HOST:PORT or
    ray://HOST:PORT); nothing is started.

    Raises:
        EvaluationError: the address is malformed, or Ray is not installed
            (``pip install 'hikone-carrom[ray]'``).
    """
    _check_address(address)
    if address == LOCAL_RAY:
        # A private single-node Ray keeps all its traffic on loopback: Ray reads this switch
        # when imported and then uses 127.0.0.1 instead of the machine's network address.
        os.environ.setdefault(_LOOPBACK_SWITCH, "0")
    if importer is None:
        import importlib

        importer = importlib.import_module
    try:
        return importer("ray")
    except ImportError as err:
        raise EvaluationError(
            "Ray is not installed: pip install 'hikone-carrom[ray]'",
            "Ray が入っていません: pip install 'hikone-carrom[ray]'",
        ) from err


def _check_address(address: str) -> None:
    port = address.rpartition(":")[2]
    well_formed = _RAY_ADDRESS.match(address) is not None and (
        address == "auto" or 0 < int(port) < 65536
    )
    if address != LOCAL_RAY and not well_formed:
        raise EvaluationError(
            f"--ray takes 'local', 'auto', HOST:PORT or ray://HOST:PORT, not {address!r}",
            f"--ray には 'local'、'auto'、HOST:PORT、ray://HOST:PORT を指定します"
            f"（{address!r} は不可）",
        )


def _connect(ray: Any, address: str, num_cpus: int) -> None:
    """``ray.init`` for ``address``: a private local instance or an existing cluster."""
    runtime_env = {"env_vars": dict(_WORKER_ENV)}
    try:
        if address == LOCAL_RAY:
            if num_cpus < 1:
                raise EvaluationError("jobs must be >= 1", "jobs は1以上です")
            ray.init(
                address=LOCAL_RAY,  # never joins a cluster found through RAY_ADDRESS
                num_cpus=num_cpus,
                include_dashboard=False,
                object_store_memory=_LOCAL_OBJECT_STORE,
                runtime_env=runtime_env,
                logging_level=logging.WARNING,
            )
        else:
            ray.init(address=address, runtime_env=runtime_env, logging_level=logging.WARNING)
    except (ConnectionError, RuntimeError, TimeoutError, ValueError) as err:
        if isinstance(err, AIError):
            raise
        why = " ".join(str(err).split())[:300] or type(err).__name__
        raise RayConnectionError(
            f"cannot start or reach Ray at {address!r} ({why}); a cluster with token "
            "authentication needs RAY_AUTH_MODE=token and its token",
            f"Ray（{address!r}）を起動または接続できません（{why}）。"
            "トークン認証のクラスタには RAY_AUTH_MODE=token とそのトークンが必要です",
        ) from err


@contextmanager
def ray_session(
    address: str, num_cpus: int = 2, importer: Callable[[str], Any] | None = None
) -> Iterator[Any]:
    """Connect to Ray at ``address`` ("local" starts a private instance with ``num_cpus`` CPUs
    and no dashboard) for the ``with`` block, yielding the ``ray`` module; Ray is shut down (a
    local instance stopped, a cluster disconnected) at the end unless it was already connected.

    Raises:
        EvaluationError: Ray is not installed, or the address is malformed.
        RayConnectionError: Ray could not be started or reached.
    """
    ray = require_ray(address, importer)
    started = not ray.is_initialized()
    if started:
        _connect(ray, address, num_cpus)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _failure(task: Task, err: BaseException) -> RemoteTaskError:
    cause = getattr(err, "cause", None)
    if isinstance(cause, AIError):
        en, ja = cause.en, cause.ja
    else:
        first = str(cause if isinstance(cause, BaseException) else err).strip().splitlines()
        en = ja = f"{type(cause or err).__name__}: {first[-1] if first else ''}"
    return RemoteTaskError(
        f"task {task.key} failed on Ray ({en}); the finished results are saved: "
        "rerun the same command to resume",
        f"タスク {task.key} が Ray 上で失敗しました（{ja}）。終わった結果は保存済みです: "
        "同じコマンドを再実行すると続きから再開します",
        task.key,
    )


def run_ray(
    tasks: Sequence[Task],
    address: str,
    importer: Callable[[str], Any] | None = None,
    *,
    num_cpus: int = 2,
    board: BoardSpec = DEFAULT_BOARD,
) -> Iterator[dict[str, Any]]:
    """Run the tasks on ``board`` on the Ray cluster at ``address`` ("local" starts a local Ray
    instance with ``num_cpus`` CPUs unless Ray is already connected), yielding result lines as
    they finish.

    After a task fails no new task is submitted; those already running are collected (and
    yielded) first, then the failure is raised.

    Raises:
        EvaluationError: Ray is not installed (``pip install 'hikone-carrom[ray]'``) or the
            address is malformed.
        RayConnectionError: Ray could not be started or reached.
        RemoteTaskError: a task failed on a worker (including CodeMismatchError there).
    """
    ray = require_ray(address, importer)
    if not ray.is_initialized():
        _connect(ray, address, num_cpus)
    remote = ray.remote(num_cpus=1)(_run_remote)
    code = code_fingerprint()
    queue = list(tasks)
    queue.reverse()
    pending: list[Any] = []
    flight: list[tuple[Any, Task]] = []  # (object ref, its task), refs compared by equality
    failure: RemoteTaskError | None = None
    while pending or (queue and failure is None):
        while failure is None and queue and len(pending) < _RAY_IN_FLIGHT:
            task = queue.pop()
            payload = {"task": task_to_dict(task), "code": code, "board": board.to_dict()}
            ref = remote.remote(payload)
            flight.append((ref, task))
            pending.append(ref)
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            index = next(i for i, (r, _) in enumerate(flight) if r is ref or r == ref)
            task = flight.pop(index)[1]
            try:
                line: dict[str, Any] = ray.get(ref)
            except Exception as err:  # any Ray or task error: reported with the task's key
                failure = failure or _failure(task, err)
                continue
            yield line
    if failure is not None:
        raise failure
