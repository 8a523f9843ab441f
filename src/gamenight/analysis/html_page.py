"""One self-contained, printable HTML page: tables whose cells carry their exact figure, and
matplotlib plots inlined as base64 SVG, so a report is a single file that opens anywhere."""

from __future__ import annotations

import base64
import io
from html import escape
from typing import Any

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; color: #111; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #bbb; padding: .2rem .5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
caption { text-align: left; font-weight: 600; padding: .3rem 0; }
.note { color: #555; }
img { max-width: 100%; }
@media print { body { margin: 0; } section { break-inside: avoid; } }
"""


def cell(text: str, **data: Any) -> str:
    """A cell showing ``text``; ``data`` (wager, key, exact ...) goes to data-* attributes so a
    reader (or a test) can check the figure shown against the one it came from."""
    attrs = "".join(f' data-{k}="{escape(str(v))}"' for k, v in data.items())
    return f"<td{attrs}>{escape(text)}</td>"


def table(caption: str, head: list[str], rows: list[list[str]], table_id: str = "") -> str:
    """Rows of ready cells (from ``cell``) under a caption and a header."""
    ident = f' id="{escape(table_id)}"' if table_id else ""
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join(f"<tr>{''.join(r)}</tr>" for r in rows)
    return f"<table{ident}><caption>{escape(caption)}</caption><tr>{th}</tr>{body}</table>"


def figure(fig: Any, alt: str) -> str:
    """A matplotlib figure as an inline SVG image (then closed: reports draw many)."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img alt="{escape(alt)}" src="data:image/svg+xml;base64,{data}">'


def axes(title: str, xlabel: str, ylabel: str) -> tuple[Any, Any]:
    """A fresh figure and axes on the non-interactive backend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    return fig, ax


def section(title: str, *parts: str, note: str = "") -> str:
    text = f'<p class="note">{escape(note)}</p>' if note else ""
    return f"<section><h2>{escape(title)}</h2>{text}{''.join(parts)}</section>"


def page(title: str, intro: str, sections: list[str]) -> str:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}'
        f"</title><style>{STYLE}</style></head><body><h1>{escape(title)}</h1>"
        f'<p class="note">{escape(intro)}</p>{"".join(sections)}</body></html>'
    )
