"""A plain JSON answer with no database and no DRF: the baseline the HTTP benchmark measures the
API against in the same run (bench/bench_http.py). Not part of the public API or its schema, and
mounted only when the benchmarks' settings ask for it (`BENCH_PLAIN`)."""

from django.http import HttpRequest, JsonResponse


def plain(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})
