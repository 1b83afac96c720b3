from django.contrib import admin

from .models import (
    Accelerator,
    ModelPreset,
    NetworkOption,
    Requirement,
    ServerPlatform,
    SizingPlan,
    StorageTier,
    Workload,
)


@admin.register(Accelerator)
class AcceleratorAdmin(admin.ModelAdmin):
    list_display = (
        "key",
        "vendor",
        "model",
        "memory_gb",
        "bf16_dense_tflops",
        "cn_status",
        "global_status",
        "price",
        "price_currency",
        "price_date",
        "is_estimate",
        "updated_at",
    )
    list_filter = ("vendor", "ecosystem", "cn_status", "global_status", "is_estimate")
    search_fields = ("key", "model", "vendor")


@admin.register(ServerPlatform)
class ServerPlatformAdmin(admin.ModelAdmin):
    list_display = ("key", "name", "accelerator_key", "gpus_per_node", "node_max_kw")
    search_fields = ("key", "name", "accelerator_key")


@admin.register(NetworkOption)
class NetworkOptionAdmin(admin.ModelAdmin):
    list_display = ("key", "name", "kind", "port_gbps", "switch_radix")
    list_filter = ("kind",)


@admin.register(StorageTier)
class StorageTierAdmin(admin.ModelAdmin):
    list_display = ("key", "name", "kind", "read_gbs_per_node", "write_gbs_per_node")


@admin.register(ModelPreset)
class ModelPresetAdmin(admin.ModelAdmin):
    list_display = (
        "key",
        "name",
        "params_b",
        "layers",
        "hidden_size",
        "kv_heads",
        "moe_experts",
        "native_precision",
    )
    search_fields = ("key", "name")


@admin.register(Requirement)
class RequirementAdmin(admin.ModelAdmin):
    list_display = ("procurement", "scenario", "accelerator_key", "updated_at")
    raw_id_fields = ("procurement",)


@admin.register(Workload)
class WorkloadAdmin(admin.ModelAdmin):
    list_display = ("name", "procurement", "kind", "model_preset", "updated_at")
    raw_id_fields = ("procurement",)


@admin.register(SizingPlan)
class SizingPlanAdmin(admin.ModelAdmin):
    list_display = ("id", "procurement", "engine_version", "created_by", "created_at")
    raw_id_fields = ("procurement",)
    readonly_fields = ("result", "alternatives", "inputs")
