"""PostgreSQL with a connection pool that answers at once while the database is down."""
