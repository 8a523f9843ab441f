"""The terminal table: a Textual app that plays any registered game, humans and bots together."""
