from django.urls import path

from scoring.shared.cache import cached_or_drf

from . import api

urlpatterns = [
    # A stranger's cached scoresheet is answered without DRF (scoring/shared/cache.py).
    path(
        "rubbers/<int:pk>/",
        cached_or_drf(api.RubberDetail.as_view(), api.rubber_answer_key),
        name="api-rubber",
    ),
    path("rubbers/<int:pk>/deals/", api.RubberDeals.as_view(), name="api-rubber-deals"),
    path(
        "rubbers/<int:pk>/confirm-all",
        api.RubberConfirmAll.as_view(),
        name="api-rubber-confirm-all",
    ),
    path("sessions/<int:pk>/deals", api.SessionDeals.as_view(), name="api-session-deals"),
    path("deals/<int:pk>/", api.DealDetail.as_view(), name="api-deal"),
    path("deals/<int:pk>/history", api.DealHistory.as_view(), name="api-deal-history"),
    path("deals/<int:pk>/confirm", api.DealConfirm.as_view(), name="api-deal-confirm"),
    path("deals/<int:pk>/dispute", api.DealDispute.as_view(), name="api-deal-dispute"),
    path("deals/<int:pk>/rule", api.DealRule.as_view(), name="api-deal-rule"),
]
