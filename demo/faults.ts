import type http from 'node:http';
import type { AppContext } from './app';
import type { SourceRowInput } from './dataset';
import { apiError, html, json, sleepUnlessClosed } from './http';
import { gatewayErrorPage } from './pages';
import type { DemoProject, MetricsTable } from './runs';

/** Contract 4 errors a project's metrics tables answer with (the `fault` of a scenario). */

/**
 * Sleeps L1_DEMO_SLOW_MS (default 8000) before an answer: the `slow` fault's table, and a report page
 * asked for with `?slow=1`. False when the client went away meanwhile (or the server closes).
 */
export function sleepSlow(ctx: AppContext, res: http.ServerResponse): Promise<boolean> {
  const ms = Number(process.env.L1_DEMO_SLOW_MS ?? 8000);
  return sleepUnlessClosed(Number.isFinite(ms) && ms >= 0 ? ms : 8000, res, ctx.pending, ctx.slow);
}

/** Answers the request when the project's fault applies to it; false when it did. */
export async function metricsFault(
  ctx: AppContext,
  res: http.ServerResponse,
  project: DemoProject,
  table: MetricsTable,
  token: string,
): Promise<boolean> {
  const fault = project.fault;
  const id = project.spec.projectId;
  if (!fault) return true;
  if (fault.kind === 'expire-session-once' && ctx.tripOnce(`${id}:expire`)) {
    ctx.endSession(token);
    apiError(res, 401, '会话已过期，请重新登录');
    return false;
  }
  if (fault.kind === 'status' && (!fault.table || fault.table === table)) {
    const times = fault.times ?? (fault.once ? 1 : Infinity);
    const key = `${id}:${fault.status}:${table}`;
    // The first `times` requests of the table trip one key each; later ones get the data.
    const trips = (k: number): boolean => k < times && (ctx.tripOnce(`${key}:${k}`) || trips(k + 1));
    if (times === Infinity || trips(0)) {
      apiError(res, fault.status, `演示故障：HTTP ${fault.status}`);
      return false;
    }
  }
  if (fault.kind === 'slow' && fault.table === table && !(await sleepSlow(ctx, res))) return false;
  if (fault.kind === 'html-error-page' && fault.table === table) {
    html(res, 200, gatewayErrorPage());
    return false;
  }
  if (fault.kind === 'wrapped-error' && fault.table === table) {
    json(res, 200, { code: fault.code, msg: fault.message, data: null });
    return false;
  }
  return true;
}

/** The payload of a table after the project's payload fault (rows missing, empty, wrong type). */
export function faultedPayload(project: DemoProject, table: MetricsTable, rows: unknown[]): unknown {
  const fault = project.fault;
  if (!fault || !('table' in fault) || fault.table !== table) return { rows };
  if (fault.kind === 'rows-missing') return { total: rows.length, list: rows };
  if (fault.kind === 'rows-empty') return { rows: [] };
  if (fault.kind === 'rows-wrong-type')
    return { rows: (rows as SourceRowInput[]).map((r) => ({ ...r, cite_count: String(r.cite_count) })) };
  return { rows };
}
