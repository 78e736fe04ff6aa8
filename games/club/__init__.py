"""The club pages, under /clubs/: the club's home, its setup (settings, players, a new club),
the director's console and a session's page and table cards. Above `games.sessions`, whose
services and helpers they call (never the reverse: .importlinter).

Every view starts with a permission-checked lookup (`clubs.permissions`); forms validate and the
services write. Pages work without JavaScript; htmx only refreshes the table suggestion.
"""
