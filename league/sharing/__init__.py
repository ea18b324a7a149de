"""Sharing an evening in the club's chat (issue 12 item 6): a text and an image card."""
