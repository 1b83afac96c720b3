from django.contrib import admin

from .models import TcoRun, TcoScenario


@admin.register(TcoScenario)
class TcoScenarioAdmin(admin.ModelAdmin):
    list_display = ["name", "procurement", "created_by", "updated_at"]
    search_fields = ["name", "procurement__name"]
    raw_id_fields = ["procurement", "created_by"]


@admin.register(TcoRun)
class TcoRunAdmin(admin.ModelAdmin):
    list_display = ["id", "scenario", "status", "progress_pct", "lang", "attempts"]
    list_filter = ["status", "lang"]
    raw_id_fields = ["scenario", "requested_by"]
    readonly_fields = ["inputs", "result", "engine_version", "created_at"]
