"""Django-aware helpers that belong to no app: errors, hooks, i18n, caching, CSV
(docs/architecture.md).

Every app may import this package; it imports no app (the layers contract in .importlinter).
"""
