"""The database backend for PostgreSQL: Django's, grouping by a club-owned table's columns
(schockclub/postgresql/base.py)."""
