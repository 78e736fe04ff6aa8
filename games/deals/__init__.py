"""The deal writes behind the pad's forms: enter (`entry`), correct and delete (`corrections`),
confirm, dispute and rule (`answers`), and the deals a phone queued offline (`offline`); the
helpers they share (`common`: who writes, refusals, the pad again with a reason).
"""
