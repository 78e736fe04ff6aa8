from django.urls import path

from .codes import views as codes
from .deals import answers, corrections, entry, offline
from .pad import live
from .pad import views as pad
from .push import views as push_views

app_name = "games"

urlpatterns = [
    path("tables/<int:pk>/", pad.table_now, name="table"),
    path("t/<str:code>", codes.table_code, name="table_code"),
    path("t/<str:code>/hand-over", codes.hand_over, name="hand_over"),
    path("t/<str:code>/back", codes.give_back, name="give_back"),
    path("rubbers/<int:pk>/", pad.rubber_detail, name="rubber"),
    path("rubbers/<int:pk>/deals/", entry.enter_deal, name="enter_deal"),
    path("rubbers/<int:pk>/preview", entry.preview_deal, name="preview_deal"),
    path("rubbers/<int:pk>/confirm-all", answers.confirm_all, name="confirm_all"),
    path("rubbers/<int:pk>/live", live.rubber_live, name="rubber_live"),
    path("rubbers/<int:pk>/events", push_views.rubber_events, name="rubber_events"),
    path("rubbers/<int:pk>/deals/queued", offline.enter_queued_deal, name="enter_queued_deal"),
    path("deals/<int:pk>/correct", corrections.correct_deal, name="correct_deal"),
    path("deals/<int:pk>/preview", corrections.preview_correction, name="preview_correction"),
    path("deals/<int:pk>/delete", corrections.delete_deal, name="delete_deal"),
    path("deals/<int:pk>/confirm", answers.confirm_deal, name="confirm_deal"),
    path("deals/<int:pk>/dispute", answers.dispute_deal, name="dispute_deal"),
    path("deals/<int:pk>/rule", answers.rule_deal, name="rule_deal"),
]
