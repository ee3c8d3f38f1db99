"""The lobby's refusals, in English and Japanese."""

from __future__ import annotations

from hikone_carrom.server.core.errors import RoomError

__all__ = [
    "bad_seek_token",
    "lobby_full",
    "no_challenge",
    "no_seek",
    "no_seek_token",
    "own_challenge",
    "too_many_seeks",
]


def no_seek_token() -> RoomError:
    return RoomError(
        "bad_token",
        "Give the seek's token: Authorization: Bearer TOKEN",
        "募集のトークンを Authorization: Bearer TOKEN で送ってください",
        status=401,
    )


def bad_seek_token() -> RoomError:
    return RoomError(
        "bad_token",
        "This token is not this seek's",
        "このトークンはこの募集のものではありません",
        status=403,
    )


def no_seek() -> RoomError:
    return RoomError(
        "no_seek",
        "This seek is over: it was withdrawn or not polled for too long",
        "この募集は終了しました（取り消されたか、しばらく確認がありませんでした）",
        status=404,
    )


def no_challenge() -> RoomError:
    return RoomError(
        "no_challenge",
        "This challenge is no longer open",
        "この挑戦はもう受け付けていません",
        status=404,
    )


def own_challenge() -> RoomError:
    return RoomError(
        "own_challenge",
        "This is your own challenge: wait for someone to accept it",
        "自分の挑戦です。ほかの人が受けるのを待ってください",
        status=409,
    )


def lobby_full(most: int) -> RoomError:
    return RoomError(
        "lobby_full",
        f"The lobby is full ({most} seeks waiting): try again in a moment",
        f"対戦相手の募集がいっぱいです（{most} 件）。少し待ってからもう一度どうぞ",
        status=503,
        retry_after_s=5.0,
    )


def too_many_seeks(per_minute: float) -> RoomError:
    n = f"{per_minute:g}"
    return RoomError(
        "rate_limited",
        f"Too many seeks from your address (at most {n} a minute): wait a moment",
        f"この接続元からの対戦相手の募集が多すぎます（1分に {n} 件まで）。少し待ってください",
        status=429,
        retry_after_s=60.0 / max(per_minute, 1e-9),
    )
