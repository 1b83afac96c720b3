"""The articles a statutory evaluation rests on, each quoted from the text it was read in.

A rule in this package carries the ``Article`` it applies, so a validator's message, a
report line and a reviewer can all point to the same sentence of law. ``primary`` says
whether the quote was read in the primary text; ``primary=False`` marks a quote taken
from a secondary source only, which a reviewer should check before relying on it.

Primary texts read (LawRefBook/Laws, commit 2f4c5c2):
  经济法/政府采购法(2014-08-31).md, 行政法规/政府采购法实施条例(2015-01-30).md,
  民法商法/招标投标法(2017-12-27).md, 行政法规/招标投标法实施条例(2019-03-02).md.
Secondary only: 财政部令第87号 (政府采购货物和服务招标投标管理办法, 2017) was not in any
collection reachable here; its quotes are the text as republished in tender documents
and exam material (the 7-member rule as "符合下列情形之一", confirmed by a
www.ppkao.com question on Art. 47). 财库〔2020〕46号, 财库〔2022〕19号 and
国办发〔2025〕34号 likewise (the last from the Xinhua report of 2025-09-30, republished on
ccgp). Their quotes may differ in punctuation from the official text.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Article"]

_LAWS = "LawRefBook/Laws"


@dataclass(frozen=True)
class Article:
    law: str  # the instrument, in Chinese as cited: "政府采购法实施条例"
    article: str  # "第二十条" as cited
    quote_zh: str  # the article's text (or the clause applied), verbatim
    primary: bool  # True: read in the primary text; False: secondary source only
    source: str = ""  # where the quote was read (repository and path, or address)

    @property
    def citation(self) -> str:
        """``《政府采购法实施条例》第二十条`` — how a report cites it."""
        return f"《{self.law}》{self.article}"


def _primary(law: str, article: str, quote: str, path: str) -> Article:
    return Article(law, article, quote, True, f"{_LAWS}: {path}")


def _secondary(law: str, article: str, quote: str, source: str) -> Article:
    return Article(law, article, quote, False, source)


_GPL = "经济法/政府采购法(2014-08-31).md"
_GPL_IMPL = "行政法规/政府采购法实施条例(2015-01-30).md"
_TBL = "民法商法/招标投标法(2017-12-27).md"
_TBL_IMPL = "行政法规/招标投标法实施条例(2019-03-02).md"
_ORDER87_SOURCE = (
    "secondary: 财政部令第87号 as republished in tender documents and exam material; "
    "the MOF text (mof.gov.cn, 2017-07-18) was not reachable"
)

# --- 政府采购法 and its 实施条例 (primary) -------------------------------------------------
GPL_36 = _primary(
    "政府采购法",
    "第三十六条",
    "在招标采购中，出现下列情形之一的，应予废标：（一）符合专业条件的供应商或者对招标文件"
    "作实质响应的供应商不足三家的；（二）出现影响采购公正的违法、违规行为的；（三）投标人的"
    "报价均超过了采购预算，采购人不能支付的；（四）因重大变故，采购任务取消的。",
    _GPL,
)
GPL_IMPL_20 = _primary(
    "政府采购法实施条例",
    "第二十条",
    "采购人或者采购代理机构有下列情形之一的，属于以不合理的条件对供应商实行差别待遇或者歧视"
    "待遇：（一）就同一采购项目向供应商提供有差别的项目信息；（二）设定的资格、技术、商务条件"
    "与采购项目的具体特点和实际需要不相适应或者与合同履行无关；（三）采购需求中的技术、服务等"
    "要求指向特定供应商、特定产品；（四）以特定行政区域或者特定行业的业绩、奖项作为加分条件或者"
    "中标、成交条件；（五）对供应商采取不同的资格审查或者评审标准；（六）限定或者指定特定的"
    "专利、商标、品牌或者供应商；（七）非法限定供应商的所有制形式、组织形式或者所在地；"
    "（八）以其他不合理条件限制或者排斥潜在供应商。",
    _GPL_IMPL,
)
GPL_IMPL_33 = _primary(
    "政府采购法实施条例",
    "第三十三条",
    "招标文件要求投标人提交投标保证金的，投标保证金不得超过采购项目预算金额的2%。",
    _GPL_IMPL,
)
GPL_IMPL_34 = _primary(
    "政府采购法实施条例",
    "第三十四条",
    "政府采购招标评标方法分为最低评标价法和综合评分法。……技术、服务等标准统一的货物和服务"
    "项目，应当采用最低评标价法。",
    _GPL_IMPL,
)
GPL_IMPL_41 = _primary(
    "政府采购法实施条例",
    "第四十一条",
    "评标委员会、竞争性谈判小组或者询价小组成员应当按照客观、公正、审慎的原则，根据采购文件"
    "规定的评审程序、评审方法和评审标准进行独立评审。……对评审报告有异议的，应当在评审报告上"
    "签署不同意见，并说明理由，否则视为同意评审报告。",
    _GPL_IMPL,
)
GPL_IMPL_43 = _primary(
    "政府采购法实施条例",
    "第四十三条",
    "采购人应当自收到评审报告之日起5个工作日内在评审报告推荐的中标或者成交候选人中按顺序"
    "确定中标或者成交供应商。",
    _GPL_IMPL,
)
GPL_IMPL_45 = _primary(
    "政府采购法实施条例",
    "第四十五条",
    "采购人或者采购代理机构应当按照政府采购合同规定的技术、服务、安全标准组织对供应商履约情况"
    "进行验收，并出具验收书。验收书应当包括每一项技术、服务、安全标准的履约情况。",
    _GPL_IMPL,
)

# --- 招标投标法 and its 实施条例 (primary) -------------------------------------------------
TBL_37 = _primary(
    "招标投标法",
    "第三十七条",
    "依法必须进行招标的项目，其评标委员会由招标人的代表和有关技术、经济等方面的专家组成，"
    "成员人数为五人以上单数，其中技术、经济等方面的专家不得少于成员总数的三分之二。",
    _TBL,
)
TBL_41 = _primary(
    "招标投标法",
    "第四十一条",
    "中标人的投标应当符合下列条件之一：（一）能够最大限度地满足招标文件中规定的各项综合评价"
    "标准；（二）能够满足招标文件的实质性要求，并且经评审的投标价格最低；但是投标价格低于成本"
    "的除外。",
    _TBL,
)
TBL_42 = _primary(
    "招标投标法",
    "第四十二条",
    "评标委员会经评审，认为所有投标都不符合招标文件要求的，可以否决所有投标。依法必须进行招标"
    "的项目的所有投标被否决的，招标人应当依照本法重新招标。",
    _TBL,
)
TBL_IMPL_26 = _primary(
    "招标投标法实施条例",
    "第二十六条",
    "招标人在招标文件中要求投标人提交投标保证金的，投标保证金不得超过招标项目估算价的2%。",
    _TBL_IMPL,
)
TBL_IMPL_32 = _primary(
    "招标投标法实施条例",
    "第三十二条",
    "招标人不得以不合理的条件限制、排斥潜在投标人或者投标人。……（二）设定的资格、技术、商务"
    "条件与招标项目的具体特点和实际需要不相适应或者与合同履行无关；（三）依法必须进行招标的项目"
    "以特定行政区域或者特定行业的业绩、奖项作为加分条件或者中标条件；……（五）限定或者指定特定"
    "的专利、商标、品牌、原产地或者供应商；（六）依法必须进行招标的项目非法限定潜在投标人或者"
    "投标人的所有制形式或者组织形式；（七）以其他不合理条件限制、排斥潜在投标人或者投标人。",
    _TBL_IMPL,
)
TBL_IMPL_40 = _primary(
    "招标投标法实施条例",
    "第四十条",
    "有下列情形之一的，视为投标人相互串通投标：（一）不同投标人的投标文件由同一单位或者个人"
    "编制；（二）不同投标人委托同一单位或者个人办理投标事宜；（三）不同投标人的投标文件载明的"
    "项目管理成员为同一人；（四）不同投标人的投标文件异常一致或者投标报价呈规律性差异；"
    "（五）不同投标人的投标文件相互混装；（六）不同投标人的投标保证金从同一单位或者个人的账户"
    "转出。",
    _TBL_IMPL,
)
TBL_IMPL_44 = _primary(
    "招标投标法实施条例",
    "第四十四条",
    "投标人少于3个的，不得开标；招标人应当重新招标。",
    _TBL_IMPL,
)
TBL_IMPL_51 = _primary(
    "招标投标法实施条例",
    "第五十一条",
    "有下列情形之一的，评标委员会应当否决其投标：……（五）投标报价低于成本或者高于招标文件设定"
    "的最高投标限价；（六）投标文件没有对招标文件的实质性要求和条件作出响应；……",
    _TBL_IMPL,
)
TBL_IMPL_53 = _primary(
    "招标投标法实施条例",
    "第五十三条",
    "评标完成后，评标委员会应当向招标人提交书面评标报告和中标候选人名单。中标候选人应当不超过"
    "3个，并标明排序。评标报告应当由评标委员会全体成员签字。对评标结果有不同意见的评标委员会"
    "成员应当以书面形式说明其不同意见和理由，评标报告应当注明该不同意见。",
    _TBL_IMPL,
)
TBL_IMPL_55 = _primary(
    "招标投标法实施条例",
    "第五十五条",
    "国有资金占控股或者主导地位的依法必须进行招标的项目，招标人应当确定排名第一的中标候选人为"
    "中标人。",
    _TBL_IMPL,
)

# --- 财政部令第87号 (secondary only) -----------------------------------------------------
ORDER87_17 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第十七条",
    "采购人、采购代理机构不得将投标人的注册资本、资产总额、营业收入、从业人员、利润、纳税额等"
    "规模条件作为资格要求或者评审因素，也不得通过将除进口货物以外的生产厂家授权、承诺、证明、"
    "背书等作为资格要求，对投标人实行差别待遇或者歧视待遇。",
    _ORDER87_SOURCE,
)
ORDER87_37 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第三十七条",
    "有下列情形之一的，视为投标人串通投标，其投标无效：（一）不同投标人的投标文件由同一单位或者"
    "个人编制；（二）不同投标人委托同一单位或者个人办理投标事宜；（三）不同投标人的投标文件载明"
    "的项目管理成员或者联系人员为同一人；（四）不同投标人的投标文件异常一致或者投标报价呈规律性"
    "差异；（五）不同投标人的投标文件相互混装；（六）不同投标人的投标保证金从同一单位或者个人的"
    "账户转出。",
    _ORDER87_SOURCE,
)
ORDER87_47 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第四十七条",
    "评标委员会由采购人代表和评审专家组成，成员人数应当为5人以上单数，其中评审专家不得少于成员"
    "总数的三分之二。采购项目符合下列情形之一的，评标委员会成员人数应当为7人以上单数：（一）采购"
    "预算金额在1000万元以上；（二）技术复杂；（三）社会影响较大。",
    _ORDER87_SOURCE,
)
ORDER87_54 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第五十四条",
    "采用最低评标价法评标时，除了算术修正和落实政府采购政策需进行的价格扣除外，不能对投标人的"
    "投标价格进行任何调整。",
    _ORDER87_SOURCE,
)
ORDER87_55 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第五十五条",
    "货物项目的价格分值占总分值的比重不得低于30%；服务项目的价格分值占总分值的比重不得低于10%。"
    "……价格分应当采用低价优先法计算，即满足招标文件要求且投标价格最低的投标报价为评标基准价，"
    "其价格分为满分。其他投标人的价格分统一按照下列公式计算：投标报价得分=(评标基准价／投标报价)"
    "×100。评标总得分=F1×A1+F2×A2+……+Fn×An。",
    _ORDER87_SOURCE,
)
ORDER87_56 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第五十六条",
    "采用最低评标价法的，评标结果按投标报价由低到高顺序排列。投标报价相同的并列。",
    _ORDER87_SOURCE,
)
ORDER87_57 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第五十七条",
    "采用综合评分法的，评标结果按评审后得分由高到低顺序排列。得分相同的，按投标报价由低到高"
    "顺序排列。得分且投标报价相同的并列。",
    _ORDER87_SOURCE,
)
ORDER87_60 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第六十条",
    "评标委员会认为投标人的报价明显低于其他通过符合性审查投标人的报价，有可能影响产品质量或者"
    "不能诚信履约的，应当要求其在评标现场合理的时间内提供书面说明，必要时提交相关证明材料；"
    "投标人不能证明其报价合理性的，评标委员会应当将其作为无效投标处理。",
    _ORDER87_SOURCE,
)
ORDER87_63 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第六十三条",
    "投标人存在下列情况之一的，投标无效：……（四）报价超过招标文件中规定的预算金额或者最高限价"
    "的；……",
    _ORDER87_SOURCE,
)
ORDER87_64 = _secondary(
    "政府采购货物和服务招标投标管理办法",
    "第六十四条",
    "评标结果汇总完成后，除下列情形外，任何人不得修改评标结果：（一）分值汇总计算错误的；"
    "（二）分项评分超出评分标准范围的；（三）评标委员会成员对客观评审因素评分不一致的；"
    "（四）经评标委员会认定评分畸高、畸低的。",
    _ORDER87_SOURCE,
)

# --- policy notices (secondary only) ----------------------------------------------------
CAIKU_2020_46_9 = _secondary(
    "政府采购促进中小企业发展管理办法（财库〔2020〕46号）",
    "第九条",
    "采购人、采购代理机构应当对符合本办法规定的小微企业报价给予6%—10%（工程项目为3%—5%）的"
    "扣除，用扣除后的价格参加评审。",
    "secondary: as republished in tender notices; superseded in range by 财库〔2022〕19号",
)
CAIKU_2022_19 = _secondary(
    "关于进一步加大政府采购支持中小企业力度的通知（财库〔2022〕19号）",
    "第二条",
    "（未见原文，按公开报道转述）货物服务采购项目给予小微企业的价格扣除优惠，由6%—10%提高至"
    "10%—20%。",
    "secondary: the range as reported; the notice's text was not reachable",
)
GUOBAN_2025_34 = _secondary(
    "关于在政府采购中实施本国产品标准及相关政策的通知（国办发〔2025〕34号）",
    "（自2026年1月1日起施行）",
    "在政府采购活动中，给予本国产品相对于非本国产品20%的价格评审优惠。",
    "secondary: Xinhua report of 2025-09-30 as republished on ccgp (vk05.com mirror)",
)
