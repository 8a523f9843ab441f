"""The wire protocol: client frames, error codes and the one error type routes turn into replies."""

from __future__ import annotations

import unicodedata
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from gamenight.engine import GamenightError

MAX_FRAME = 16 * 1024  # bytes of one client frame
MAX_NAME = 24
MAX_CHAT = 200  # characters of one chat message

# error code -> HTTP status
STATUS: dict[str, int] = {
    "bad_frame": 400,
    "frame_too_large": 413,
    "unknown_type": 400,
    "hello_required": 400,
    "bad_token": 401,
    "forbidden": 403,
    "forbidden_origin": 403,
    "spectator": 403,
    "table_not_found": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "stale_move": 409,
    "too_late": 409,
    "not_your_turn": 409,
    "not_started": 409,
    "game_over": 409,
    "seat_taken": 409,
    "wrong_status": 409,
    "too_long": 409,
    "illegal_action": 422,
    "malformed_action": 422,
    "bad_name": 422,
    "bad_chat": 422,
    "bad_option": 422,
    "bad_request": 422,
    "rate_limited": 429,
    "too_many_tables": 429,
    "server_error": 500,
}


class ServerError(GamenightError):
    """A refused request: ``code`` is one of STATUS's keys, the message says what to fix."""

    def __init__(self, code: str, message: str) -> None:
        assert code in STATUS, code
        self.code = code
        self.message = message
        super().__init__(f"{code}: {message}")

    @property
    def status(self) -> int:
        return STATUS[self.code]

    def frame(self, ref: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if ref is not None:
            out["ref"] = ref
        return out


Seat = int | Literal["dealer"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(Strict):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    role: Literal["player", "spectator", "display"] = "player"


class ActionFrame(Strict):
    type: Literal["action"]
    move: int = Field(ge=0)
    action: dict[str, Any]
    ref: str | None = Field(default=None, max_length=64)


class ChatFrame(Strict):
    type: Literal["chat"]
    text: str = Field(max_length=4 * MAX_CHAT)  # measured exactly by clean_chat
    ref: str | None = Field(default=None, max_length=64)


FRAME_TYPES = ("hello", "action", "sync", "ping", "chat")


BotKind = Literal["sensible", "random", "search"]
BOT_KINDS: tuple[str, ...] = get_args(BotKind)  # "search": Monte Carlo search, turn-based only


class SeatSpec(Strict):
    kind: Literal["human", "bot"] = "human"
    bot: BotKind = "sensible"
    level: Literal["easy", "normal", "expert"] | None = None
    strategy: str | None = Field(default=None, max_length=40)


class CreateTable(Strict):
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    turn_seconds: float | None = Field(default=None, ge=3, le=3600, allow_inf_nan=False)
    bot_pace: Literal["human", "instant"] = "human"
    listed: bool = False  # shown in the lobby; unlisted tables fill through the join link


class SeatChoice(Strict):
    """The seat a host frees or gives to a bot."""

    seat: int | Literal["dealer"]


class BotChoice(SeatChoice):
    """The seat a host gives to a bot, and which kind (checked by ``Hosts.seat_bot``, whose
    refusal names an unknown kind)."""

    bot: str = Field(default="sensible", max_length=40)


class Listing(Strict):
    listed: bool


class SetTimer(Strict):
    """A turn timer set while the table waits or plays: null takes it off."""

    turn_seconds: float | None = Field(ge=3, le=3600, allow_inf_nan=False)


class JoinTable(Strict):
    name: str
    seat: int | Literal["dealer"] | None = None


class PlayAction(Strict):
    move: int = Field(ge=0)
    action: dict[str, Any]


MAX_MARKS = 4  # combining marks on one character: "Zalgo" text stacks hundreds, over other lines


def stacked_marks(text: str) -> bool:
    """Whether some character of ``text`` carries more than MAX_MARKS combining marks."""
    run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if run > MAX_MARKS:
            return True
    return False


def clean_name(name: str) -> str:
    """A display name: any printable text of 1 to 24 characters ("O'Brien", "Tom & Jerry"):
    pages show it as text, so markup means nothing; control and direction characters, which
    would garble the lines around it, are refused."""
    name = unicodedata.normalize("NFC", name).strip()  # "é" is one character, however typed
    if not name:
        raise ServerError("bad_name", "type a display name: the other players see it")
    if len(name) > MAX_NAME:
        raise ServerError(
            "bad_name", f"a display name has at most {MAX_NAME} characters (this one {len(name)})"
        )
    if stacked_marks(name):
        raise ServerError(
            "bad_name", f"a display name stacks at most {MAX_MARKS} accents on one character"
        )
    for ch in name:
        if unicodedata.category(ch)[0] in ("C", "Z") and ch != " ":
            raise ServerError(
                "bad_name",
                f"a display name may not hold a control or direction character (U+{ord(ch):04X})",
            )
    return name


KEPT_FORMATS = {"\u200d"}  # the zero-width joiner builds emoji sequences; other formats are refused


def clean_chat(text: str) -> str:
    """One chat line: printable text of 1 to MAX_CHAT characters; markup stays plain text."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise ServerError("bad_chat", "a chat message needs some text")
    if len(text) > MAX_CHAT:
        raise ServerError("bad_chat", f"a chat message has at most {MAX_CHAT} characters")
    if stacked_marks(text):
        raise ServerError(
            "bad_chat", f"a chat message stacks at most {MAX_MARKS} accents on one character"
        )
    for ch in text:
        kind = unicodedata.category(ch)
        if (kind[0] == "C" and ch not in KEPT_FORMATS) or kind in ("Zl", "Zp"):
            raise ServerError(
                "bad_chat", f"a chat message may not hold control character U+{ord(ch):04X}"
            )
    return text
