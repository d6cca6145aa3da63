"""The fixed domain table: keywords by domain, in priority order, and the weight of each field.

Documented in docs/categorization.md; a test keeps the page and this table equal.
Changing it moves users' skills between domains: say so in the README's changelog.
"""

from __future__ import annotations

GENERAL = "general"

# What a domain scores when one of its keywords is in each field (see domains.py). Each
# weight exceeds all later ones together, so the fields decide in turn: the name, then
# the title, then the description's lead (first sentence), and its rest only last.
FIELD_WEIGHTS: dict[str, int] = {"name": 8, "title": 4, "lead": 2, "rest": 1}
REST_LIMIT = 1000  # characters of the rest read: enough for a summary, cheap for long descriptions

# (domain, keywords), in priority order: on equal scores the earlier domain wins.
# fmt: off
DOMAIN_TABLE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("security", (
        "security", "secure", "pentest*", "penetration", "vulnerab*", "exploit*", "attack*", "malware", "threat*",
        "xss", "csrf", "ssrf", "idor", "injection", "privilege escalation", "hacking", "hacker*", "owasp", "red team",
        "forensic*", "reverse engineer*", "fuzz*", "cve", "secrets", "sast", "dast", "burp", "metasploit", "nmap",
        "shodan", "phishing", "encrypt*", "cryptograph*", "compliance", "gdpr", "hipaa", "privacy", "cyber*", "osint",
        "ctf", "bug bounty", "firewall*", "zero trust", "sanitiz*", "auth", "authentication", "authorization", "oauth",
        "jwt", "iam", "access control", "permission*", "tls", "mtls", "ssl", "certificate*",
        "安全", "漏洞", "渗透", "攻击", "恶意", "加密", "威胁", "合规", "隐私", "红队", "逆向", "取证", "入侵", "注入",
        "认证", "鉴权", "权限", "提权",
    )),
    ("testing", (
        "test*", "tdd", "bdd", "qa", "e2e", "playwright", "cypress", "selenium", "jest", "vitest", "pytest", "debug*",
        "bug", "lint*", "troubleshoot*", "regression*", "coverage", "flaky", "quality assurance", "code review*",
        "测试", "调试", "缺陷", "排查", "断言", "代码审查",
    )),
    ("data-parsing", (
        "pars*", "csv", "json", "xml", "yaml", "pdf", "docx", "xlsx", "pptx", "spreadsheet*", "excel", "extract*",
        "scrap*", "crawl*", "etl", "elt", "data pipeline*", "dbt", "spark", "airflow", "dataset*", "data engineer*",
        "pandas", "numpy", "polars", "dataframe*", "jupyter", "data analy*", "scien*", "data quality", "visuali*",
        "plot*", "matplotlib", "seaborn", "plotly", "statistic*", "warehouse*", "snowflake", "bigquery", "parquet",
        "ocr", "math", "mathemat*", "quantum", "bioinformat*", "biolog*", "biomedic*",
        "解析", "数据处理", "数据清洗", "数据管道", "表格", "提取", "爬虫", "抓取", "数据分析", "数据科学", "可视化",
        "图表", "统计", "数据集", "数据仓库", "数据质量", "数学", "量子", "生物",
    )),
    ("ai-agents", (
        "llm*", "agent*", "agentic", "prompt*", "rag", "embedding*", "langchain", "langgraph", "llamaindex", "crewai",
        "autogen", "mcp", "claude", "gpt*", "openai", "anthropic", "gemini", "machine learning", "ml", "mlops",
        "deep learning", "neural", "pytorch", "tensorflow", "hugging face", "huggingface", "vector*", "model context",
        "inference", "fine tun*", "chatbot*", "context engineering", "^context*", "^memory", "subagent*", "copilot",
        "codex", "ollama", "llama*", "mistral", "deepseek", "qwen", "speech", "diffusion", "midjourney", "eval",
        "computer vision", "nlp", "^ai",
        "大模型", "智能体", "提示词", "人工智能", "机器学习", "深度学习", "语言模型", "向量", "模型训练", "微调",
        "上下文", "记忆", "语音", "计算机视觉",
    )),
    ("devops", (
        "docker*", "kubernetes", "k8s", "helm", "terraform", "pulumi", "ansible", "deploy*", "ci", "cd", "cicd",
        "github actions", "gitlab", "jenkins", "aws", "gcp", "azure", "cloud", "serverless", "infrastructure", "iac",
        "devops", "sre", "monitor*", "observab*", "prometheus", "grafana", "datadog", "opentelemetry", "incident*",
        "on call", "linux", "bash", "shell", "powershell", "container*", "service mesh", "istio", "nginx",
        "build system*", "bazel", "cloudflare", "vercel", "netlify", "slo", "sli", "uptime", "load balanc*", "gitops",
        "systemd", "network*", "finops", "backup*", "disaster recovery", "distributed tracing",
        "部署", "运维", "容器", "云", "无服务器", "监控", "可观测", "基础设施", "流水线", "告警", "集群", "网络",
        "服务网格", "备份", "容灾",
    )),
    ("frontend", (
        "frontend", "front end", "react", "vue", "angular", "svelte", "nextjs", "next js", "nuxt", "css", "tailwind",
        "html", "ui", "ux", "component*", "web design", "accessibility", "a11y", "wcag", "mobile", "ios", "android",
        "flutter", "swiftui", "expo", "browser*", "responsive", "animat*", "3d", "three js", "threejs", "webgl",
        "game*", "unity", "godot", "unreal", "design system*", "figma", "typograph*", "font*", "color*", "colour*",
        "palette*", "layout*", "landing page*", "web", "website*", "visual*", "canvas", "art", "illustrat*", "icon*",
        "logo*", "svg", "gif*", "shadcn", "storybook", "jsx", "pwa", "user interface", "wireframe*", "widget*", "gui",
        "desktop", "electron", "tauri", "shader*", "graphics",
        "前端", "界面", "页面", "组件", "移动端", "游戏", "设计系统", "样式", "动画", "网页", "网站", "配色", "字体",
        "视觉", "布局", "图标", "无障碍", "响应式", "用户体验", "小程序", "着色器", "图形", "交互设计", "艺术",
        "生成艺术",
    )),
    ("backend", (
        "backend", "back end", "api", "database*", "db", "sql", "postgres*", "mysql", "sqlite", "nosql", "mongodb",
        "redis", "graphql", "rest", "restful", "server*", "microservice*", "fastapi", "django", "flask", "express",
        "nestjs", "spring", "rails", "laravel", "nodejs", "node js", "queue*", "kafka", "rabbitmq", "orm", "prisma",
        "drizzle", "sqlalchemy", "supabase", "firebase", "webhook*", "payment*", "stripe", "event sourcing", "grpc",
        "openapi", "swagger", "endpoint*", "blockchain", "web3", "defi", "nft*", "solidity", "smart contract*", "sdk*",
        "full stack", "fullstack", "bot", "integration*",
        "后端", "接口", "数据库", "服务器", "微服务", "服务端", "中间件", "缓存", "消息队列", "支付", "区块链", "集成",
        "全栈", "加密货币",
    )),
    ("business", (
        "marketing", "marketer", "seo", "sales", "startup*", "business*", "pricing", "market*", "growth", "customer*",
        "brand*", "financ*", "legal", "hr", "cro", "ads", "advertis*", "product manag*", "conversion", "saas", "email*",
        "kpi*", "analytics", "revenue", "referral*", "go to market", "gtm", "okr*", "competit*", "persona*", "funnel*",
        "retention", "churn", "social media", "campaign*", "outreach", "investor*", "pitch*", "fundrais*",
        "stakeholder*", "prd", "user research", "monetiz*", "ecommerce", "e commerce", "crm", "accounting", "recruit*",
        "hiring", "onboarding", "social", "influencer*", "public relations", "audience*", "lead gen*", "community",
        "devrel", "developer relations", "advocacy",
        "营销", "商业", "市场", "销售", "产品", "运营", "客户", "增长", "定价", "品牌", "广告", "竞品", "用户研究",
        "创业", "融资", "投资", "财务", "法律", "招聘", "留存", "漏斗", "战略", "推广", "获客", "电商", "网红",
        "社交媒体", "社媒", "公关", "受众", "转化率", "线索", "社区", "布道",
    )),
    ("docs-writing", (
        "doc", "docs", "documentation", "documenter", "writing", "writer", "copywrit*", "content", "blog*", "readme",
        "changelog*", "tutorial*", "editing", "article*", "diagram*", "mermaid", "comms", "communication*",
        "storytelling", "presentation*", "slide*", "newsletter*", "essay*", "prose", "grammar", "proofread*",
        "translat*", "story", "stories", "headline*", "summar*", "release note*", "wiki*", "paper*", "citation*",
        "transcri*", "podcast*", "note", "notes", "markdown", "latex", "book", "books", "ebook*",
        "文档", "写作", "文章", "翻译", "文案", "博客", "撰写", "摘要", "小说", "故事", "公众号", "演示文稿", "论文",
        "笔记", "内容创作",
    )),
    ("engineering", (
        "git", "github", "review*", "refactor*", "architect*", "design pattern*", "clean code", "plan*", "workflow*",
        "^python", "^rust", "^golang", "^java", "^javascript", "^typescript", "^c", "^cpp", "^csharp", "^dotnet",
        "^ruby", "^php", "^scala", "^elixir", "^haskell", "^julia", "^kotlin", "^swift", "^dart", "^lua", "^perl",
        "^zig", "functional", "fp", "performance", "optimi*", "concurren*", "async", "programming", "coding",
        "codebase*", "software", "tech debt", "technical debt", "legacy", "dependenc*", "compiler*", "algorithm*",
        "data structure*", "branch*", "commit*", "pull request*", "pr", "merge", "brainstorm*", "spec",
        "specification*", "monorepo*",
        "代码", "重构", "架构", "编程", "性能", "规划", "技术债", "算法", "设计模式", "打包", "编译", "分支",
        "头脑风暴", "函数式", "依赖项", "依赖管理",
    )),
)
# fmt: on
