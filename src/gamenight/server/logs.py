"""Structured logs: one JSON object per line, so a log shipper can index every field.

Fields passed with ``extra={...}`` (table, seat, move, code, ms...) land as top-level keys.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

# Attributes every LogRecord has; anything else came from ``extra`` and is logged as a field.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


class JsonFormatter(logging.Formatter):
    """Format a record as one line of JSON: time, level, logger, message and extra fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, separators=(",", ":"))


def configure_logging(level: str = "info", json_lines: bool = True) -> dict[str, Any]:
    """Send gamenight's and uvicorn's logs to stderr, as JSON lines unless told otherwise.

    Returns the ``logging.config`` dict, to hand to uvicorn as ``log_config`` as well.
    """
    fmt: dict[str, Any] = (
        {"()": JsonFormatter}
        if json_lines
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    config: dict[str, Any] = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": fmt},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "stream": sys.stderr,
            },
        },
        "loggers": {
            name: {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
            for name in ("gamenight", "uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
    import logging.config

    logging.config.dictConfig(config)
    return config
