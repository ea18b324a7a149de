"""The kitty ledger (issue 6): charges derived from the records, reversals, payments."""
