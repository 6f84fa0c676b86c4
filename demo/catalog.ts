import {
  buildTruth,
  htmlData,
  platformView,
  type BatchItemInput,
  type PlatformView,
  type ReportType,
} from './dataset';
import { BUNDLED, type DemoProject } from './runs';
import { SCENARIOS } from './scenarios';

/**
 * Every demo project (bundled and scenarios) by project id, with its derived DATA and payloads,
 * built once on first use. Mutations of drift scenarios are applied to fresh copies.
 */

export interface ProjectViews {
  /** The page's DATA after the scenario's change (may be deliberately invalid). */
  data: unknown;
  platform: PlatformView;
}

export const ALL_PROJECTS: readonly DemoProject[] = [...BUNDLED, ...SCENARIOS];

const byId = new Map(ALL_PROJECTS.map((p) => [p.spec.projectId, p]));
if (byId.size !== ALL_PROJECTS.length) throw new Error('demo: two projects share a project id');
const cache = new Map<string, ProjectViews>();

export function projectById(projectId: string): DemoProject | undefined {
  return byId.get(projectId);
}

export function viewsOf(project: DemoProject): ProjectViews {
  const cached = cache.get(project.spec.projectId);
  if (cached) return cached;
  const truth = buildTruth(project.spec);
  const data = project.html ? project.html(structuredClone(htmlData(truth))) : htmlData(truth);
  const platform = platformView(truth);
  project.platform?.(platform);
  const views = { data, platform };
  cache.set(project.spec.projectId, views);
  return views;
}

function previousDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/**
 * Contract 4.1: the batch list of a company and report type, newest first, with one older batch per
 * project so the suite has to choose by batchDate and project. Company 1002's items carry the
 * project as a number (the schema accepts both).
 */
export function batchList(companyId: number, reportType: ReportType): BatchItemInput[] {
  const items: BatchItemInput[] = [];
  for (const { spec } of ALL_PROJECTS) {
    if (spec.companyId !== companyId || spec.reportType !== reportType || !spec.listed) continue;
    const project = companyId === 1002 ? Number(spec.projectId) : spec.projectId;
    const step = reportType === 'monitor' ? 7 : 28;
    const older = previousDate(spec.batchDate, step);
    items.push({
      batchDate: spec.batchDate,
      project,
      line: spec.line,
      l1CrawlBatchIds: spec.batchIds.map((batchId) => ({ batchId })),
    });
    items.push({
      batchDate: older,
      project,
      line: spec.line,
      l1CrawlBatchIds: [{ batchId: `${spec.batchIds[0] ?? spec.projectId}-${older.replace(/-/g, '')}-H` }],
    });
  }
  return items.sort((a, b) => b.batchDate.localeCompare(a.batchDate));
}
