"""A Chinese-English glossary of everyday software-work vocabulary, for query expansion across languages.

Pure data and one lookup. Each entry is ``中文/同义词=english, words``: a Chinese term found in
a query adds the English words, and an English phrase found in a query adds the Chinese terms,
so a Chinese question can reach an English description and the other way round. The entries are
general vocabulary (any team's words for its work), not tuned to particular skills. Chinese terms
of one character are left out: as substrings they would fire inside unrelated words.
"""

from __future__ import annotations

import functools

from skillmem_hook.search.tokenize import normalize, tokens

# Sections separated by blank lines; entries by " | ".
_GLOSSARY = """
general software work:
代码=code | 源码/源代码=source code | 编程/写代码=programming, coding | 程序=program | 脚本=script
函数=function | 方法=method | 接口=interface, api | 模块=module | 组件=component | 插件=plugin, extension, addon
扩展=extension | 框架=framework | 依赖=dependency, dependencies | 包管理=package manager | 版本=version
版本号=versioning, version | 升级=upgrade, update | 迁移=migration, migrate | 重构=refactor, refactoring
重写=rewrite | 遗留/老旧/旧系统=legacy | 单体=monolith | 微服务=microservices | 架构=architecture
设计模式=design patterns | 模式=pattern | 最佳实践=best practices | 规范=conventions, standards, guidelines
模板=template | 样板=boilerplate | 脚手架=scaffold, scaffolding | 示例=example | 文档=documentation, docs
注释=comments | 说明书=manual | 教程=tutorial | 入门=getting started, beginner
配置=configuration, config, settings | 环境变量=environment variables
命令行/终端=cli, terminal, command line, shell | 命令=command | 参数=parameters, arguments | 工具=tool, tools
工具链=toolchain | 自动化=automation, automate | 工作流=workflow | 流水线=pipeline | 任务=task | 项目=project
仓库=repository, repo | 单仓/单一仓库=monorepo | 多仓=polyrepo | 代码库=codebase | 工程=engineering
工程师=engineer | 开发者=developer | 开发=development, develop | 前端=frontend | 后端=backend
全栈=full stack, fullstack | 服务端/服务器端=server side, backend | 客户端=client | 服务器=server | 服务=service
调用=call, invoke | 请求=request | 响应=response | 异步=async, asynchronous | 同步=sync, synchronous
并发=concurrency, concurrent | 并行=parallel | 线程=thread | 进程=process | 队列=queue | 消息队列=message queue
事件=event | 事件驱动=event driven | 回调=callback | 超时=timeout | 重试=retry | 幂等=idempotent, idempotency
限流=rate limiting, throttling | 缓存=cache, caching | 性能=performance | 优化=optimization, optimize
卡顿/卡死=slow, hang, freeze, performance | 瓶颈=bottleneck | 内存=memory | 内存泄漏=memory leak
复杂度=complexity | 算法=algorithm | 数据结构=data structure | 循环=loop | 递归=recursion
调试=debug, debugging | 报错/错误=error | 异常=exception | 崩溃=crash | 故障=incident, outage, failure
排查=troubleshoot, troubleshooting, debug | 根因=root cause | 日志=logs, logging
监控=monitoring, observability | 告警/报警=alert, alerting, warning | 可观测性=observability | 指标=metrics
链路追踪/追踪=tracing, trace | 审查/评审=review | 代码审查=code review | 质量=quality
技术债=technical debt, tech debt | 可维护=maintainability | 可读性=readability | 命名=naming
格式化=formatting, formatter | 静态检查/静态分析=linting, lint, static analysis | 类型=type, types
类型检查=type checking

testing:
测试=test, testing | 单元测试=unit test | 集成测试=integration test | 端到端=end to end, e2e
测试驱动=tdd, test driven | 用例=test case, use case | 覆盖率=coverage | 回归=regression
基准测试/跑分=benchmark | 压测/压力测试/负载测试=load testing, stress test | 评测/评估=evaluation, eval
断言=assertion | 模拟/mock=mock | 自动化测试=test automation | 浏览器自动化=browser automation | 截图=screenshot
验证=verify, validation | 校验=validation, validate | 不稳定测试=flaky test

devops & infrastructure:
部署=deploy, deployment | 上线/发布=release, deploy, launch | 持续集成=continuous integration, ci
持续部署/持续交付=continuous deployment, cd | 构建=build | 编译=compile, build | 打包=package, bundle
容器=container, docker | 镜像=image | 编排=orchestration | 集群=cluster, kubernetes | 节点=node
负载均衡=load balancer | 网关=gateway | 反向代理=reverse proxy | 代理=proxy, agent | 域名=domain, dns
证书=certificate, tls, ssl | 双向认证=mutual tls, mtls | 云服务=cloud services | 服务器less/无服务器=serverless
函数计算=serverless functions | 虚拟机=virtual machine, vm | 运维=operations, ops, devops, sre
基础设施=infrastructure | 基础设施即代码=infrastructure as code, terraform | 备份=backup
恢复=restore, recovery | 灾备/容灾=disaster recovery | 高可用=high availability | 扩容/伸缩=scaling, autoscaling
磁盘=disk, storage | 存储=storage | 网络=network, networking | 防火墙=firewall | 端口=port
账单/费用/成本=cost, billing | 省钱/降本=cost optimization | 定时任务=cron, scheduled job
服务网格=service mesh | 密钥/秘钥=secrets, keys | 密钥管理=secrets management | 环境=environment
生产环境=production | 回滚=rollback, revert | 撤销=undo, revert | 灰度=canary | 蓝绿=blue green

version control:
版本控制=version control, git | 提交=commit | 分支=branch | 合并=merge | 变基=rebase | 冲突=conflict
拉取请求/合并请求=pull request, merge request, pr | 历史=history | 暂存=stash, staging | 标签=tag, label
工作树=worktree | 钩子=hooks | 克隆=clone

data & databases:
数据=data | 数据库=database, db | 查询=query | 索引=index | 慢查询=slow query | 事务=transaction | 死锁=deadlock
主键=primary key | 外键=foreign key | 模式/表结构=schema | 建模=modeling | 数据模型=data model
关系型=relational, sql | 非关系型=nosql | 向量数据库=vector database | 分库分表=sharding | 分片=sharding, shard
复制/主从=replication | 读写分离=read replica | 数据仓库=data warehouse | 数据湖=data lake
数据管道=data pipeline, etl | 清洗=cleaning | 导入=import | 导出=export | 报表=report, reporting
看板/仪表盘/仪表板=dashboard | 可视化=visualization, chart | 图表=chart, graph | 统计=statistics
分析=analysis, analytics | 数据分析=data analysis, analytics | 爬虫/抓取=scraping, crawler, scrape
表格=spreadsheet, table, excel | 去重=deduplicate, dedup | 排序=sort | 分页=pagination | 搜索=search
全文搜索=full text search | 检索=retrieval, search | 时间序列=time series | 流处理=stream processing, streaming
批处理=batch

AI & LLM:
人工智能=artificial intelligence, ai | 大模型/大语言模型=llm, large language model | 模型=model
提示词/提示=prompt | 系统提示=system prompt | 提示工程=prompt engineering | 上下文=context
上下文窗口=context window | 令牌=token, tokens | 智能体/代理人=agent, agents | 多智能体=multi agent
子智能体=subagent | 编排=orchestration | 工具调用=tool use, function calling | 记忆=memory
检索增强/检索增强生成=rag, retrieval augmented generation | 向量=vector, embedding | 嵌入=embedding
微调=fine tuning | 训练=training | 推理=inference, reasoning | 评测=evaluation, eval | 幻觉=hallucination
机器学习=machine learning, ml | 深度学习=deep learning | 神经网络=neural network | 分类=classification
聚类=clustering | 预测=prediction, forecast, forecasting | 推荐=recommendation | 语音=voice, speech
语音识别=speech recognition | 图像=image | 视频=video | 生成=generate, generation | 聊天机器人=chatbot
对话=conversation, chat | 助手=assistant | 编码助手=coding assistant | 技能=skill | 自主=autonomous

security:
安全=security | 漏洞=vulnerability | 渗透测试/渗透=penetration testing, pentest | 注入=injection
跨站=cross site, xss | 认证/身份验证=authentication, auth | 授权=authorization | 登录=login
权限=permissions, access control | 加密=encryption | 哈希=hash | 密码=password
令牌认证=token authentication, jwt | 单点登录=sso, single sign on | 威胁建模=threat modeling | 风险=risk
审计=audit | 合规=compliance | 隐私=privacy | 个人信息=personal data, pii | 攻击=attack | 防御=defense
绕过=bypass | 提权=privilege escalation | 枚举=enumeration | 扫描=scan, scanning
逆向/逆向工程=reverse engineering | 二进制=binary | 恶意软件=malware | 取证=forensics | 钓鱼=phishing
暴力破解=brute force | 漏洞赏金=bug bounty | 红队=red team | 安全需求=security requirements
供应链=supply chain | 签名=signature, signing | 邮件服务器=mail server, smtp | 邮件=email, mail
无线=wireless, wifi | 抓包=packet capture, traffic | 流量=traffic | 协议=protocol

web, frontend & UI:
网站=website, web | 网页=web page | 页面=page | 落地页=landing page | 浏览器=browser | 界面=ui, interface
用户界面=user interface, ui | 交互=interaction | 用户体验=user experience, ux | 设计=design
设计系统=design system | 样式=styles, css | 布局=layout | 响应式=responsive | 动画=animation | 三维/3d=3d, three
组件库=component library | 表单=form | 按钮=button | 弹窗=modal, dialog | 图标=icon | 字体=font, typography
颜色/配色=color | 主题=theme | 暗色/深色模式=dark mode | 无障碍/可访问性=accessibility, a11y
国际化=internationalization, i18n | 本地化=localization | 多语言=multilingual, i18n | 渲染=rendering
服务端渲染=server side rendering, ssr | 单页应用=single page application, spa | 路由=routing, router
状态管理=state management | 上传=upload | 下载=download | 文件上传=file upload | 图片=image | 二维码=qr code
地图=map

apps & platforms:
应用=app, application | 手机/移动端=mobile | 安卓=android | 苹果=ios, apple | 小程序=mini program | 桌面=desktop
桌面应用/桌面客户端=desktop app | 跨平台=cross platform, multi platform | 多平台=multi platform | 机器人=bot
插件市场=marketplace | 浏览器插件=browser extension | 游戏=game | 手游=mobile game | 游戏设计=game design
关卡=level | 玩家=player | 数值=balance, numbers | 付费=monetization, payment | 物理引擎=physics engine

business, product & marketing:
产品=product | 产品经理=product manager | 需求=requirements | 需求文档=prd, product requirements
用户故事=user stories | 验收标准=acceptance criteria | 路线图=roadmap | 优先级=priority, prioritization
排期=planning, scheduling, sprint | 迭代=iteration, sprint | 敏捷=agile | 项目管理=project management
计划=plan, planning | 规划=planning, plan | 头脑风暴=brainstorming | 创业=startup | 商业=business
商业计划=business plan | 商业模式=business model | 市场=market | 市场调研=market research
竞品/竞争对手=competitor, competitive | 竞品分析=competitive analysis | 定价=pricing | 营销=marketing
增长=growth | 获客=acquisition | 留存=retention | 转化=conversion | 转化率=conversion rate | 漏斗=funnel
广告=ads, advertising | 投放=ads, campaign | 搜索引擎优化=seo | 社交媒体=social media | 内容=content
文案=copywriting, copy | 写作=writing | 文章=article, blog post | 博客=blog | 新闻稿=press release
邮件营销=email marketing | 订阅=subscription, newsletter | 品牌=brand, branding | 客户=customer, client
用户=user | 销售=sales | 线索=leads | 客服=customer support | 反馈=feedback | 调研/调查=survey, research
访谈=interview | 营收/收入=revenue | 利润=profit | 财务=finance, financial | 预算=budget | 会计/记账=accounting
发票=invoice | 报价=quote, pricing | 投资=investment | 融资=fundraising | 估值=valuation | 股票=stock
交易=trading, transaction | 量化=quantitative, quant | 策略=strategy | 回测=backtesting, backtest
风控=risk management | 支付=payment | 订单=order | 库存=inventory | 物流=logistics, shipping | 电商=ecommerce
网店/店铺=store, shop | 积分=points, loyalty | 会员=membership | 指标=metrics, kpi | 核心指标=kpi, key metrics
季度=quarter, quarterly | 周报=weekly report

people, legal & office:
招聘=hiring, recruiting | 员工=employee | 全职=full time | 入职=onboarding | 人力资源=human resources, hr
合同=contract | 劳动合同=employment contract | 录用通知/录用通知书=offer letter | 条款=terms, clauses
法律=legal, law | 协议=agreement | 隐私政策=privacy policy | 许可证/许可=license | 简历=resume, cv
面试=interview | 绩效=performance review | 会议=meeting | 纪要=notes, minutes | 演示/幻灯片=presentation, slides
文档处理=document | 表格处理=spreadsheet | 邮箱=email | 日程=calendar, schedule | 笔记=notes
知识库=knowledge base | 翻译=translation, translate | 总结/摘要=summary, summarize | 研究=research
论文=paper, academic | 引用=citation

health, science & misc:
健康=health | 医疗=medical, healthcare | 教育=education | 学习=learning | 数学=math | 物理=physics
化学=chemistry | 生物=biology | 地理=geography, gis | 天气=weather | 音乐=music | 音频=audio
图片生成=image generation | 视频剪辑=video editing | 电子书=ebook | 社区=community | 开源=open source
"""


def _parse(text: str) -> list[tuple[tuple[str, ...], str]]:
    entries = []
    for line in text.splitlines():
        if not line.strip() or line.endswith(":"):
            continue
        for entry in line.split(" | "):
            chinese, english = entry.split("=")
            entries.append((tuple(chinese.split("/")), english))
    return entries


ENTRIES = _parse(_GLOSSARY)


@functools.lru_cache(maxsize=1)
def _phrases() -> list[tuple[int, frozenset[str]]]:
    """Each English phrase as its search words, to find it in a query whatever its inflection.

    Built on first use: a Chinese-only question never pays for it.
    """
    return [
        (index, words)
        for index, (_, english) in enumerate(ENTRIES)
        for phrase in english.split(",")
        if (words := frozenset(tokens(phrase)))
    ]


def expand(intent: str) -> list[str]:
    """Every term of each entry that ``intent`` mentions (in either language), in glossary order."""
    return [text for _, text in expansions(intent)]


def expansions(intent: str) -> list[tuple[frozenset[str], str]]:
    """Each entry ``intent`` mentions, in glossary order: the query's words that found it, and all its terms.

    The words that found an entry are what its terms stand in for: a skill that
    holds "security" covers the "安全" a Chinese query typed.
    """
    text = normalize(intent)
    found: dict[int, set[str]] = {}
    for index, (chinese, _) in enumerate(ENTRIES):
        for term in chinese:
            if term in text:
                found.setdefault(index, set()).update(tokens(term))
    typed = {word for word in tokens(text) if word.isascii()}
    if typed:
        # An English phrase brings its entry's Chinese terms and its English neighbours (freeze -> slow, hang).
        for index, words in _phrases():
            if words <= typed:
                found.setdefault(index, set()).update(words)
    return [(frozenset(found[i]), " ".join((*ENTRIES[i][0], ENTRIES[i][1]))) for i in sorted(found)]
