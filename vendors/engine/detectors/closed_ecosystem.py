"""``closed_ecosystem``: the buyer locked out of its own cluster - root or cluster-admin
access withheld, the native scheduler wrapped or absent, jobs submitted only through
the vendor's platform, licence fees per GPU or node, expansion tied to a licence - or
only proprietary cluster software, no Slurm/Kubernetes (issue 24)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .findings import Fact, FactCode, Pitfall, PitfallCode, fact, pitfall
from .stack import names_a_scheduler, offered_stack
from .text import is_negated, sentence_span, snippet

_LOCKED_ROOT = ("no", "limited")
_LOCKED_SCHEDULER = ("wrapped", "none")
_ROOT = r"(?:root|超级用户|管理员|cluster[- ]admin|administrator|sudo)"
# What the text (or a structured answer) says that locks the buyer out; each is a
# fact of access or licence, read where the text asserts it.
_LOCKS = {
    "root_access": re.compile(
        rf"(?:不(?:提供|开放|开通|授予|交付)|无法(?:获得|提供)|不具备|无){_ROOT}"
        rf"|不(?:向|对|给)[^。，,；;\n]{{0,8}}?(?:提供|开放|开通|授予)\s*{_ROOT}"
        rf"|{_ROOT}\s*(?:权限|账号|账户|access)?\s*(?:(?:由|归)(?:我方|我司|厂商|原厂)"
        r"(?:保留|持有|管理)|仅(?:限|由|对)|(?:不|暂不)(?:对|向)(?:用户|甲方|采购人)"
        r"|受限|有限|limited|withheld|(?:is|are) (?:not|retained)|reserved for)"
        rf"|(?:no|without|limited|restricted) {_ROOT}",
        re.IGNORECASE,
    ),
    "job_submission": re.compile(
        r"(?:仅|只)(?:能|可|支持)?(?:通过|经由|使用|在)[^。；;，,\n]{0,24}?"
        r"(?:平台|门户|控制台|界面|客户端|portal|console|GUI|SDK|API)"
        r"|(?:必须|须|统一|均需|均须|均|一律|全部|只能)(?:通过|经由|使用|在)[^。；;，,\n]{0,24}?"
        r"(?:平台|门户|控制台|界面|客户端|SDK)[^。；;\n]{0,12}?提交"
        r"|\bonly (?:through|via|from|using) (?:the |our |its )?[\w-]*\s*"
        r"(?:platform|portal|console|GUI|SDK|API)",
        re.IGNORECASE,
    ),
    "licence_fee": re.compile(
        r"(?:按|每)\s*(?:每)?\s*(?:卡|GPU|张|节点|台|node|计算节点|纳管节点)[^。；;\n]{0,16}?"
        r"(?:授权|许可|licen|订阅|年费|服务费|收费|收取|计费)"
        r"|(?:授权|许可|licen[cs]e|订阅|subscription)\s*(?:费|fees?)?[^。；;\n]{0,16}?"
        r"(?:元|CNY|RMB|¥|￥|\$)?\s*\d[\d,.]*\s*(?:元|万元|万)?\s*(?:/|每|per)\s*"
        r"(?:卡|GPU|张|节点|台|node|card)"
        r"|per[- ](?:GPU|node|card)\s+(?:licen[cs]e|subscription|fee)",
        re.IGNORECASE,
    ),
    "expansion_terms": re.compile(
        r"(?:扩容|扩展|扩建|新增节点|新增\s*GPU|后续增加|expan\w+|additional (?:nodes|GPUs)"
        r"|scale[- ]out)[^。；;\n]{0,30}?(?<![不无])(?:须|需|必须|应|均需|must|requires?|shall)"
        r"[^。；;\n]{0,20}?(?:购买|采购|授权|许可|licen|订阅|我方平台|我司平台)",
        re.IGNORECASE,
    ),
}
# A determiner just before the fact denies it: 无按卡授权费, 免收, "no per-GPU fee".
_DENIED = re.compile(
    r"(?:无|没有|不设|不存在|免收|免除|免|不收取|不含|\bno|\bwithout|\bzero)\s*$",
    re.IGNORECASE,
)
_NO_FEE = re.compile(
    r"^\s*(?:无|没有|免费|不收取|不收费|0|0\.0+|none|no|n/?a|free|nil|-)\b"
    r"|^\s*(?:无|免费|不收取|不收费)",
    re.IGNORECASE,
)

_PROPRIETARY = re.compile(
    r"proprietary|in-house (?:scheduler|platform)|our own (?:scheduler|platform)"
    r"|only (?:supports?|runs? on|works? with) (?:our|its|the vendor's)"
    r"|exclusively on (?:our|its)"
    r"|自研(?:调度|平台|集群管理|管理平台)|专有|私有(?:调度|平台)|闭源"
    r"|(?:仅|只)(?:支持|能使用|能运行于|可使用|适配)(?:我方|我司|本公司|自有|自研)",
    re.IGNORECASE,
)
_OPEN_FRAMEWORKS = re.compile(
    r"pytorch|tensorflow|jax|deepspeed|megatron|vllm|sglang|tensorrt|nccl|colossal"
    r"|paddle|mindspore|huggingface|transformers",
    re.IGNORECASE,
)


def detect_closed_ecosystem(
    scheduler: str,
    frameworks: Sequence[str],
    proposal_text: str,
    *,
    root_access: str = "",
    native_scheduler_access: str = "",
    job_submission: str = "",
    licence_fee: str = "",
    expansion_terms: str = "",
) -> list[Pitfall]:
    """Flag a cluster the buyer cannot run without the vendor.

    Access and licence facts first, as the RFP asks them and as the text states them
    (the quoted sentence is the evidence): root or cluster-admin access "no" or
    "limited"; native scheduler access "wrapped" or "none"; jobs submitted only
    through the vendor's platform; a licence fee per GPU or node; expansion that must
    buy the vendor's licence. Any of them flags the bid whatever its scheduler field
    says ("slurm" in the field does not open a platform that wraps it).

    Without such a fact, the old rule: a proprietary scheduler with no Slurm/Kubernetes
    path (``stack.offered_stack``; "兼容 Slurm 作业脚本" emulates Slurm and offers
    nothing) - "does not support Slurm or Kubernetes", "仅支持我方平台", a named
    non-open scheduler, a framework list with no open framework.
    """
    signals: list[str] = []
    facts: list[Fact] = []
    if root_access.strip().lower() in _LOCKED_ROOT:
        facts.append(fact(FactCode.ACCESS, field="root_access", value=root_access))
    if native_scheduler_access.strip().lower() in _LOCKED_SCHEDULER:
        facts.append(
            fact(
                FactCode.ACCESS,
                field="native_scheduler_access",
                value=native_scheduler_access,
            )
        )
    answers = {
        "job_submission": job_submission,
        "licence_fee": "" if _NO_FEE.search(licence_fee) else licence_fee,
        "expansion_terms": expansion_terms,
    }
    for field_name, pattern in _LOCKS.items():
        for source in (answers.get(field_name, ""), proposal_text):
            signals.extend(_asserted(pattern, source))
    if signals or facts:
        return [_finding(dict.fromkeys(signals), facts)]
    offer = offered_stack(scheduler, frameworks, proposal_text)
    if offer.open_scheduler:
        return []
    if names_a_scheduler(scheduler):
        facts.append(fact(FactCode.SCHEDULER, name=scheduler.strip()))
    for match in _PROPRIETARY.finditer(proposal_text):
        if is_negated(proposal_text, match.start(), match.end()):
            continue  # "no proprietary lock-in", "并非闭源"
        signals.append(
            f"“{match.group(0)}”: {snippet(proposal_text, match.start(), match.end())}"
        )
    signals.extend(offer.refused)  # “Slurm or Kubernetes”: … does not support …
    offers_open_framework = any(_OPEN_FRAMEWORKS.search(name) for name in frameworks)
    if frameworks and not offers_open_framework:
        facts.append(fact(FactCode.FRAMEWORKS, names=tuple(frameworks)))
    if not signals and not facts:
        return []
    return [_finding(signals, facts)]


def _asserted(pattern: re.Pattern[str], text: str) -> list[str]:
    found = []
    for match in pattern.finditer(text):
        if is_negated(text, match.start(), match.end()) or _DENIED.search(
            text[max(0, match.start() - 8) : match.start()]
        ):
            continue  # "不按卡收取授权费", "无按卡授权费", "no per-GPU licence"
        start, end = sentence_span(text, match.start())
        found.append(f"“{match.group(0).strip()}”: {' '.join(text[start:end].split())}")
    return found


def _finding(signals, facts: list[Fact]) -> Pitfall:
    return pitfall(
        PitfallCode.CLOSED_ECOSYSTEM,
        "The buyer would be locked into the vendor's software: no open scheduler, "
        "root or cluster-admin access withheld, or licences per GPU or for expansion.",
        "采购人将被锁定在厂商软件上：未提供开放调度器，或不开放超级用户、集群管理员权限，"
        "或按卡/按节点收取许可费、扩容须购买许可。",
        *signals,
        facts=tuple(facts),
    )
