"""Proposal texts for the collusion tests, written for these tests.

``ORIGINAL`` is one vendor's technical proposal; ``REWORDED`` rewrites it sentence by
sentence (synonyms, clause order, figures kept), as a colluder disguising a copy would;
``HONEST`` are three independent proposals answering the same RFP (96-GPU training
cluster) with their own designs and wording.
"""

ORIGINAL = (
    "本项目拟建设一套由96块H200加速卡组成的训练集群，共12台八卡服务器。"
    "计算网络采用400G InfiniBand无阻塞胖树架构，每块加速卡配置一张独立网卡，保证跨节点通信带宽。"
    "存储系统采用全闪存并行文件系统，可用容量不低于2PB，聚合读带宽达到200GB/s。"
    "集群调度使用Slurm，并提供Kubernetes环境用于推理服务的部署与弹性伸缩。"
    "我公司将在合同签订后60天内完成到货、安装和联调，并派驻两名工程师驻场三个月。"
    "运维方面，我们提供7×24小时远程监控，故障响应时间不超过30分钟，备件4小时内到场。"
    "培训方案包括集群管理、作业提交和性能调优三个模块，累计不少于40学时。"
    "质保期为五年，质保期内免费更换故障部件并提供固件升级。"
)

REWORDED = (
    "我方计划为本项目搭建训练集群，集群由12台八卡服务器构成，合计96块H200加速卡。"
    "计算网络选用400G InfiniBand胖树无阻塞组网，为每块加速卡单独配置一张网卡，以确保节点间通信带宽。"
    "存储部分选用全闪存并行文件系统，聚合读带宽可达200GB/s，可用容量至少2PB。"
    "作业调度采用Slurm，同时搭建Kubernetes环境，用于推理服务部署及弹性扩缩容。"
    "合同签订之日起60天内，本公司完成设备到货、安装与联合调试，另安排两名工程师驻场服务三个月。"
    "在运维上，本方提供7×24小时的远程监控服务，30分钟内响应故障，4小时内备件送达现场。"
    "培训内容分为集群管理、作业提交、性能调优三个模块，总计不低于40学时。"
    "产品质保五年，在质保期内故障部件免费更换，并免费升级固件。"
)

HONEST = (
    (
        "针对贵单位的大模型训练需求，我们推荐采用八台十二卡液冷服务器的方案，总计96张加速卡。"
        "节点之间以RoCE v2以太网互联，单端口速率400Gb/s，交换机采用两层叶脊结构。"
        "数据存储基于分布式对象存储与本地NVMe缓存相结合，兼顾成本与吞吐。"
        "软件栈包括开源的Kubernetes平台、Volcano批调度器以及自研的监控看板。"
        "项目实施周期预计十周，分为机房改造、设备上架、系统部署、验收测试四个阶段。"
        "售后服务由本地分公司负责，提供工作日现场支持和节假日电话支持。"
        "我们曾为多家科研机构交付类似规模的算力平台，具备丰富的液冷运维经验。"
    ),
    (
        "The proposed cluster consists of twelve HGX H200 nodes with eight GPUs each, "
        "connected by an NVIDIA Quantum-2 InfiniBand fabric in a rail-optimised topology. "
        "A WEKA parallel file system provides 2.4 PB usable capacity on NVMe flash. "
        "Slurm manages training jobs; an optional Kubernetes partition runs inference. "
        "Delivery is planned within eight weeks of contract signature, followed by a "
        "two-week burn-in with NCCL and HPL benchmarks. Our support desk answers within "
        "fifteen minutes around the clock, and spare parts are held in Shanghai. "
        "Warranty covers five years of parts and labour."
    ),
    (
        "本方案以国产加速卡为核心，配置一百二十八张训练卡，以弥补单卡算力的差距。"
        "网络采用自研高速互联协议，配合200G以太网作为存储与管理网络。"
        "存储选用集中式SAN阵列，容量一点五PB，通过多路径提高可靠性。"
        "调度平台为厂商提供的一体化管理软件，支持图形化的作业提交与资源配额。"
        "交付分两批进行，首批设备在九十天内到货，第二批随后三十天内到货。"
        "我们承诺提供三年原厂质保，并可按年续保；培训安排在交付后一个月内完成。"
    ),
)

RFP = (
    "采购内容：训练集群一套，含加速卡、服务器、计算网络、存储、调度软件及安装调试、培训、质保。"
    "投标人应说明网络架构、存储容量与带宽、调度系统、交付周期、运维响应时间和质保期限。"
)
