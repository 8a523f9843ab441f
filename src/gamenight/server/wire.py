"""JSON on the wire: orjson to encode and decode frames, the standard library as a fallback.

Encoding each state frame was the largest single cost per move (json.dumps); orjson does it
about ten times faster and gives the same JSON for the plain values views are made of.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # a dependency (pyproject); the standard library keeps an old venv running
    orjson = None  # type: ignore[assignment,unused-ignore]


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def dumps(obj: Any) -> str:
    """Compact JSON text of ``obj``; what orjson refuses (ints past 64 bits) goes through json."""
    if orjson is not None:
        try:
            return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:  # orjson.JSONEncodeError is a TypeError
            pass
    return json.dumps(obj, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    """Strict JSON: NaN and Infinity are refused with a ValueError, as is invalid UTF-8."""
    if orjson is not None:
        return orjson.loads(text)  # orjson.JSONDecodeError is a ValueError
    return json.loads(text, parse_constant=_refuse)


def with_ref(text: str, ref: str | None) -> str:
    """A frame's JSON text with ``"ref"`` added: a reply reuses the broadcast's encoding."""
    return f'{text[:-1]},"ref":{dumps(ref)}}}'
