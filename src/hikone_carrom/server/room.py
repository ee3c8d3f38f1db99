"""A room: one table, its seats, the match being played there, and everyone watching it.

One owner serializes each room: every change happens under the room's asyncio lock, the
simulation runs off the event loop, and every change becomes one numbered event that is stored
before it is broadcast. A client acts only for the seats its token holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, Protocol

from hikone_carrom.ai import NoLegalShotError, hint
from hikone_carrom.board import BoardSpec
from hikone_carrom.match import IllegalShotError, Match, Noise, Shot
from hikone_carrom.records import HintUse, to_record
from hikone_carrom.rules import MatchClock, RuleOptions, RulesError, explain_outcome, seat_label
from hikone_carrom.server.chat import ChatLog, check_text, phrase, presets_view
from hikone_carrom.server.errors import RoomError
from hikone_carrom.server.hints import HintBook, HintKey, hint_message, hint_seed
from hikone_carrom.server.players import ComputerPlayer, make_computer
from hikone_carrom.server.presence import Presence
from hikone_carrom.server.runner import Runner
from hikone_carrom.server.storage import GameStore, StoredEvent, StoredGame, StoredSeat, hash_token
from hikone_carrom.server.views import (
    LANGS,
    board_view,
    clock_view,
    ruling_text,
    shot_view,
    state_view,
)
from hikone_carrom.server.votes import Votes, VoteStep

__all__ = [
    "ACTION_KINDS",
    "LOG_KINDS",
    "Room",
    "RoomConfig",
    "Seat",
    "Subscriber",
    "game_options",
]

log = logging.getLogger(__name__)

ACTION_KINDS = ("shot", "skip", "time_called", "resign", "draw")
"""Event kinds that are actions of the match (what a replay steps through)."""

LOG_KINDS = (*ACTION_KINDS, "rematch", "hint", "vote")
"""Event kinds that appear in the rulings log of a snapshot."""

_NO_STATE = ("chat", "hint")
"""Event kinds that change nothing of the game: they carry no state."""


def game_options(minutes: float | None, number: int) -> RuleOptions:
    """Rule options of game ``number`` (0-based) of a room (digital play: no refereed fouls,
    R5k): red and the first shot alternate between the games (R1b), seat 0 then seat 1, so in
    doubles the partners keep their pairs and the first team alternates."""
    match_time = None if minutes is None else minutes * 60.0
    return RuleOptions(match_time_s=match_time, refereed_fouls=False, first_seat=number % 2)


class Subscriber(Protocol):
    """A connected client: it receives JSON text and holds zero or more seats."""

    seats: frozenset[int]

    def send(self, text: str) -> None:
        """Queue one message for the client (never blocks)."""


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: ``kind`` is "human", "computer" or "open"."""

    seat: int
    kind: str
    name: str
    token_hash: str | None = None


@dataclass(frozen=True)
class RoomConfig:
    """What a room was created with. ``minutes`` makes timed matches (R7b, R8a); ``hints`` lets
    its players ask for the expert's suggested shot."""

    id: str
    mode: str
    players: int
    ai_level: str | None
    minutes: float | None
    seed: int
    hints: bool = True

    def options(self, number: int = 0) -> RuleOptions:
        """Rule options of this room's game ``number`` (see :func:`game_options`)."""
        return game_options(self.minutes, number)


class _ResumableTime:
    """A monotonic time source (s) that lets a clock resume at a stored elapsed time."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.shift


class Room:
    """The owner of one room. Create with :meth:`create` or :meth:`restore`."""

    def __init__(
        self,
        config: RoomConfig,
        seats: list[Seat],
        *,
        store: GameStore,
        runner: Runner,
        board: BoardSpec,
        ai_delay_s: float,
    ) -> None:
        self.config = config
        self.seats = seats
        self.store = store
        self.runner = runner
        self.board = board
        self.ai_delay_s = ai_delay_s
        self.lock = asyncio.Lock()
        self.seq = 0
        self.match = Match(config.players, config.options(), board, seed=config.seed)
        self.game_id = ""
        self.game_number = 0
        self.log: list[dict[str, Any]] = []
        self.subscribers: set[Subscriber] = set()
        self.computers: dict[int, ComputerPlayer] = {}
        self.clock: MatchClock | None = None
        self._time = _ResumableTime()
        self._turn_ready_at: float | None = None
        self._state: dict[str, Any] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._computer_task: asyncio.Task[None] | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self.hint_book = HintBook()
        self.hints_used: list[HintUse] = []
        self.votes = Votes()
        self.chat = ChatLog()
        self.presence = Presence()
        self.closed = False

    # -- creation ---------------------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        config: RoomConfig,
        creator_name: str,
        *,
        store: GameStore,
        runner: Runner,
        board: BoardSpec,
        ai_delay_s: float,
        names: list[str] | None = None,
    ) -> tuple[Room, str]:
        """A new room with its first match; returns the room and the creator's seat token.
        ``names`` name the players of a hot-seat room, seat by seat."""
        token = secrets.token_urlsafe(18)
        hashed = hash_token(token)
        seats: list[Seat] = []
        for s in range(config.players):
            if config.mode == "hotseat":
                seats.append(Seat(s, "human", (names or [])[s] if names else "", hashed))
            elif s == 0:
                seats.append(Seat(s, "human", creator_name, hashed))
            elif config.mode == "computer":
                seats.append(Seat(s, "computer", config.ai_level or "", None))
            else:
                seats.append(Seat(s, "open", "", None))
        room = cls(config, seats, store=store, runner=runner, board=board, ai_delay_s=ai_delay_s)
        await runner.store(
            store.create_room,
            config.id,
            mode=config.mode,
            players=config.players,
            ai_level=config.ai_level,
            minutes=config.minutes,
            seed=config.seed,
            seats=[StoredSeat(s.seat, s.kind, s.name, s.token_hash) for s in seats],
            hints=config.hints,
        )
        await room._start_game(0)
        room._refresh_state()
        room._after_change()
        return room, token

    @classmethod
    async def restore(
        cls,
        room_id: str,
        *,
        store: GameStore,
        runner: Runner,
        board: BoardSpec,
        ai_delay_s: float,
    ) -> Room:
        """Rebuild a stored room exactly: its seats, and its current match by replaying every
        stored action of it (the same seed and inputs give the same rulings)."""
        stored = await runner.store(store.load_room, room_id)
        config = RoomConfig(
            stored.id,
            stored.mode,
            stored.players,
            stored.ai_level,
            stored.minutes,
            stored.seed,
            stored.hints,
        )
        seats = [Seat(s.seat, s.kind, s.name, s.token_hash) for s in stored.seats]
        room = cls(config, seats, store=store, runner=runner, board=board, ai_delay_s=ai_delay_s)
        room.seq = stored.last_seq
        room.chat = ChatLog(e.payload for e in stored.events if e.kind == "chat")
        if not stored.games:
            await room._start_game(0)
        else:
            game = stored.games[-1]
            events = [e for e in stored.events if e.game_id == game.id]
            await runner.simulate(room._rebuild, game, events)
        room._refresh_state()
        room._after_change()
        return room

    def _rebuild(self, game: StoredGame, events: list[StoredEvent]) -> None:
        """Replay one stored game's actions into a fresh match (runs in a worker thread)."""
        self.game_id = game.id
        self.game_number = game.number
        self.match = Match(
            self.config.players, self.config.options(game.number), self.board, seed=game.seed
        )
        self._make_computers()
        elapsed = 0.0
        for ev in events:
            p = ev.payload
            if isinstance(p.get("state"), dict):
                self.votes = Votes.from_view(p["state"].get("votes"))
            if ev.kind == "hint":
                self.hints_used.append(
                    HintUse(p["actions"], p["seat"], Shot.from_dict(p["shot"]), p.get("shot_kind"))
                )
            elif ev.kind == "resign":
                self.match.resign(p["seat"])
            elif ev.kind == "draw":
                self.match.agree_draw(p["offered_by"], p["seat"])
            elif ev.kind == "shot":
                play = self.match.play(Shot.from_dict(p["shot"]), Noise.from_dict(p["noise"]))
                if play.ruling.to_dict() != p["ruling"]:
                    log.warning(
                        "room %s: replayed ruling differs at event %d", self.config.id, ev.seq
                    )
            elif ev.kind == "skip":  # a shot lost to R8a, or a turn passed (R3d, R2b reading)
                if "R8a" in p["ruling"]["reasons"]:
                    self.match.skip_turn()
                else:
                    self.match.pass_turn()
            elif ev.kind == "time_called":
                self.match.call_time()
            if ev.kind in LOG_KINDS:
                self.log.append(_log_entry(p))
            if isinstance(p.get("clock_elapsed"), int | float):
                elapsed = float(p["clock_elapsed"])
        if self.clock is None and self.config.minutes is not None:
            self.clock = MatchClock.from_options(self.config.options(game.number), self._time)
            if self._all_seated() and not self.match.is_over:
                self._time.shift = -elapsed
                self.clock.start()
                self._time.shift = 0.0
                self.clock.turn_started()

    # -- state ------------------------------------------------------------------------------

    def _all_seated(self) -> bool:
        return all(s.kind != "open" for s in self.seats)

    @property
    def waiting(self) -> bool:
        """True while an online room still has open seats: no shot may be played."""
        return not self._all_seated()

    def room_view(self) -> dict[str, Any]:
        """The room itself: mode, seats (without tokens), current game."""
        return {
            "id": self.config.id,
            "mode": self.config.mode,
            "players": self.config.players,
            "ai_level": self.config.ai_level,
            "minutes": self.config.minutes,
            "hints": self.config.hints,
            "game_id": self.game_id,
            "game_number": self.game_number,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "name": s.name,
                    "color": self.match.color(s.seat).value,
                    "side": self.board.seat_side(s.seat, self.config.players).value,
                    "label": {lang: self.display_name(s.seat, lang) for lang in LANGS},
                }
                for s in self.seats
            ],
        }

    def _clock_running(self) -> bool:
        return (
            self.clock is not None
            and self.clock.started
            and not self.match.is_over
            and not self.waiting
        )

    def _refresh_state(self) -> None:
        self._state = state_view(
            self.match,
            waiting=self.waiting,
            clock=clock_view(self.clock, running=self._clock_running()),
        )
        self._state["votes"] = self.votes.view()

    def snapshot(self, seats: frozenset[int]) -> dict[str, Any]:
        """Everything a client needs to draw the room now (also the answer to a resync).

        It reads the state cached at the last event, so it is consistent even while a
        simulation for the next event is running; only the clock is read afresh."""
        if not self._state:
            self._refresh_state()
        state = {
            **self._state,
            "clock": clock_view(self.clock, running=self._clock_running()),
        }
        return {
            "type": "snapshot",
            "seq": self.seq,
            "room": self.room_view(),
            "board": board_view(self.board),
            "state": state,
            "you": {"seats": sorted(seats)},
            "log": self.log[-60:],
            "presence": self.presence_view(),
            "chat": {"presets": presets_view(), "recent": self.chat.view()},
        }

    def seats_of_token(self, token: str | None) -> frozenset[int]:
        """The seats a token holds (empty for spectators and unknown tokens)."""
        if not token:
            return frozenset()
        hashed = hash_token(token)
        return frozenset(s.seat for s in self.seats if s.token_hash == hashed)

    # -- events -----------------------------------------------------------------------------

    async def _emit(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        finished: bool = False,
    ) -> None:
        """Number, store, then broadcast one event (the caller holds the lock). Events that
        change nothing of the game (chat, a hint used) carry no state."""
        self._refresh_state()
        body = {"kind": kind, "game_id": self.game_id, **payload}
        if kind not in _NO_STATE:
            body["state"] = self._state
        if self.clock is not None and self.clock.started:
            body["clock_elapsed"] = self.clock.elapsed()
        seq = self.seq + 1
        shots = sum(1 for a in self.match.actions if a.kind == "shot")
        result: tuple[dict[str, Any], dict[str, Any]] | None = None
        if finished and self.match.outcome is not None:
            record = await self.runner.simulate(
                to_record, self.match, self._players_info(), self.hints_used
            )
            result = (self.match.outcome.to_dict(), record)
        await self.runner.store(
            self.store.append_event,
            self.config.id,
            seq,
            self.game_id,
            kind,
            body,
            shots=shots,
            finished=result,
        )
        self.seq = seq
        if kind in LOG_KINDS:
            self.log.append(_log_entry(body))
        elif kind == "chat":
            self.chat.add(body)
        self.broadcast({"type": "event", "seq": seq, "event": body})

    def broadcast(self, message: dict[str, Any]) -> None:
        """Send one message to every connected client."""
        text = json.dumps(message, separators=(",", ":"))
        for sub in list(self.subscribers):
            sub.send(text)

    def _players_info(self) -> list[dict[str, Any]]:
        return [
            {"seat": s.seat, "kind": s.kind, "name": self.seat_name(s.seat)} for s in self.seats
        ]

    def seat_name(self, seat: int) -> str:
        """A seat's display name for records and the games list."""
        s = self.seats[seat]
        if s.kind == "computer":
            return f"CPU {s.name}".strip()
        return s.name or self.display_name(seat, "en")

    def display_name(self, seat: int, lang: str) -> str:
        """How rulings and the chat name the person at ``seat``: their name, else colour and
        side ("Red (south)", 「赤（南）」); a computer is "Computer" (R1b, R1c)."""
        s = self.seats[seat]
        ja = lang == "ja"
        if s.kind == "computer":
            return "コンピュータ" if ja else "Computer"
        if s.name:
            return s.name
        return seat_label(
            seat, self.config.players, "ja" if ja else "en", self.match.options.first_seat
        )

    def names(self) -> dict[str, dict[int, str]]:
        """Every seat's display name in each language (for the library's rulings)."""
        return {
            lang: {s.seat: self.display_name(s.seat, lang) for s in self.seats} for lang in LANGS
        }

    # -- games ------------------------------------------------------------------------------

    def _make_computers(self) -> None:
        self.computers = {
            s.seat: make_computer(s.name, self.config.seed * 131 + self.game_number * 7 + s.seat)
            for s in self.seats
            if s.kind == "computer"
        }

    async def _start_game(self, number: int) -> None:
        self.game_number = number
        self.game_id = f"{self.config.id}-{number + 1}"
        seed = (self.config.seed + number) % (1 << 62)
        options = self.config.options(number)
        self.match = Match(self.config.players, options, self.board, seed=seed)
        self.log = []
        self.hints_used = []
        self.votes.clear()
        self._make_computers()
        self.clock = None
        if self.config.minutes is not None:
            self._time = _ResumableTime()
            self.clock = MatchClock.from_options(options, self._time)
            if self._all_seated():
                self.clock.start()
                self.clock.turn_started()
        await self.runner.store(
            self.store.start_game,
            StoredGame(
                id=self.game_id,
                room_id=self.config.id,
                number=number,
                seed=seed,
                players=self.config.players,
                mode=self.config.mode,
                seat_names=tuple(self.seat_name(s.seat) for s in self.seats),
                started_at=datetime.now(UTC),
                finished_at=None,
                shots=0,
                outcome=None,
                record=None,
            ),
        )

    # -- what clients ask -------------------------------------------------------------------

    async def take_seat(self, seat: int, name: str) -> str:
        """Give an open seat of an online room to a new token (returned)."""
        async with self.lock:
            if not 0 <= seat < self.config.players:
                raise RoomError(
                    "no_such_seat", "There is no such seat", "その席はありません", status=404
                )
            if self.seats[seat].kind != "open":
                raise RoomError("seat_taken", "This seat is taken", "この席はすでに埋まっています")
            token = secrets.token_urlsafe(18)
            new = Seat(seat, "human", name, hash_token(token))
            await self.runner.store(
                self.store.save_seat,
                self.config.id,
                StoredSeat(new.seat, new.kind, new.name, new.token_hash),
            )
            self.seats[seat] = new
            self.presence.seat_taken(seat)
            started = False
            if self._all_seated() and self.clock is not None and not self.clock.started:
                self.clock.start()
                self.clock.turn_started()
                started = True
            await self._emit("seat", {"seat": seat, "room": self.room_view(), "started": started})
            self._after_change()
            return token

    def _check_person_at(self, seats: frozenset[int], seat: int) -> None:
        """Raise unless the client holds ``seat`` and a person sits there."""
        if seat not in seats:
            raise RoomError(
                "not_your_seat",
                "You do not hold this seat",
                "この席はあなたの席ではありません",
                status=403,
            )
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise RoomError(
                "not_your_seat", "This seat is not a person's", "この席は人の席ではありません"
            )

    def _check_turn_of(self, seat: int) -> None:
        """Raise unless every seat is taken and it is ``seat``'s turn (R1c)."""
        if self.waiting:
            raise RoomError(
                "waiting", "Waiting for every seat to be taken", "全員が席に着くのを待っています"
            )
        if self.match.shooter != seat:
            raise RoomError(
                "not_your_turn",
                "It is not this seat's turn (R1c)",
                "この席の番ではありません（R1c）",
                rule="R1c",
            )

    async def play(self, seats: frozenset[int], seat: int, shot: Shot) -> None:
        """Play a human's shot for ``seat``; the client must hold that seat."""
        self._check_person_at(seats, seat)
        async with self.lock:
            await self._play(seat, shot, None)

    async def _play(self, seat: int, shot: Shot, noise: Noise | None) -> None:
        """Check turn and state, simulate off the loop, then emit (the caller holds the lock)."""
        if self.match.is_over:
            raise RoomError("game_over", "The game is over", "試合は終わっています")
        self._check_turn_of(seat)
        try:
            play = await self.runner.simulate(self.match.play, shot, noise)
        except IllegalShotError as err:
            raise RoomError(
                "illegal_shot", err.reason("en"), err.reason("ja"), rule=err.rule
            ) from err
        sim_end = time.time()
        payload = await self.runner.simulate(shot_view, play, self.board, self.names())
        payload["sim_end_at"] = sim_end
        self._turn_ready_at = time.monotonic() + float(payload["duration"])
        await self._emit("shot", payload, finished=self.match.is_over)
        await self._lapse_draw(seat)
        self._after_change()

    async def hint(self, seats: frozenset[int], seat: int | None) -> dict[str, Any]:
        """The expert's suggested shot for ``seat`` (default: the shooter), for this client only.

        Only a client holding the seat whose turn it is may ask, in a room with hints on. The
        hint is computed off the event loop on a copy of the match, at most once per position;
        nothing of the game, its events or its record changes.
        """
        if not self.config.hints:
            raise RoomError(
                "hints_off", "Hints are off in this room", "この部屋ではヒントは使えません"
            )
        async with self.lock:
            if self.match.is_over:
                raise RoomError("game_over", "The game is over", "試合は終わっています")
            if seat is None:
                seat = self.match.shooter
            self._check_person_at(seats, seat)
            self._check_turn_of(seat)
            key = HintKey(self.game_id, len(self.match.actions), seat)
            position = copy.deepcopy(self.match)
        seed = hint_seed(self.config.seed, self.game_number, key.actions)
        answer = await self.hint_book.get(key, lambda: self._compute_hint(key, position, seed))
        if not answer["cached"]:
            await self._announce_hint(key, answer)
        return answer

    async def _announce_hint(self, key: HintKey, answer: dict[str, Any]) -> None:
        """Show everyone that ``key.seat`` used a hint, with the shot suggested, and keep it
        for the match record (once per position)."""
        async with self.lock:
            if self.game_id != key.game_id or len(self.match.actions) != key.actions:
                return
            shot = Shot.from_dict(answer["shot"])
            kind = answer.get("kind") if isinstance(answer.get("kind"), str) else None
            self.hints_used.append(HintUse(key.actions, key.seat, shot, kind))
            await self._emit(
                "hint",
                {
                    "seat": key.seat,
                    "actions": key.actions,
                    "shot": answer["shot"],
                    "shot_kind": kind,
                    "text": answer["text"],
                },
            )

    async def _compute_hint(self, key: HintKey, position: Match, seed: int) -> dict[str, Any]:
        """Ask the library's expert about a copy of the match (in a worker thread)."""
        try:
            plan = await self.runner.simulate(hint, position, seed)
        except NoLegalShotError as err:
            raise RoomError(
                "no_hint",
                "The expert finds no legal placement for the striker (R2b)",
                "ストライカーを置ける場所がないため、ヒントを出せません（R2b）",
                rule="R2b",
            ) from err
        return hint_message(
            plan,
            key,
            self.board,
            self.config.players,
            position.color(key.seat),
            first_shot=position.referee.is_first_shot(key.seat),
        )

    async def rematch(self, seats: frozenset[int], yes: bool = True) -> None:
        """Offer, accept or decline the next match in this room (only seated people, only after
        the end). It starts once every person seated has said yes; colours and the first shot
        alternate (:func:`game_options`)."""
        mine = frozenset(s for s in seats if 0 <= s < len(self.seats) and self._person(s))
        if not mine:
            raise RoomError(
                "not_seated",
                "Only players can start a rematch",
                "再戦は席に着いた人だけが始められます",
            )
        async with self.lock:
            if not self.match.is_over:
                raise RoomError("not_over", "The game is not over", "試合はまだ終わっていません")
            people = [s.seat for s in self.seats if s.kind == "human"]
            step = self.votes.rematch(mine, yes, people=people)
            if step.agreed:
                await self._start_game(self.game_number + 1)
                await self._emit("rematch", {"room": self.room_view(), "seat": step.seat})
            else:
                await self._emit("vote", step.payload())
            self._after_change()

    # -- resigning, draws, chat, presence ---------------------------------------------------

    def _person(self, seat: int) -> bool:
        return self.seats[seat].kind == "human"

    def _check_playing(self) -> None:
        """Raise unless a game is being played (every seat taken, not over)."""
        if self.match.is_over:
            raise RoomError("game_over", "The game is over", "試合は終わっています")
        if self.waiting:
            raise RoomError(
                "waiting", "Waiting for every seat to be taken", "全員が席に着くのを待っています"
            )

    async def resign(self, seats: frozenset[int], seat: int) -> None:
        """``seat`` (held by the client, a person) resigns for its colour: the game ends now."""
        self._check_person_at(seats, seat)
        async with self.lock:
            self._check_playing()
            outcome = self.match.resign(seat)
            self.votes.open.pop("draw", None)
            text = {lang: explain_outcome(outcome, lang) for lang in LANGS}
            color = self.match.color(seat).value
            await self._emit(
                "resign", {"seat": seat, "color": color, "explain": text}, finished=True
            )
            self._after_change()

    async def draw(self, seats: frozenset[int], seat: int, yes: bool) -> None:
        """``seat`` offers or accepts (``yes``), or declines or withdraws, a draw. The game ends
        in a draw once every person of the other side has accepted."""
        self._check_person_at(seats, seat)
        async with self.lock:
            self._check_playing()
            other = [s.seat for s in self.seats if s.kind == "human" and s.seat % 2 != seat % 2]
            step = self.votes.draw(seat, yes, other_side=other, actions=len(self.match.actions))
            if step.agreed:
                assert step.offered_by is not None
                outcome = self.match.agree_draw(step.offered_by, seat)
                text = {lang: explain_outcome(outcome, lang) for lang in LANGS}
                await self._emit(
                    "draw",
                    {"seat": seat, "offered_by": step.offered_by, "explain": text},
                    finished=True,
                )
            else:
                await self._emit("vote", step.payload())
            self._after_change()

    async def _lapse_draw(self, seat: int) -> None:
        """After an action of ``seat``: a draw offer made to its side lapses (the caller holds
        the lock)."""
        step: VoteStep | None = self.votes.lapse_draw(seat)
        if step is not None and not self.match.is_over:
            await self._emit("vote", step.payload())

    async def say(
        self,
        seats: frozenset[int],
        preset: str | None,
        text: str | None,
        *,
        allow: Callable[[], bool] = lambda: True,
    ) -> None:
        """A chat line from a client: a set phrase (anyone in the room) or free text (players
        only). Stored with the events; every client gets it. ``allow`` is the client's chat
        rate: asked once the line is valid, and a line over the rate is refused."""
        if self.config.mode != "online":
            raise RoomError(
                "no_chat", "Chat is for online rooms", "チャットはオンラインの部屋で使えます"
            )
        if (preset is None) == (text is None):
            raise RoomError(
                "bad_message",
                "Send either a set phrase or a text",
                "定型文か文章のどちらか一つを送ってください",
            )
        mine = sorted(s for s in seats if 0 <= s < len(self.seats) and self._person(s))
        line: dict[str, Any] = {"preset": preset, "text": None, "phrase": None}
        if preset is not None:
            line["phrase"] = phrase(preset)
        else:
            if not mine:
                raise RoomError(
                    "spectator_text",
                    "Spectators can send only the set phrases",
                    "観戦者は定型文だけを送れます",
                )
            line["text"] = check_text(text or "")
        seat = mine[0] if mine else None
        line["seat"] = seat
        line["name"] = (
            None if seat is None else {lang: self.display_name(seat, lang) for lang in LANGS}
        )
        line["at"] = datetime.now(UTC).isoformat()
        if not allow():
            raise RoomError(
                "chat_rate",
                "You are sending chat too fast: wait a moment",
                "チャットの送信が速すぎます。少し待ってください",
            )
        async with self.lock:
            await self._emit("chat", line)

    def presence_view(self) -> list[dict[str, Any]]:
        """Per seat: a client holding it is connected (``online``), since when (``since``)."""
        return self.presence.view([s.kind for s in self.seats])

    def connect(self, sub: Subscriber, seats: frozenset[int]) -> None:
        """A client said hello holding ``seats``: it gets a snapshot, then every event; the
        others learn that its seats are online."""
        old = sub.seats if sub in self.subscribers else frozenset()
        left = self.presence.leave(old)
        came = self.presence.join(seats)
        sub.seats = seats
        sub.send(json.dumps(self.snapshot(seats), separators=(",", ":")))
        if left or came:
            self._tell_presence()
        self.subscribers.add(sub)

    def disconnect(self, sub: Subscriber) -> None:
        """A client went away; if it was the last one holding a seat, everyone is told."""
        if sub not in self.subscribers:
            return
        self.subscribers.discard(sub)
        if self.presence.leave(sub.seats):
            self._tell_presence()

    def _tell_presence(self) -> None:
        """Send the presence of every seat to the connected clients of an online room (on one
        device and against the computer nobody else is at the table)."""
        if self.config.mode == "online":
            self.broadcast({"type": "presence", "seats": self.presence_view()})

    # -- computer players and the clock ------------------------------------------------------

    def _after_change(self) -> None:
        """Start whatever must now run by itself: a computer's turn, the match clock."""
        if self.closed:
            return
        if (
            not self.match.is_over
            and not self.waiting
            and (self.match.shooter in self.computers or self.match.must_pass)
            and (self._computer_task is None or self._computer_task.done())
        ):
            self._computer_task = self._spawn(self._computer_turn())
        if self._clock_running() and (self._clock_task is None or self._clock_task.done()):
            self._clock_task = self._spawn(self._run_clock())

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_report_crash)
        return task

    async def _computer_turn(self) -> None:
        delay = self.ai_delay_s
        if self._turn_ready_at is not None:
            delay += max(0.0, self._turn_ready_at - time.monotonic())
        await asyncio.sleep(delay)
        async with self.lock:
            seat = self.match.shooter
            player = self.computers.get(seat)
            if self.match.is_over or self.waiting:
                return
            if self.match.must_pass:  # nowhere to put the striker (R2b reading): pass
                await self._pass_turn(seat)
            elif player is None:
                return
            else:
                shot, noise = await self.runner.simulate(player.choose, self.match)
                try:
                    await self._play(seat, shot, noise)
                except RoomError as err:
                    log.warning("room %s: computer shot refused: %s", self.config.id, err)
                    placement = self.match.legal_placement()
                    x, y = placement.nearest(shot.x, shot.y)
                    await self._play(seat, replace(shot, x=x, y=y), noise)
        if self._computer_task is asyncio.current_task():
            self._computer_task = None  # so that a continuation (R3a) gets its own turn task
        self._after_change()

    async def _pass_turn(self, seat: int) -> None:
        """The shooter has nowhere to put the striker: the turn passes without penalty (R3d,
        ``RuleOptions.covered_area_line = "pass"``); told to everyone like a lost shot."""
        ruling = self.match.pass_turn()
        if self.clock is not None and self.clock.started:
            self.clock.turn_started()
        payload = {
            "seat": seat,
            "ruling": ruling.to_dict(),
            "explain": ruling_text(ruling, self.names()),
        }
        await self._emit("skip", payload, finished=self.match.is_over)
        await self._lapse_draw(seat)

    async def _run_clock(self) -> None:
        """Drive the match clock: call time (R7b) and take lost shots (R8a)."""
        clock = self.clock
        while clock is not None and clock is self.clock and self._clock_running():
            await asyncio.sleep(0.1)
            async with self.lock:
                if clock is not self.clock or not self._clock_running():
                    return
                if self._turn_ready_at is not None and time.monotonic() >= self._turn_ready_at:
                    self._turn_ready_at = None
                    clock.turn_started()
                    self._refresh_state()
                if clock.time_up and not self.match.referee.time_called:
                    self.match.call_time()
                    await self._emit("time_called", {"ruling": None}, finished=self.match.is_over)
                elif self._turn_ready_at is None and clock.turn_expired:
                    seat = self.match.shooter
                    ruling = self.match.skip_turn()
                    clock.turn_started()
                    await self._emit(
                        "skip",
                        {
                            "seat": seat,
                            "ruling": ruling.to_dict(),
                            "explain": ruling_text(ruling, self.names()),
                            "shot_time_s": clock.shot_time_s,
                        },
                        finished=self.match.is_over,
                    )
                    await self._lapse_draw(seat)
                else:
                    continue
            self._after_change()

    async def close(self) -> None:
        """Stop this room's tasks (the server is shutting down)."""
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _log_entry(body: dict[str, Any]) -> dict[str, Any]:
    """An event without its tracks and state, for the rulings log."""
    return {k: v for k, v in body.items() if k not in ("tracks", "before", "state", "room")}


def _report_crash(task: asyncio.Task[None]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None and not isinstance(exc, RulesError | RoomError):
        log.error("room task failed", exc_info=exc)
