from django.urls import path

from . import views

app_name = "vendors"
P = "procurements/<int:pk>"
B = f"{P}/bids/<int:bid_pk>"

urlpatterns = [
    path("vendors/", views.vendor_list, name="vendor-list"),
    path("vendors/<int:pk>/", views.vendor_detail, name="vendor-detail"),
    path(
        "vendors/line-item-template.<str:fmt>",
        views.line_item_template,
        name="line-item-template",
    ),
    path("vendors/checklists/", views.checklist_list, name="checklist-list"),
    path("vendors/checklists/<int:pk>/", views.checklist_edit, name="checklist-edit"),
    path(
        "vendors/checklists/<int:pk>/copy/",
        views.checklist_copy,
        name="checklist-copy",
    ),
    path(
        "vendors/checklists/<int:pk>/delete/",
        views.checklist_delete,
        name="checklist-delete",
    ),
    path(f"{P}/bids/", views.bids, name="bids"),
    path(f"{P}/bids/new/", views.bid_form, name="bid-create"),
    path(f"{B}/", views.bid_detail, name="bid-detail"),
    path(f"{B}/edit/", views.bid_form, name="bid-edit"),
    path(f"{B}/delete/", views.bid_delete, name="bid-delete"),
    path(f"{B}/line-items/", views.line_item_add, name="line-item-add"),
    path(
        f"{B}/line-items/<int:item_pk>/delete/",
        views.line_item_delete,
        name="line-item-delete",
    ),
    path(f"{B}/line-items/import/", views.line_item_import, name="line-item-import"),
    path(f"{B}/attachments/", views.attachment_upload, name="attachment-upload"),
    path(
        f"{B}/attachments/<int:attachment_pk>/",
        views.attachment_download,
        name="attachment-download",
    ),
    path(f"{B}/scores/", views.score, name="score"),
    path(f"{P}/evaluation/submit/", views.submit_scores, name="submit-scores"),
    path(f"{P}/evaluation/", views.evaluation_settings, name="evaluation-settings"),
    path(f"{P}/comparison/", views.comparison_page, name="comparison"),
    path(
        f"{P}/comparison/weights/",
        views.comparison_weights,
        name="comparison-weights",
    ),
    path(
        f"{P}/comparison/export.<str:fmt>",
        views.comparison_export,
        name="comparison-export",
    ),
    path(f"{P}/decision/", views.decision, name="decision"),
]
