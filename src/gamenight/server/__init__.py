"""The online floor: a FastAPI app, the table service, storage and fan-out (see docs/serve.md)."""
