"""A club night's sessions: their lifecycle (plan, re-seat, start, close, reopen, delete), what
is ahead at the tables, the changes at the tables (leavers, arrivals) and the director's pages
for them. Below the club pages (`games.club`), which read what is here and never the reverse
(.importlinter).

Each write is keyword-only, runs in one transaction and raises `ValidationError` (bad input,
HTTP 400 with field messages) or `scoring.shared.errors.Conflict` (a state conflict, HTTP 409)
(CONVENTIONS.md rule 4). Club, player and invitation workflows live in `clubs.services`; the
pure table planning lives in `scoring.rules.seating`.
"""
