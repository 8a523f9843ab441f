"""Exact solvers the players may play by: below the bots and the analysis that report them."""
