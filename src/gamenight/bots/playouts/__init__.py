"""Compiled playouts of whole games for the search bot, one module a game."""
