"""Parsers on real-format samples (samples/README.md names each source); expected
values read off the sample files by hand."""

import pytest

from vendors.engine.acceptance import LogFormatError, Measurement, parse_log


def test_nccl_text_grades_the_plateau_median_not_avg_bus_bandwidth(sample):
    # Rows >= 4 GiB (a quarter of 16 GiB): 455.95, 468.09, 472.35 -> median 468.09;
    # the footer's "Avg bus bandwidth : 91.2553" averages 8 B..16 GB and is ignored.
    log = parse_log(sample("nccl_all_reduce_2node_dgx_h100_sweep.txt"))
    assert log.tool == "nccl"
    assert log.hosts == ("dgx-06", "dgx-07")
    assert log.gpu_count == 16
    assert log.measurements == (
        Measurement("busbw_gbs", 468.09, "GB/s", None, 4294967296),
    )
    assert log.failures == ()


def test_nccl_text_two_oci_nodes(sample):
    # 461.83, 463.90, 464.57 at 4, 8, 16 GiB -> 463.90
    log = parse_log(sample("nccl_all_reduce_2node_h100_oci.txt"))
    assert log.hosts == ("inst-xxxxx-h100-ol89", "inst-yyyyy-h100-ol89")
    assert log.measurements[0].value == 463.90


def test_nccl_json_reads_the_same_run(sample):
    log = parse_log(sample("nccl_all_reduce_2node_h100.json"))
    assert log.operation == "all_reduce"
    assert log.tool_version == "22105"
    assert log.gpu_count == 16
    assert log.measurements[0].value == 463.90


def test_nccl_wrong_elements_fail_whatever_the_bandwidth(sample):
    text = sample("nccl_all_reduce_2node_h100_oci.txt").decode()
    text = text.replace("463.90      0    34720", "463.90      3    34720").replace(
        "Out of bounds values : 0 OK", "Out of bounds values : 3 FAILED"
    )
    log = parse_log(text.encode())
    assert log.failures == (
        "#wrong = 3 at 8589934592 B",
        "Out of bounds values : 3 FAILED",
    )
    assert log.measurements[0].value == 463.90


def test_nccl_json_nwrong_and_out_of_bounds(sample):
    text = sample("nccl_all_reduce_2node_h100.json").decode()
    text = text.replace('"count": 0', '"count": 2', 1)
    assert parse_log(text.encode()).failures == ("Out of bounds values : 2 FAILED",)


def test_nccl_run_below_one_gib_has_no_plateau(sample):
    lines = sample("nccl_all_reduce_2node_dgx_h100_sweep.txt").decode().split("\n")
    kept = [
        ln
        for ln in lines
        if not ln.strip() or ln.startswith("#") or int(ln.split()[0]) <= 268435456
    ]
    log = parse_log("\n".join(kept).encode())
    assert log.measurements == ()
    assert log.failures == (
        "largest message 268435456 B is below the 1 GiB plateau floor",
    )


def test_nccl_concatenated_single_node_runs_give_one_figure_per_host(sample):
    text = sample("nccl_all_reduce_2node_h100_oci.txt").decode()
    head, table = text.split("#\n#   ", 1)
    node_a = "\n".join(ln for ln in head.split("\n") if "yyyyy" not in ln)
    node_b = "\n".join(ln for ln in head.split("\n") if "xxxxx" not in ln)
    run_b = (
        (node_b + "\n#\n#   " + table)
        .replace("464.57", "380.00")
        .replace("463.90", "381.00")
        .replace("461.83", "379.00")
    )
    log = parse_log((node_a + "\n#\n#   " + table + run_b).encode())
    assert [(m.node, m.value) for m in log.measurements] == [
        ("inst-xxxxx-h100-ol89", 463.90),
        ("inst-yyyyy-h100-ol89", 380.00),
    ]
    assert log.gpu_count == 8


@pytest.mark.parametrize(
    "cut, reason",
    [
        ("# Out of bounds", "no 'Out of bounds values' footer after 17179869184 B"),
        ("  4294967296", "no 'Out of bounds values' footer after 2147483648 B"),
        ("#       size", "no result rows"),
    ],
)
def test_nccl_truncated_text_says_where(sample, cut, reason):
    text = sample("nccl_all_reduce_2node_h100_oci.txt").decode()
    with pytest.raises(LogFormatError, match="truncated") as info:
        parse_log(text[: text.index(cut)].encode())
    assert reason in str(info.value)


def test_nccl_corrupted_row(sample):
    text = sample("nccl_all_reduce_2node_h100_oci.txt").decode()
    with pytest.raises(LogFormatError, match="corrupted nccl-tests busbw"):
        parse_log(text.replace("463.90", "46#.90").encode())


def test_nccl_truncated_json(sample):
    data = sample("nccl_all_reduce_2node_h100.json")
    with pytest.raises(LogFormatError, match="truncated or corrupted: it ends early"):
        parse_log(data[: len(data) // 2])


def test_dcgm_3x_version_and_eight_gpus_but_level_one_only(sample):
    log = parse_log(sample("dcgm_3.1.0_diag_8gpu.json"))
    assert (log.tool, log.tool_version, log.gpu_count) == ("dcgm", "3.1.0", 8)
    assert log.failures == ()
    assert log.skipped == ("no level 2/3 test in the log (Deployment only): run -r 3",)
    assert log.measurements == (Measurement("pass", 0.0, ""),)


def test_dcgm_3x_skipped_tests_are_not_a_pass(sample):
    log = parse_log(sample("dcgm_3x_r3_skipped_t400.json"))
    assert log.tool_version == "3.x (version not in the log)"
    assert log.skipped == (
        "PCIe: GPU 0 skip",
        "GPU Memory: GPU 0 skip",
        "Diagnostic: GPU 0 skip",
        "EUD Test: GPU 0 skip",
        "Targeted Stress: GPU 0 skip",
    )
    assert log.measurements[0].value == 0.0


def test_dcgm_4x_schema_version_from_metadata_and_the_warning_kept(sample):
    log = parse_log(sample("dcgm_4.2.3_diag_gb10.json"), node="spark-1")
    assert log.tool_version == "4.2.3"
    assert log.gpu_count == 1
    assert log.hosts == ("spark-1",)
    assert log.failures[0].startswith("software: GPU 0 fail: Persistence Mode:")


def test_dcgm_4x_all_pass_level_three_passes(sample):
    text = sample("dcgm_4.2.3_diag_gb10.json").decode()
    text = text.replace('"Fail"', '"Pass"').replace('"software"', '"targeted_stress"')
    log = parse_log(text.encode())
    assert (log.failures, log.skipped) == ((), ())
    assert log.measurements == (Measurement("pass", 1.0, ""),)


def test_dcgm_unknown_status_is_a_failure(sample):
    text = (
        sample("dcgm_4.2.3_diag_gb10.json").decode().replace('"Fail"', '"Inconclusive"')
    )
    assert (
        parse_log(text.encode()).failures[0].startswith("software: GPU 0 inconclusive")
    )


def test_dcgm_truncated(sample):
    data = sample("dcgm_4.2.3_diag_gb10.json")
    with pytest.raises(
        LogFormatError, match="dcgmi diag JSON is truncated or corrupted"
    ):
        parse_log(data[:700])


def test_hpl_tflops_and_residual(sample):
    log = parse_log(sample("hpl_xhpl_2.3_stdout.txt"), node="epyc-1")
    assert log.tool_version == "HPLinpack 2.3"
    assert log.measurements == (Measurement("tflops", 1.1155, "TFLOPS", "epyc-1"),)
    assert log.failures == ()


def test_hpl_failed_residual_fails(sample):
    text = (
        sample("hpl_xhpl_2.3_stdout.txt")
        .decode()
        .replace("...... PASSED", "...... FAILED")
    )
    log = parse_log(text.encode())
    assert log.failures == (
        "residual check FAILED (4.04947690e-03) for WR12R2R4 N=114000",
    )
    assert log.measurements == ()


def test_hpl_truncated_before_the_residual(sample):
    text = sample("hpl_xhpl_2.3_stdout.txt").decode()
    with pytest.raises(LogFormatError, match="1 result line\\(s\\), 0 residual"):
        parse_log(text[: text.index("||Ax-b||_oo/(eps")].encode())


def test_fio_3_1_write_bandwidth_from_kib(sample):
    # bw 1753471 KiB/s x 1024 = 1,795,554,304 B/s
    log = parse_log(sample("fio_3.1_seqwrite.json"))
    assert log.measurements == (
        Measurement("write_gbs", 1.795554304, "GB/s"),
        Measurement("write_iops", 438367.892977, "IOPS"),
    )
    assert log.operation == "write"


def test_fio_3_42_bw_bytes_after_a_text_preamble(sample):
    log = parse_log(sample("fio_3.42_randwrite_json_and_normal.txt"))
    assert log.tool_version == "fio-3.42-6-g219f"
    assert log.measurements[0] == Measurement("write_gbs", 0.005096143, "GB/s")


def test_fio_two_jobs_are_summed(sample):
    import json

    doc = json.loads(sample("fio_3.1_seqwrite.json"))
    doc["jobs"].append(doc["jobs"][0])
    log = parse_log(json.dumps(doc).encode())
    assert log.measurements[0].value == 2 * 1.795554304


def test_fio_truncated(sample):
    with pytest.raises(LogFormatError, match="fio JSON is truncated or corrupted"):
        parse_log(sample("fio_3.1_seqwrite.json")[:900])


def test_mdtest_file_creation_mean(sample):
    log = parse_log(sample("mdtest_3.4.0_daos.txt"))
    assert log.tool_version == "mdtest-3.4.0+dev"
    assert log.measurements[0] == Measurement("creates_per_s", 2943.686, "ops/s")


def test_mdtest_truncated(sample):
    text = sample("mdtest_3.4.0_daos.txt").decode()
    with pytest.raises(LogFormatError, match="no '-- finished at' line"):
        parse_log(text[: text.index("-- finished")].encode())


def test_ib_write_bw_median_of_large_messages_in_gbytes(sample):
    # >= 64 KiB: 92.38 92.41 92.44 92.42 92.40 92.39 92.39 92.39 Gb/s
    # median (92.39 + 92.40) / 2 = 92.395 Gb/s = 11.549375 GB/s
    log = parse_log(sample("ib_write_bw_100g_sweep.txt"), node="gpu01")
    (m,) = log.measurements
    assert (m.metric, m.node, m.size_bytes) == ("bw_gbs", "gpu01/mlx5_0", 8388608)
    assert m.value == pytest.approx(11.549375, abs=1e-9)


def test_ib_write_bw_server_side_is_refused(sample):
    text = sample("ib_write_bw_100g_sweep.txt").decode()
    with pytest.raises(LogFormatError, match="server side prints none"):
        parse_log(text[: text.index(" #bytes")].encode())


def test_ib_write_bw_cut_table(sample):
    text = sample("ib_write_bw_100g_sweep.txt").decode()
    with pytest.raises(LogFormatError, match="result table is cut off"):
        parse_log(text[: text.index(" 131072")].encode())


def test_ib_write_bw_cut_inside_a_row_is_truncated_not_corrupted(sample):
    text = sample("ib_write_bw_100g_sweep.txt").decode()
    cut = text.index(" 2097152    5000") + len(" 2097152    5000")
    with pytest.raises(LogFormatError, match="truncated: it ends in a row '2097152"):
        parse_log(text[:cut].encode())
    # the same row broken in the middle of the table is corrupted
    broken = text.replace(" 2097152    5000             92.40", " 2097152    5000   x")
    with pytest.raises(LogFormatError, match="ib_write_bw row is corrupted"):
        parse_log(broken.encode())


def test_hccl_small_messages_never_reach_the_plateau(sample):
    log = parse_log(sample("hccl_all_reduce_test_8npu.txt"))
    assert log.measurements == ()
    assert log.failures == (
        "largest message 67108864 B is below the 1 GiB plateau floor",
    )


def test_hccl_large_messages_and_a_failed_check(sample):
    text = (
        sample("hccl_all_reduce_test_8npu.txt")
        .decode()
        .replace("avg_time", "aveg_time")
    )
    text += (
        "1073741824        |   12010.00    |      89.40000        | success\n"
        "2147483648        |   23900.00    |      89.85000        | failed\n"
        "4294967296        |   47700.00    |      90.04000        | success\n"
    )
    log = parse_log(text.encode())
    # >= max(1 GiB, 4 GiB / 4): all three rows -> median 89.85
    assert log.measurements == (
        Measurement("algbw_gbs", 89.85, "GB/s", None, 1073741824),
    )
    assert log.failures == ("check_result failed at 2147483648 B",)


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "empty"),
        (b"\x00\x01\x02binary", "binary"),
        (b"\xff\xfe\xfa not utf8", "not UTF-8"),
        (b"Hello, this is a README\n", "foreign log"),
        (b'{"some": "json"}', "foreign log"),
    ],
)
def test_unreadable_or_foreign_logs_say_why(data, reason):
    with pytest.raises(LogFormatError, match=reason):
        parse_log(data)


def test_explicit_tool_checks_the_format(sample):
    with pytest.raises(LogFormatError, match="not HPL output"):
        parse_log(sample("mdtest_3.4.0_daos.txt"), tool="hpl")
    with pytest.raises(LogFormatError, match="unknown tool"):
        parse_log(b"x", tool="iperf")
