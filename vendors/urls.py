from django.urls import path

from .portal.urls import urlpatterns as portal_urlpatterns
from .views import (
    acceptance,
    aliases,
    attachments,
    bids,
    checklists,
    committee,
    comparison,
    corrections,
    evaluation,
    line_items,
    price_justifications,
    rfp,
    rfp_invitations,
    suppliers,
    tender,
)

app_name = "vendors"
P = "procurements/<int:pk>"
B = f"{P}/bids/<int:bid_pk>"

urlpatterns = [
    path("vendors/", suppliers.vendor_list, name="vendor-list"),
    path("vendors/<int:pk>/", suppliers.vendor_detail, name="vendor-detail"),
    path(
        "vendors/line-item-template.<str:fmt>",
        line_items.line_item_template,
        name="line-item-template",
    ),
    path("vendors/checklists/", checklists.checklist_list, name="checklist-list"),
    path(
        "vendors/checklists/<int:pk>/", checklists.checklist_edit, name="checklist-edit"
    ),
    path(
        "vendors/checklists/<int:pk>/copy/",
        checklists.checklist_copy,
        name="checklist-copy",
    ),
    path(
        "vendors/checklists/<int:pk>/delete/",
        checklists.checklist_delete,
        name="checklist-delete",
    ),
    path(f"{P}/bids/", bids.bids, name="bids"),
    path(f"{P}/bids/new/", bids.bid_form, name="bid-create"),
    path(f"{B}/", bids.bid_detail, name="bid-detail"),
    path(f"{B}/edit/", bids.bid_form, name="bid-edit"),
    path(f"{B}/delete/", bids.bid_delete, name="bid-delete"),
    path(
        f"{B}/corrections/",
        corrections.correction_request,
        name="bid-correction-request",
    ),
    path(f"{B}/line-items/", line_items.line_item_add, name="line-item-add"),
    path(
        f"{B}/line-items/<int:item_pk>/delete/",
        line_items.line_item_delete,
        name="line-item-delete",
    ),
    path(
        f"{B}/line-items/import/", line_items.line_item_import, name="line-item-import"
    ),
    path(f"{B}/attachments/", attachments.attachment_upload, name="attachment-upload"),
    path(
        f"{B}/attachments/<int:attachment_pk>/",
        attachments.attachment_download,
        name="attachment-download",
    ),
    path(f"{B}/scores/", evaluation.score, name="score"),
    path(f"{P}/evaluation/submit/", evaluation.submit_scores, name="submit-scores"),
    path(
        f"{P}/evaluation/", evaluation.evaluation_settings, name="evaluation-settings"
    ),
    path(f"{P}/blind-preview/", aliases.blind_preview, name="blind-preview"),
    path(f"{P}/blind-preview/alias/", aliases.blind_alias, name="blind-alias"),
    path(f"{P}/comparison/", comparison.comparison_page, name="comparison"),
    path(f"{P}/tender/", tender.tender_page, name="tender"),
    path(
        f"{P}/tender/qualification/<int:bid_pk>/",
        tender.tender_qualification,
        name="tender-qualification",
    ),
    path(
        f"{P}/tender/declarations/",
        tender.tender_declarations,
        name="tender-declarations",
    ),
    path(
        f"{P}/committee/",
        committee.committee_page,
        name="committee",
    ),
    path(
        f"{P}/committee/roster/",
        committee.committee_roster,
        name="committee-roster",
    ),
    path(
        f"{P}/committee/scores/",
        committee.committee_scores,
        name="committee-scores",
    ),
    path(
        f"{P}/committee/submit/",
        committee.committee_submit,
        name="committee-submit",
    ),
    path(
        f"{P}/committee/summation/",
        committee.committee_summation,
        name="committee-summation",
    ),
    path(
        f"{P}/committee/change/",
        committee.committee_change,
        name="committee-change",
    ),
    path(
        f"{P}/committee/dissent/",
        committee.committee_dissent,
        name="committee-dissent",
    ),
    path(
        f"{P}/committee/price-justifications/",
        price_justifications.justification_request,
        name="committee-justification-request",
    ),
    path(
        f"{P}/committee/price-justifications/judgement/",
        price_justifications.justification_judgement,
        name="committee-justification-judgement",
    ),
    path(
        f"{P}/committee/report/",
        committee.committee_report,
        name="committee-report",
    ),
    path(
        f"{P}/committee/report.pdf",
        committee.committee_report_pdf,
        name="committee-report-pdf",
    ),
    path(
        f"{P}/comparison/weights/",
        comparison.comparison_weights,
        name="comparison-weights",
    ),
    path(
        f"{P}/comparison/export.<str:fmt>",
        comparison.comparison_export,
        name="comparison-export",
    ),
    path(f"{P}/rfp/", rfp.rfp_page, name="rfp"),
    path(f"{P}/rfp/pack.<str:fmt>", rfp.rfp_pack_download, name="rfp-pack"),
    path(f"{P}/rfp/addenda/", rfp.rfp_addendum, name="rfp-addendum"),
    path(f"{P}/decision/", evaluation.decision, name="decision"),
    path(
        f"{P}/decision/memo.pdf",
        evaluation.decision_memo_pdf,
        name="decision-memo",
    ),
]
A = f"{P}/acceptance"
urlpatterns += [
    path(f"{A}/", acceptance.acceptance_page, name="acceptance"),
    path(f"{A}/plan/", acceptance.acceptance_create, name="acceptance-create"),
    path(f"{A}/results/", acceptance.acceptance_upload, name="acceptance-upload"),
    path(f"{A}/measure/", acceptance.acceptance_measure, name="acceptance-measure"),
    path(
        f"{A}/threshold/", acceptance.acceptance_threshold, name="acceptance-threshold"
    ),
    path(f"{A}/delivery/", acceptance.acceptance_delivery, name="acceptance-delivery"),
    path(f"{A}/sign/", acceptance.acceptance_sign, name="acceptance-sign"),
    path(
        f"{A}/certificate.pdf",
        acceptance.acceptance_certificate_pdf,
        name="acceptance-certificate",
    ),
]
# The buyer's side of the RFP: invitations, answers to questions, the opening.
R = f"{P}/rfp"
urlpatterns += [
    path(f"{R}/invitations/", rfp_invitations.rfp_invitations, name="rfp-invitations"),
    path(
        f"{R}/invitations/<int:inv_pk>/resend/",
        rfp_invitations.invitation_resend,
        name="rfp-invitation-resend",
    ),
    path(
        f"{R}/invitations/<int:inv_pk>/revoke/",
        rfp_invitations.invitation_revoke,
        name="rfp-invitation-revoke",
    ),
    path(
        f"{R}/questions/<int:q_pk>/",
        rfp_invitations.question_answer,
        name="rfp-questions",
    ),
    path(
        f"{R}/questions/<int:q_pk>/review/",
        rfp_invitations.question_review,
        name="rfp-question-review",
    ),
    path(f"{R}/open/", rfp_invitations.rfp_open, name="rfp-open"),
]
urlpatterns += portal_urlpatterns
