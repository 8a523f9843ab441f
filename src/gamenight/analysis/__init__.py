"""Uses of the engine that read many games: simulation and exact odds."""
