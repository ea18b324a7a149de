"""Statistics and records of a club's books: per season and all-time,
per person, streaks, records, head to head and attendance by evening; read only."""
