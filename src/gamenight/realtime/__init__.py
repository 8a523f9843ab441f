"""Real time for the calling games, kept outside the rules: who reacts when, in what order.

The rules engine accepts calls from any seat in the order they are applied; this layer decides
that order from simulated reaction times (a discrete-event clock, never ``sleep``).
"""

from .reaction import LEVELS, Level, reaction_ms
from .table import Outcome, RealtimeTable, simulate_realtime

__all__ = ["LEVELS", "Level", "Outcome", "RealtimeTable", "reaction_ms", "simulate_realtime"]
