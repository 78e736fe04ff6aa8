"""Club pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .models import Club


def home(request: HttpRequest) -> HttpResponse:
    """The clubs this visitor may see, with a helpful empty state."""
    clubs = Club.objects.visible_to(request.user).order_by("name")
    return render(request, "clubs/home.html", {"clubs": clubs})
