"""The SQL schema: the ``tables``, ``moves`` and ``chat`` tables, as SQLAlchemy describes them.

Alembic's migrations (``server/migrations/``) bring a database to this shape; the moves table is
the truth every live table is rebuilt from.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("host_hash", String(64), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("turn_seconds", Float, nullable=True),
    Column("bot_pace", String(16), nullable=False),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
    Column("listed", Boolean, nullable=False, default=False),  # in the lobby: the host's choice
    Column("notes", JSON, nullable=True),  # the table's own log (server/notes.py)
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=True),
    Column("action", JSON, nullable=False),
)

chat = Table(  # a table's chat: kept beside the moves, never part of the game's record
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", String(8), nullable=False),  # "0", "1", ... or "dealer"
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_chat_table_id", "table_id", "id"),
)
