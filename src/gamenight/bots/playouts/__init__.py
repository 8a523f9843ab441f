"""Compiled games for the search bot's playouts, one module a game, and what the analysis
kernels above share with them: the dice (``rng``) and Gambler's rules (``gambler_game``)."""
