"""Sharing an evening in the club's chat: a text and an image card."""
