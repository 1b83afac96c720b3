from django.contrib import admin

from .models import (
    AuditEntry,
    Bid,
    BidAttachment,
    BidLineItem,
    CaseStudy,
    ChecklistCriterion,
    ChecklistSection,
    ChecklistTemplate,
    Decision,
    EvaluationSettings,
    Score,
    Vendor,
)


@admin.register(Vendor)
class VendorAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "kind", "region"]
    list_filter = ["kind", "organisation"]
    search_fields = ["name"]


class LineItemInline(admin.TabularInline):
    model = BidLineItem
    extra = 0


class AttachmentInline(admin.TabularInline):
    model = BidAttachment
    extra = 0
    readonly_fields = ["original_name", "kind", "size_bytes", "uploaded_by"]


@admin.register(Bid)
class BidAdmin(admin.ModelAdmin):
    list_display = ["vendor", "procurement", "accelerator", "gpu_count", "scheduler"]
    list_filter = ["scheduler"]
    inlines = [LineItemInline, AttachmentInline]


@admin.register(CaseStudy)
class CaseStudyAdmin(admin.ModelAdmin):
    list_display = ["vendor", "client_industry", "site_visit_done", "remote_demo_done"]


class CriterionInline(admin.TabularInline):
    model = ChecklistCriterion
    extra = 0


@admin.register(ChecklistSection)
class SectionAdmin(admin.ModelAdmin):
    list_display = ["title", "template", "weight", "auto_price", "position"]
    inlines = [CriterionInline]


class SectionInline(admin.TabularInline):
    model = ChecklistSection
    extra = 0


@admin.register(ChecklistTemplate)
class TemplateAdmin(admin.ModelAdmin):
    list_display = ["name", "organisation", "is_default"]
    inlines = [SectionInline]


@admin.register(EvaluationSettings)
class EvaluationSettingsAdmin(admin.ModelAdmin):
    list_display = ["procurement", "blind_grading", "sealed_envelope", "scoring_closed"]


@admin.register(Score)
class ScoreAdmin(admin.ModelAdmin):
    list_display = ["bid", "criterion", "evaluator", "points"]


@admin.register(Decision)
class DecisionAdmin(admin.ModelAdmin):
    list_display = ["procurement", "bid", "decided_by", "decided_at"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "procurement", "bid", "actor", "action", "target"]
    readonly_fields = [f.name for f in AuditEntry._meta.fields]
