"""Terminal tables (Textual)."""
