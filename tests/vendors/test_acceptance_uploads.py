# ruff: noqa: F811 (the fixtures imported from the support modules)
"""Every tool's log pushed through the API (issue 26): DCGM, fio, mdtest, ib_write_bw
and hccl_test answer 201 with their verdicts, a truncated copy answers 400 saying
so and saves nothing; per-node all-reduce logs of a 4-node cluster name the node
below 0.9 x the fleet's median as a straggler, which fails. Samples:
tests/vendors/engine/acceptance/samples/README.md."""

import io

import pytest

from tests.vendors.acceptance_support import (  # noqa: F401 (fixture)
    NCCL_2NODE,
    decided,
    decided_bid,
    one_node_all_reduce,
    sample,
)
from tests.vendors.test_prescoring import planned  # noqa: F401 (fixture)
from vendors.models import AcceptanceAttempt, AcceptanceVerdict, AuditEntry


def url(procurement, tail=""):
    return f"/api/v1/procurements/{procurement.pk}/acceptance/{tail}"


def upload(api, procurement, data, name="log.txt", **fields):
    log = io.BytesIO(data)
    log.name = name
    return api.post(
        url(procurement, "results/"),
        {"file": log, **fields},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )


@pytest.fixture
def h100_api(decided, api_for, procurement, it_lead):
    api = api_for(it_lead)
    assert api.post(url(procurement), {}, format="json").status_code == 201
    return api


def only(body):
    return [
        (v["clause"], v["node"], v["measured"], v["required"], v["passed"])
        for v in body["verdicts"]
    ]


def test_dcgm_level_1_run_is_a_skipped_level_3_and_fails(h100_api, procurement):
    # DCGM 3.1.0, 8 GPUs, level-1 tests only (Deployment): the plan asks -r 3
    response = upload(
        h100_api,
        procurement,
        sample("dcgm_3.1.0_diag_8gpu.json"),
        name="dcgm.json",
        node="gpu-01",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["tool"], body["tool_version"]) == ("dcgm", "3.1.0")
    assert only(body) == [("dcgm_diag_l3", "gpu-01", 0.0, None, False)]
    assert "skipped: no level 2/3 test in the log" in body["verdicts"][0]["reason"]


def test_fio_write_against_the_bid_storage_figure(h100_api, procurement):
    # fio 3.1 sequential write: bw_bytes 1,795,638,860 B/s = 1.80 GB/s < 40 GB/s
    response = upload(h100_api, procurement, sample("fio_3.1_seqwrite.json"))
    assert response.status_code == 201, response.content
    [(clause, node, measured, required, passed)] = only(response.json())
    assert (clause, node, required, passed) == ("fio_write", None, 40.0, False)
    assert measured == pytest.approx(1.7956, abs=1e-4)


def test_mdtest_records_the_create_rate(h100_api, procurement):
    # DAOS's mdtest example: File creation mean 2943.686 ops/s; the plan holds no
    # metadata figure, so it is recorded against no threshold
    response = upload(h100_api, procurement, sample("mdtest_3.4.0_daos.txt"))
    assert response.status_code == 201, response.content
    assert only(response.json()) == [("fio_metadata", None, 2943.686, None, True)]


def test_ib_write_bw_of_a_100g_nic_fails_a_400g_clause(h100_api, procurement):
    # median of the >= 64 KiB rows 92.395 Gb/s = 11.55 GB/s < 0.9 x 0.97 x 50 GB/s
    response = upload(
        h100_api, procurement, sample("ib_write_bw_100g_sweep.txt"), node="gpu-01"
    )
    assert response.status_code == 201, response.content
    [(clause, node, measured, required, passed)] = only(response.json())
    assert (clause, node, required, passed) == (
        "ib_write_bw_nic",
        "gpu-01/mlx5_0",
        43.65,
        False,
    )
    assert measured == pytest.approx(11.549375, abs=1e-9)


@pytest.mark.parametrize(
    "name, node, cut, why",
    [
        ("dcgm_3.1.0_diag_8gpu.json", "gpu-01", 0.5, "dcgmi diag JSON is truncated"),
        ("fio_3.1_seqwrite.json", "", 0.5, "fio JSON is truncated"),
        ("mdtest_3.4.0_daos.txt", "", 0.5, "no '-- finished at' line"),
        ("ib_write_bw_100g_sweep.txt", "gpu-01", 0.5, "result table is cut off"),
        ("hpl_xhpl_2.3_stdout.txt", "gpu-01", 0.9, "no 'End of Tests.'"),
    ],
)
def test_a_truncated_log_answers_400_saying_so_and_saves_nothing(
    h100_api, procurement, name, node, cut, why
):
    data = sample(name)
    audit = AuditEntry.objects.count()
    response = upload(h100_api, procurement, data[: int(len(data) * cut)], node=node)
    assert response.status_code == 400
    message = response.json()["file"][0]
    assert message.startswith("This log cannot be graded: ") and why in message
    assert not AcceptanceAttempt.objects.exists()
    assert not AcceptanceVerdict.objects.exists()
    assert AuditEntry.objects.count() == audit


@pytest.fixture
def ascend_api(planned, org, procurement, manager, api_for, it_lead):
    decided_bid(procurement, org, manager, accelerator="ascend910b-oam-64gb")
    api = api_for(it_lead)
    assert api.post(url(procurement), {}, format="json").status_code == 201
    return api


def test_hccl_test_on_an_ascend_node(ascend_api, procurement):
    # Huawei's example sweep stops at 64 MB: below the 1 GiB plateau, so no figure
    # is graded and the clause fails saying why
    response = upload(
        ascend_api, procurement, sample("hccl_all_reduce_test_8npu.txt"), node="npu-01"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    [verdict] = body["verdicts"]
    assert (verdict["clause"], verdict["measured"], verdict["passed"]) == (
        "hccl_all_reduce_node",
        None,
        False,
    )
    assert "below the 1 GiB plateau floor" in verdict["reason"]
    cut = sample("hccl_all_reduce_test_8npu.txt")[:544]
    response = upload(ascend_api, procurement, cut, node="npu-01")
    assert response.status_code == 400
    assert "hccl_test log is truncated" in response.json()["file"][0]
    assert AcceptanceAttempt.objects.count() == 1


@pytest.fixture
def four_node_api(planned, org, procurement, manager, api_for, it_lead):
    decided_bid(procurement, org, manager, gpu_count=32, nodes=4)
    api = api_for(it_lead)
    assert api.post(url(procurement), {}, format="json").status_code == 201
    return api


def test_a_node_below_the_fleet_median_is_named_and_fails(four_node_api, procurement):
    """Four 8-GPU nodes, each one's all_reduce_perf log (the OCI run made per node):
    481.02, 432.20, 480.62, 480.18 GB/s. The threshold 0.9 x 480/450 x 450 = 432
    is met by all four, but the fleet's median is (480.18 + 480.62) / 2 = 480.40 and
    gpu-02's 432.20 < 0.9 x 480.40 = 432.36: a straggler, failed."""
    figures = {"gpu-01": 481.02, "gpu-02": 432.20, "gpu-03": 480.62, "gpu-04": 480.18}
    responses = [
        upload(
            four_node_api,
            procurement,
            one_node_all_reduce(sample(NCCL_2NODE), host, busbw),
            name=f"all_reduce_{host}.txt",
        )
        for host, busbw in figures.items()
    ]
    assert [r.status_code for r in responses] == [201] * 4
    last = responses[-1].json()
    assert last["stragglers"] == ["gpu-02"], [only(r.json()) for r in responses]
    verdicts = {v["node"]: v for v in last["verdicts"]}
    assert {n: (v["measured"], v["passed"]) for n, v in verdicts.items()} == {
        "gpu-01": (481.02, True),
        "gpu-02": (432.2, False),
        "gpu-03": (480.62, True),
        "gpu-04": (480.18, True),
    }
    assert all(v["clause"] == "nccl_all_reduce_node" for v in verdicts.values())
    assert "straggler" in verdicts["gpu-02"]["reason"]
    assert "not met" not in verdicts["gpu-02"]["reason"]
    # with only two nodes in, 432.20 was no straggler against (481.02 + 432.20) / 2
    assert responses[1].json()["stragglers"] == []
    plan = four_node_api.get(url(procurement)).json()
    assert plan["stragglers"] == ["gpu-02"]
    status = {c["key"]: c["status"] for c in plan["clauses"]}
    assert status["nccl_all_reduce_node"] == "failed"
