"""The hardware catalogue: loading sizing/data into the tables, and the engine's Catalog
built from them (so admin edits count), cached per process."""

from __future__ import annotations

import threading
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.db import connection, transaction

from sizing import reference_data
from sizing.engine import Catalog
from sizing.engine import catalog as engine_records
from sizing.models import (
    Accelerator,
    AcceleratorQuerySet,
    ModelPreset,
    NetworkOption,
    ServerPlatform,
    StorageTier,
)

CATALOG_MODELS = (Accelerator, ServerPlatform, NetworkOption, StorageTier, ModelPreset)


def as_decimal(value: float | None) -> Decimal | None:
    """A price as the tables store it: Decimal to the cent."""
    return None if value is None else Decimal(str(value)).quantize(Decimal("0.01"))


def _model_fields(model) -> set[str]:
    return {f.name for f in model._meta.concrete_fields} - {
        "id",
        "created_at",
        "updated_at",
    }


def _upsert(model, rows: list[dict[str, Any]]) -> dict[str, int]:
    fields = _model_fields(model)
    decimals = {
        f.name
        for f in model._meta.concrete_fields
        if f.get_internal_type() == "DecimalField"
    }
    created = updated = 0
    for row in rows:
        defaults = {}
        for name, value in row.items():
            if name not in fields or name == "key":
                continue
            if name in decimals:
                value = as_decimal(value)
            elif value is None and not model._meta.get_field(name).null:
                value = model._meta.get_field(name).get_default()
            defaults[name] = value
        _obj, was_created = model.objects.update_or_create(
            key=row["key"], defaults=defaults
        )
        created += was_created
        updated += not was_created
    return {"created": created, "updated": updated}


@transaction.atomic
def load_reference_catalog(
    *, data_dir: str | Path | None = None
) -> dict[str, dict[str, int]]:
    """Copy sizing/data into the catalogue tables (update_or_create by key).

    Idempotent: run twice, nothing doubles; rows edited in the admin are overwritten
    by the file's values, rows added in the admin are kept.
    """
    counts = {
        "accelerators": _upsert(
            Accelerator, reference_data.read_accelerator_rows(data_dir)
        ),
        "servers": _upsert(ServerPlatform, reference_data.read_server_rows(data_dir)),
        "networks": _upsert(NetworkOption, reference_data.read_network_rows(data_dir)),
        "storage_tiers": _upsert(
            StorageTier, reference_data.read_storage_rows(data_dir)
        ),
        "model_presets": _upsert(
            ModelPreset, reference_data.read_preset_rows(data_dir)
        ),
    }
    return counts


def ensure_catalog_loaded() -> bool:
    """Load the reference catalogue when the tables are empty; True when it loaded."""
    if Accelerator.objects.exists() and ModelPreset.objects.exists():
        return False
    load_reference_catalog()
    return True


def _float(value) -> float | None:
    return None if value is None else float(value)


def _row(obj, model) -> dict[str, Any]:
    row = {}
    for name in _model_fields(model):
        value = getattr(obj, name)
        row[name] = _float(value) if isinstance(value, Decimal) else value
    return row


def _catalog_from_db() -> Catalog:
    accelerators = {
        a.key: reference_data.accelerator_from_row(_row(a, Accelerator))
        for a in Accelerator.objects.all()
    }
    servers = {
        s.key: engine_records.ServerPlatform(**_row(s, ServerPlatform))
        for s in ServerPlatform.objects.all()
    }
    networks = {
        n.key: engine_records.NetworkOption(**_row(n, NetworkOption))
        for n in NetworkOption.objects.all()
    }
    storage = {
        t.key: engine_records.StorageTier(**_row(t, StorageTier))
        for t in StorageTier.objects.all()
    }
    presets = {
        p.key: reference_data.model_from_row(_row(p, ModelPreset))
        for p in ModelPreset.objects.all()
    }
    return Catalog(
        accelerators=accelerators,
        servers=servers,
        networks=networks,
        storage_tiers=storage,
        presets=presets,
    )


def catalog_version() -> tuple:
    """Row count and newest ``updated_at`` of every catalogue table, in one query.

    Any admin edit, addition or deletion changes it, so it keys the cache below.
    """
    quote = connection.ops.quote_name
    parts = []
    for model in CATALOG_MODELS:
        table = quote(model._meta.db_table)
        parts.append(f"(SELECT COUNT(*) FROM {table})")
        parts.append(f"(SELECT MAX({quote('updated_at')}) FROM {table})")
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts))
        return tuple(cursor.fetchone())


_catalog_lock = threading.Lock()
_catalog_cache: dict[str, Any] = {"version": None, "catalog": None}


def engine_catalog() -> Catalog:
    """The engine's Catalog built from the database rows (so admin edits count).

    Cached per process; one cheap query (``catalog_version``) per call decides whether
    the cache is stale. An empty database falls back to the shipped files, so a fresh
    install can size before ``manage.py load_catalog`` has run.
    """
    version = catalog_version()
    with _catalog_lock:
        if _catalog_cache["version"] == version:
            return _catalog_cache["catalog"]
    if version[0] == 0 and version[-2] == 0:
        catalog = reference_data.load_catalog()
    else:
        catalog = _catalog_from_db()
    with _catalog_lock:
        _catalog_cache.update(version=version, catalog=catalog)
    return catalog


def buyable_accelerators_for(*, procurement) -> AcceleratorQuerySet:
    """The catalogue rows a procurement can buy: available or conditional in its
    ``region`` (export rules). The one rule other apps use for their accelerator
    choices (sizing's questionnaire does)."""
    return Accelerator.objects.available_in(procurement.region)


def server_facts(*, accelerator_key: str) -> dict[str, Any] | None:
    """The server an accelerator comes in, as the TCO costs a bid on it: GPUs and
    compute NICs per node and its maximum power (the catalogue's, or derived from the
    GPU TDP: ``sizing.engine.platform.server_for``). None: unknown accelerator."""
    return _server_facts(engine_catalog(), accelerator_key)


def servers_facts(*, accelerator_keys) -> dict[str, dict[str, Any] | None]:
    """``server_facts`` for several accelerators, reading the catalogue once (a
    comparison's queries do not grow with the distinct accelerators offered)."""
    catalog = engine_catalog()
    return {key: _server_facts(catalog, key) for key in set(accelerator_keys)}


def _server_facts(catalog: Catalog, accelerator_key: str) -> dict[str, Any] | None:
    from ..engine.platform import server_for

    acc = catalog.accelerators.get(accelerator_key or "")
    if acc is None:
        return None
    server = server_for(acc, catalog)
    return {
        "server": server.key,
        "gpus_per_node": server.gpus_per_node,
        "node_max_kw": server.node_max_kw,
        "nic_count": server.nic_count,
        "nic_gbps": server.nic_gbps,
        "source": server.source,
    }
