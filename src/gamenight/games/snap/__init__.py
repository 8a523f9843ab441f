"""Snap and Slap the Elephant: two real-time games played with one 52-card picture deck."""

from .slap import SlapState, SlapTheElephant
from .snap import Snap, SnapState

__all__ = ["Snap", "SnapState", "SlapTheElephant", "SlapState"]
