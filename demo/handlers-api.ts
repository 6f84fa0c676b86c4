import type http from 'node:http';
import { metricsTables } from '../lib/schema/platform';
import type { AppContext } from './app';
import { batchList, isModelId, projectById, viewsOf } from './catalog';
import { mayRead } from './credentials';
import { dateOfBatchId } from './dates';
import type { Envelope } from './dataset';
import { faultedPayload, metricsFault } from './faults';
import { hostileMetrics } from './hostile';
import { HOSTILE_API_MESSAGE } from './hostile-kinds';
import { apiError, json } from './http';
import { wrap } from './spec';
import { MODEL_PLATFORM_KEYS, modelAnswers } from './model/projects';
import { DEMO_GROUP, type DemoProject, type MetricsTable } from './runs';
import { AI_PLATFORMS } from './vocab';

/** The three endpoints of docs/contract.md §4: batch list (4.1), L1 metrics (4.2), word cloud (4.3). */

const TABLES = Object.keys(metricsTables) as readonly MetricsTable[];
const PLATFORM_KEYS = AI_PLATFORMS.map((p) => p.key);
/** Batch list envelopes vary by company (docs/contract.md §4: bare or wrapped). */
const BATCH_ENVELOPE: Record<number, Envelope> = { 1002: 'code200', 3101: 'code0', 3102: 'code0' };

const isReportType = (x: string | null): x is 'monitor' | 'diagnosis' => x === 'monitor' || x === 'diagnosis';

export function builtDiagnosisId(project: DemoProject): string {
  return `${DEMO_GROUP.brandCode}-HIST-${project.spec.projectId}-${project.spec.batchDate.replace(/-/g, '')}-D`;
}

function sameIds(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');
}

export function batch(ctx: AppContext, req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
  const s = ctx.session(req);
  if (!s) return apiError(res, 401, '未登录或会话已过期');
  const companyId = Number(url.searchParams.get('companyId'));
  const reportType = url.searchParams.get('reportType');
  if (!url.searchParams.get('companyId') || !Number.isInteger(companyId))
    return apiError(res, 400, '参数 companyId 缺失或不是整数');
  if (!isReportType(reportType)) return apiError(res, 400, '参数 reportType 应为 monitor 或 diagnosis');
  const items = batchList(companyId, reportType);
  ctx.stats.count(`company:${companyId}`, `batch:${reportType}`);
  // Model projects (demo/model/projects.ts, hundreds per list) are counted under the company only.
  for (const project of new Set(items.map((i) => String(i.project))))
    if (!isModelId(project)) ctx.stats.count(project, 'batch');
  if (!mayRead(s.who, companyId)) return apiError(res, 403, `无权访问公司 ${companyId} 的批次`);
  json(res, 200, wrap(BATCH_ENVELOPE[companyId] ?? 'bare', items));
}

export async function metrics(
  ctx: AppContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
): Promise<void> {
  const q = url.searchParams;
  const table = q.get('table') as MetricsTable | null;
  const platform = q.get('platform');
  const firstId = (q.get('batchIds') ?? '').split(',')[0]?.trim() ?? '';
  const project = projectById(q.get('projectId') ?? '', dateOfBatchId(firstId));
  if (project && table && TABLES.includes(table))
    ctx.stats.count(project.spec.projectId, table === 'source' ? `source:${platform ?? ''}` : table);
  const s = ctx.session(req);
  if (!s) return apiError(res, 401, '未登录或会话已过期');
  if (!table || !TABLES.includes(table))
    return apiError(res, 400, '参数 table 应为 snapshot、competitor、tmc 或 source');
  const batchIds = (q.get('batchIds') ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (batchIds.length === 0) return apiError(res, 400, '缺少参数 batchIds');
  if (!q.get('projectId')) return apiError(res, 400, '缺少参数 projectId');
  const reportType = q.get('reportType');
  if (!isReportType(reportType)) return apiError(res, 400, '参数 reportType 应为 monitor 或 diagnosis');
  const keys = project?.model ? MODEL_PLATFORM_KEYS : PLATFORM_KEYS;
  if (table === 'source' && (!platform || !['all', ...keys].includes(platform))) {
    return apiError(res, 400, `table=source 需要参数 platform（all 或 ${keys.join('、')}）`);
  }
  if (!project) return apiError(res, 404, `项目 ${q.get('projectId') ?? ''} 不存在`);
  if (!mayRead(s.who, project.spec.companyId))
    return apiError(res, 403, `无权访问项目 ${project.spec.projectId}`);
  if (!(await metricsFault(ctx, res, project, table, s.token))) return;
  if (project.hostile?.kind === 'api-msg-secrets' && table === 'competitor') {
    // A platform that quotes the account in its errors (README.md § Security and limits), in a
    // message that also clears the terminal and writes a fake verdict line (HOSTILE_API_MESSAGE, as
    // hostile-api-msg-control-chars): one run through the whole suite proves both, masked and escaped.
    const account =
      s.who.kind === 'profileB' ? ctx.registry.profileB : ctx.registry.companies[String(s.who.companyId)];
    return json(res, 200, {
      code: 500,
      msg: `账号 ${account?.phone ?? '-'} 密码 ${account?.password ?? '-'} 会话 ${s.token} 已失效 ${HOSTILE_API_MESSAGE}`,
      data: null,
    });
  }
  if (project.hostile && (await hostileMetrics(ctx, res, project, table, platform ?? 'all'))) return;
  // A model project's answers come encoded and wrapped as its case drew them; a fault or a hostile
  // behaviour above applies to it as to any project.
  if (project.model)
    return json(res, 200, modelAnswer(project, table, batchIds, reportType, platform ?? 'all'));
  const rows = tableRows(project, table, batchIds, reportType, platform ?? 'all');
  json(res, 200, wrap(project.spec.envelope, faultedPayload(project, table, rows)));
}

/**
 * A model project's answer (demo/model/projects.ts), encoded as the case drew it; another batch or
 * report type gets no rows, as the other projects do.
 */
function modelAnswer(
  project: DemoProject,
  table: MetricsTable,
  batchIds: string[],
  reportType: string,
  platform: string,
): unknown {
  const answers = modelAnswers(project);
  if (reportType !== project.spec.reportType || !sameIds(batchIds, project.spec.batchIds))
    return { rows: [] };
  if (table === 'source') return answers.sources[platform] ?? { rows: [] };
  return answers[table];
}

/** Rows for the project's own batch ids (order-insensitive); unknown ids → no rows (docs/contract.md §4). */
function tableRows(
  project: DemoProject,
  table: MetricsTable,
  batchIds: string[],
  reportType: string,
  platform: string,
): unknown[] {
  const views = viewsOf(project).platform;
  const authoritative =
    project.fault?.kind === 'authoritative-id' &&
    table === 'snapshot' &&
    sameIds(batchIds, [builtDiagnosisId(project)]);
  if (reportType !== project.spec.reportType) return [];
  if (!authoritative && !sameIds(batchIds, project.spec.batchIds)) return [];
  if (table === 'snapshot') return views.snapshot;
  if (table === 'competitor') return views.competitor;
  if (table === 'tmc') return views.tmc;
  return views.source[platform] ?? [];
}

export function wordcloud(
  ctx: AppContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  projectId: string,
): void {
  const batchId = url.searchParams.get('batchId');
  const project = projectById(projectId, batchId ? dateOfBatchId(batchId) : undefined);
  if (project) ctx.stats.count(project.spec.projectId, 'wordcloud');
  const s = ctx.session(req);
  if (!s) return apiError(res, 401, '未登录或会话已过期');
  if (!batchId) return apiError(res, 400, '缺少参数 batchId');
  if (url.searchParams.get('sentiment') !== 'all') return apiError(res, 400, '参数 sentiment 应为 all');
  if (!project) return apiError(res, 404, `项目 ${projectId} 不存在`);
  if (!mayRead(s.who, project.spec.companyId)) return apiError(res, 403, `无权访问项目 ${projectId}`);
  // Another batch gets no words. A model project's answer comes wrapped as its case drew it.
  const own = batchId === project.spec.batchIds[0];
  const none = { words: [], positive: [], negative: [] };
  if (project.model) return json(res, 200, own ? modelAnswers(project).wordcloud : none);
  const payload = own ? viewsOf(project).platform.wordcloud : none;
  json(res, 200, wrap(project.spec.wordcloudEnvelope ?? project.spec.envelope, payload));
}
