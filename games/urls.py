from django.urls import path

from . import offline, views

app_name = "games"

urlpatterns = [
    path("tables/<int:pk>/", views.table_now, name="table"),
    path("t/<str:code>", views.table_code, name="table_code"),
    path("t/<str:code>/hand-over", views.hand_over, name="hand_over"),
    path("t/<str:code>/back", views.give_back, name="give_back"),
    path("rubbers/<int:pk>/", views.rubber_detail, name="rubber"),
    path("rubbers/<int:pk>/deals/", views.enter_deal, name="enter_deal"),
    path("rubbers/<int:pk>/preview", views.preview_deal, name="preview_deal"),
    path("rubbers/<int:pk>/live", views.rubber_live, name="rubber_live"),
    path("rubbers/<int:pk>/deals/queued", offline.enter_queued_deal, name="enter_queued_deal"),
    path("deals/<int:pk>/correct", views.correct_deal, name="correct_deal"),
    path("deals/<int:pk>/preview", views.preview_correction, name="preview_correction"),
    path("deals/<int:pk>/delete", views.delete_deal, name="delete_deal"),
    path("deals/<int:pk>/confirm", views.confirm_deal, name="confirm_deal"),
    path("deals/<int:pk>/dispute", views.dispute_deal, name="dispute_deal"),
    path("deals/<int:pk>/rule", views.rule_deal, name="rule_deal"),
]
