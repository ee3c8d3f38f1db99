"""The refusals of the accounts' routes, each in Japanese and English."""

from __future__ import annotations

from hikone_carrom.server.core.errors import RoomError

__all__ = [
    "bad_name",
    "bad_password",
    "csrf_refused",
    "name_taken",
    "no_player",
    "not_signed_in",
    "too_many_attempts",
    "wrong_password",
]


def bad_name(en: str, ja: str) -> RoomError:
    """A display name that cannot be used (HTTP 422)."""
    return RoomError("bad_name", en, ja, status=422)


def name_taken() -> RoomError:
    """The name, or one that looks the same, is another player's (HTTP 409)."""
    return RoomError(
        "name_taken",
        "This name, or one that looks the same, is already another player's: choose another",
        "この名前（または見分けにくい名前）はすでに使われています。別の名前にしてください",
        status=409,
    )


def bad_password(low: int, high: int) -> RoomError:
    """A password too short or too long (HTTP 422)."""
    return RoomError(
        "bad_password",
        f"A password has {low} to {high} characters",
        f"パスワードは{low}〜{high}文字です",
        status=422,
    )


def wrong_password() -> RoomError:
    """Unknown name or wrong password; which one is not said (HTTP 401)."""
    return RoomError(
        "wrong_password",
        "The name or the password is wrong",
        "名前またはパスワードが違います",
        status=401,
    )


def not_signed_in() -> RoomError:
    """The request needs a signed-in player (HTTP 401)."""
    return RoomError(
        "not_signed_in",
        "Sign in first",
        "先にサインインしてください",
        status=401,
    )


def csrf_refused() -> RoomError:
    """A state-changing request with the session cookie but without its CSRF token (HTTP 403)."""
    return RoomError(
        "csrf_refused",
        "This request lacks the page's X-CSRF-Token: reload the page and try again",
        "このリクエストにはページの確認用トークン（X-CSRF-Token）がありません。"
        "ページを再読み込みしてもう一度どうぞ",
        status=403,
    )


def too_many_attempts(per_minute: float) -> RoomError:
    """Too many sign-ups or sign-ins from one address (HTTP 429)."""
    n = f"{per_minute:g}"
    return RoomError(
        "rate_limited",
        f"Too many attempts from your address (at most {n} a minute): wait a moment",
        f"この接続元からの試行が多すぎます（1分に {n} 回まで）。少し待ってください",
        status=429,
        retry_after_s=60.0 / per_minute,
    )


def no_player() -> RoomError:
    """No account has this name (HTTP 404)."""
    return RoomError(
        "no_player",
        "No player has this name",
        "その名前のプレイヤーはいません",
        status=404,
    )
