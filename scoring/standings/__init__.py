"""The standings app: results, standings, settlement, leaderboard and ratings (app label "scoring").

It sits above games and clubs and hears about new results through `scoring.shared.hooks`
(docs/architecture.md).
"""
