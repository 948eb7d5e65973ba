from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Pyramid annotator administration"
admin.site.site_title = "Pyramid annotator"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("annotator.api.urls")),
    path("", include("scoring.urls")),
    path("", include("annotator.urls")),
]
