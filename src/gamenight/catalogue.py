"""Game ids and titles known without importing any game, so ``gamenight list`` starts at once.

The registry (``gamenight.list_games``) stays the truth; a test checks this list agrees with it.
"""

from __future__ import annotations

# game id -> (title, one line on what the game is)
GAMES: dict[str, tuple[str, str]] = {
    "gambler": ("Gambler", "a money board game: lottery tickets, horse races, Sweepstakes, IOUs"),
    "shake": ("Shake", "push your luck with six shake dice; stop before six blanks"),
    "slap-the-elephant": ("Slap the Elephant", "real time: slap elephants, snap at mice"),
    "snake-eyes": ("Snake Eyes", "turn your cards down by throwing their totals; win the kitty"),
    "snake-eyes-casino": ("Snake Eyes (casino table)", "bet against the house on two dice"),
    "snap": ("Snap", "real time: call snap when two face-up cards match"),
}
