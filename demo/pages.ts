import type { ProjectSpec } from './dataset';
import type { DemoProject } from './runs';

/** The demo's HTML pages: login (docs/contract.md §3), report (docs/contract.md §5), platform overview, index. */

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value, null, 1)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const BASE_STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:"PingFang SC","Microsoft YaHei","WenQuanYi Micro Hei",sans-serif;background:#f4f6fb;color:#1f2937}
a{color:#2563eb}header.top{background:#1e3a8a;color:#fff;padding:14px 28px}header.top h1{margin:0;font-size:20px}
header.top p{margin:4px 0 0;font-size:13px;opacity:.85}main{max-width:1200px;margin:0 auto;padding:20px}
section.card{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:16px 20px;margin-bottom:18px}
section.card h2{margin:0 0 12px;font-size:17px;border-left:4px solid #2563eb;padding-left:8px}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid #e5e7eb;padding:6px 8px;text-align:left}
th{background:#f9fafb;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
`;

function layout(title: string, body: string, extraHead = ''): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${BASE_STYLE}</style>
${extraHead}
</head>
<body>
${body}
</body>
</html>
`;
}

/** Contract 3: phone, password, submit; JSON POST to /api/auth/login; error text on 401. */
export function loginPage(): string {
  return layout(
    '登录 · L1 监测平台（演示）',
    `<header class="top"><h1>L1 监测平台</h1><p>演示环境 · 仅监听本机 127.0.0.1</p></header>
<main>
<section class="card" style="max-width:420px;margin:40px auto">
<h2>账号登录</h2>
<form id="login-form" method="post" action="/api/auth/login" autocomplete="off">
<p><label>手机号<br><input name="phone" type="tel" inputmode="numeric" required style="width:100%;padding:8px"></label></p>
<p><label>密码<br><input name="password" type="password" required style="width:100%;padding:8px"></label></p>
<p id="login-error" role="alert" style="color:#b91c1c;min-height:1.2em"></p>
<button type="submit" style="padding:8px 24px;background:#2563eb;color:#fff;border:0;border-radius:6px">登录</button>
</form>
<p style="font-size:12px;color:#6b7280">演示账号由演示服务器每次启动时随机生成，保存在其凭据文件中（不在页面中显示）。</p>
</section>
</main>
<script>
(function () {
  var form = document.getElementById('login-form');
  var error = document.getElementById('login-error');
  function target() {
    var next = new URLSearchParams(location.search).get('next') || '/';
    return next.charAt(0) === '/' && next.charAt(1) !== '/' ? next : '/';
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    error.textContent = '';
    var body = JSON.stringify({ phone: form.phone.value, password: form.password.value });
    fetch('/api/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: body, credentials: 'same-origin' })
      .then(function (res) {
        if (res.ok) { location.assign(target()); return; }
        error.textContent = res.status === 401 ? '手机号或密码错误' : '登录失败（HTTP ' + res.status + '）';
      })
      .catch(function () { error.textContent = '网络错误，请重试'; });
  });
})();
</script>`,
  );
}

/**
 * A JavaScript value token in DATA (NaN, Infinity): a sentinel string that the page writes as the
 * bare literal, so the page's DATA really holds the non-finite number (hostile-nan-in-data).
 */
export function jsLiteral(token: 'NaN' | 'Infinity' | '-Infinity'): string {
  return `@@js:${token}@@`;
}

/** JSON text as a single-quoted JavaScript string that is safe inside a <script> element. */
function scriptString(json: string): string {
  return `'${json
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "\\'")
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')}'`;
}

function dataDeclaration(spec: ProjectSpec, data: unknown, syntaxError: boolean): string {
  let json = spec.dataJsonParse
    ? `JSON.parse(${scriptString(JSON.stringify(data))})`
    : scriptJson(data).replace(/"@@js:(NaN|Infinity|-Infinity)@@"/g, '$1');
  // A DATA literal cut off in the middle: the script does not parse, DATA is never defined.
  if (syntaxError) json = json.slice(0, Math.floor(json.length / 2));
  switch (spec.dataDecl) {
    case 'const':
      return `const DATA = ${json};`;
    case 'let':
      return `let DATA = ${json};`;
    case 'var':
      return `var DATA = ${json};`;
    case 'window':
      return `window.DATA = ${json};`;
  }
}

/** Hostile page parts (README.md § Security and limits): scripts before and after DATA, or no DATA at all. */
export interface ReportPageOptions {
  before?: string;
  after?: string;
  noData?: boolean;
  /** DATA only, without the chart scripts (a light report, as some real ones are). */
  light?: boolean;
}

const REPORT_STYLE = `<style>
.kpis{display:flex;gap:14px;flex-wrap:wrap}.kpi{flex:1;min-width:170px;background:linear-gradient(135deg,#eff6ff,#fff);border:1px solid #dbeafe;border-radius:10px;padding:12px 14px}
.kpi .label{font-size:13px;color:#4b5563}.kpi .value{font-size:26px;font-weight:700;color:#1e3a8a;margin-top:4px}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:18px}.chart{height:320px}.chart.small{height:280px}
.tiles{display:flex;flex-wrap:wrap;gap:8px}.tile{background:#f1f5f9;border-radius:8px;padding:8px 12px;min-width:110px}
.tile b{display:block;font-size:18px;color:#0f766e}.tile span{font-size:12px;color:#475569}
.cloud{line-height:2.1;padding:8px 0}.cloud span{display:inline-block;margin:0 8px;color:#1d4ed8}.cloud.pos span{color:#047857}.cloud.neg span{color:#b91c1c}
.empty{color:#6b7280;font-size:13px}.own{background:#fef9c3}.tabs{margin-bottom:10px}.tabs button{border:1px solid #cbd5e1;background:#fff;border-radius:14px;padding:4px 12px;margin:0 6px 6px 0;cursor:pointer}
.tabs button.on{background:#2563eb;color:#fff;border-color:#2563eb}.muted{color:#6b7280;font-size:12px}
</style>`;

const TYPE_NAMES: Record<string, string> = { monitor: '监测', diagnosis: '诊断' };

/** Contract 5: a report page that defines DATA before `load` and renders it (demo/assets/report.js). */
export function reportPage(
  project: DemoProject,
  data: unknown,
  fault?: 'no-data' | 'syntax-error',
  options: ReportPageOptions = {},
): string {
  const { spec } = project;
  const title = `${spec.brand} · AI 搜索 L1 ${TYPE_NAMES[spec.reportType] ?? ''}报告 · ${spec.batchDate}`;
  const script = (code: string | undefined) => (code ? `<script>\n${code}\n</script>` : '');
  const dataScript =
    fault === 'no-data' || options.noData
      ? ''
      : script(dataDeclaration(spec, data, fault === 'syntax-error'));
  return layout(
    title,
    `<header class="top"><h1>${escapeHtml(title)}</h1><p>业务线：${escapeHtml(spec.line)} · 项目 ${escapeHtml(spec.projectId)} · 话题 ${escapeHtml(spec.topic)}</p></header>
<main id="report">
<section class="card"><h2>核心指标</h2><div id="kpis" class="kpis"></div><p class="muted" id="kpi-note"></p></section>
<section class="card"><h2>各平台指标（最新监测日）</h2><div id="platform-kpis"></div><div id="trend" class="chart small"></div></section>
<section class="card"><h2>行业露出率排行榜</h2><div id="ranking"></div></section>
<section class="card"><h2>信源分析</h2><div id="tabs" class="tabs"></div>
<div class="grid2"><div><h3>内容类型</h3><div id="content-type" class="chart"></div></div><div><h3>发布时间</h3><div id="publish-time" class="chart"></div></div></div>
<h3>媒体类型</h3><div id="media-category" class="tiles"></div>
<h3>媒体名称</h3><div id="media-name" class="chart small"></div>
<h3>相关信源</h3><div id="sources"></div></section>
<section class="card"><h2>AI 回答关键词</h2><div id="words" class="cloud"></div>
<h3>AI 回答正面关键词</h3><div id="positive" class="cloud pos"></div><h3>负面关键词</h3><div id="negative" class="cloud neg"></div></section>
</main>
${script(options.before)}
${dataScript}
${script(options.after)}
${options.light ? '' : '<script src="/assets/report.js"></script>'}`,
    // A light page draws no section: its empty containers keep a height, so that a picture of a
    // failing item is taken at once instead of waiting for a section that never appears.
    `${REPORT_STYLE}${options.light ? '\n<style>#report div[id]:empty { min-height: 24px; }</style>' : '\n<script src="/assets/echarts.min.js"></script>'}`,
  );
}

/** A minimal platform page at the run's platformUrl (the suite only reads the project id from its URL). */
export function platformPage(project: DemoProject, reportHref: string): string {
  const { spec } = project;
  return layout(
    `项目概览 · ${spec.brand}`,
    `<header class="top"><h1>L1 监测平台 · 项目概览</h1><p>项目 ${escapeHtml(spec.projectId)} · 公司 ${spec.companyId}</p></header>
<main><section class="card"><h2>${escapeHtml(spec.brand)} · ${escapeHtml(spec.line)}</h2>
<table><tr><th>报告类型</th><td>${TYPE_NAMES[spec.reportType] ?? spec.reportType}</td></tr>
<tr><th>批次日期</th><td>${spec.batchDate}</td></tr><tr><th>批次</th><td>${spec.batchIds.map(escapeHtml).join('<br>')}</td></tr></table>
<p><a href="${escapeHtml(reportHref)}">查看报告</a></p>
<p class="muted">露出排行 · 各平台明细、指标快照、信源与词云由接口 /api/geo-monitor/… 提供。</p></section></main>`,
  );
}

export function indexPage(
  links: { label: string; htmlUrl: string; platformUrl: string; note: string }[],
): string {
  const rows = links
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.label)}</td><td><a href="${escapeHtml(l.htmlUrl)}">报告</a></td><td><a href="${escapeHtml(l.platformUrl)}">平台页</a></td><td>${escapeHtml(l.note)}</td></tr>`,
    )
    .join('\n');
  return layout(
    'L1 监测平台（演示）',
    `<header class="top"><h1>L1 监测平台（演示）</h1><p>本账号可访问的报告</p></header>
<main><section class="card"><h2>报告</h2><table><tr><th>运行</th><th>报告</th><th>平台</th><th>说明</th></tr>${rows}</table></section></main>`,
  );
}

/** What a misconfigured gateway answers: an HTML error page with status 200 (docs/contract.md §4 fault). */
export function gatewayErrorPage(): string {
  return layout(
    '系统繁忙',
    `<main><section class="card"><h2>系统繁忙，请稍后再试</h2><p>错误代码：GW-502</p></section></main>`,
  );
}
