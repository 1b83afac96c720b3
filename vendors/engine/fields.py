"""The editable fields of a vendor, a bid and a case study: one list each, shared by the
services that write them, the forms and the API serializers that accept them and the
audit trail that names them."""

from __future__ import annotations

VENDOR_FIELDS = (
    "name",
    "kind",
    "region",
    "contacts",
    "slurm_experience",
    "kubernetes_experience",
    "other_ecosystem_experience",
    "certifications",
    "notes",
    "aliases",
    "alias_exceptions",
)

BID_FIELDS = (
    "accelerator",
    "gpu_count",
    "nodes",
    "server_model",
    "scaleup_link",
    "scaleup_domain_gpus",
    "network_fabric",
    "network_gbps_per_gpu",
    "storage_tb",
    "storage_read_gbs",
    "storage_write_gbs",
    "cooling",
    "peak_power_kw",
    "delivery_weeks",
    "warranty_years",
    "support_channels",
    "response_hours",
    "onsite_hours",
    "availability_pct",
    "monitoring",
    "configurable_alerts",
    "scheduler",
    "frameworks",
    "team_engineers",
    "team_dl_experience",
    "team_scheduler_experience",
    "promised_training_days",
    "promised_tokens_per_s",
    "root_access",
    "native_scheduler_access",
    "job_submission",
    "licence_fee",
    "expansion_terms",
    "proposal_text",
)

CASE_STUDY_FIELDS = (
    "client_industry",
    "scenario",
    "challenge",
    "network_architecture",
    "storage_choice",
    "solution_details",
    "outcome_before",
    "outcome_after",
    "site_visit_done",
    "remote_demo_done",
    "reference_contacted",
)
