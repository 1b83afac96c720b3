"""One rule for what a bid line's price also covers (vendors.engine.line_scope): the
declared scope wins; an empty one is read from a description that states it."""

import pytest

from vendors.engine.line_scope import described_scope, line_scope


@pytest.mark.parametrize(
    ("category", "description", "declared", "expected"),
    [
        # blind bid 20's kind of lump sum, stated with 含
        ("other", "服务包，含网络、存储及安装", (), ("network", "storage", "installation")),
        ("gpu_servers", "YZ-8H200智算一体柜（2节点/柜，含IB叶交换机）", (), ("network",)),
        ("other", "Turnkey package including InfiniBand fabric and Lustre storage",
         (), ("network", "storage")),
        # a negated inclusion covers nothing
        ("gpu_servers", "GPU 服务器（不含存储）", (), ()),
        # naming a category without an inclusion word is no scope
        ("network", "QM9700交换机", (), ()),
        ("storage", "并行文件系统 1.2PB", (), ()),
        # support is never read from a description (which years would it cover?)
        ("gpu_servers", "8×H200 服务器，含三年原厂维保", (), ()),
        # the declared scope wins over the description, and never lists its own
        ("other", "服务包，含网络、存储及安装", ("network",), ("network",)),
        ("network", "", ("network", "installation"), ("installation",)),
    ],
)  # fmt: skip
def test_line_scope(category, description, declared, expected):
    assert line_scope(category, description, declared) == expected


def test_a_line_never_covers_its_own_category():
    assert described_scope("network", "含交换机及光模块") == ()
