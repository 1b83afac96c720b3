from django.contrib import admin

from .models import Membership, Organisation, Procurement, StageChange


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "organisation", "role"]
    list_filter = ["role", "organisation"]


class StageChangeInline(admin.TabularInline):
    model = StageChange
    extra = 0
    readonly_fields = ["from_stage", "to_stage", "changed_by", "note", "changed_at"]


@admin.register(Procurement)
class ProcurementAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "stage", "budget_max", "updated_at"]
    list_filter = ["stage", "organisation"]
    inlines = [StageChangeInline]
