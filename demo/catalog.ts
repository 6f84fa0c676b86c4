import {
  buildTruth,
  htmlData,
  platformView,
  type BatchItemInput,
  type PlatformView,
  type ReportType,
} from './dataset';
import { projectAt, windowDates } from './dates';
import { BUNDLED, type DemoProject } from './runs';
import { allModelProjects, isModelId, modelProject } from './model/projects';
import { ALL_SCENARIOS } from './scenarios';

/**
 * Every demo project by id: bundled, scenarios (every family) and the model projects (the demo's
 * generated runs, demo/model/projects.ts, by id alone), with the bundled and scenario projects'
 * DATA and payloads built on first use. Mutations of drift scenarios are applied to fresh copies.
 * The nightly projects' other dates sit in a bounded cache (oldest out first).
 */

export { isModelId };

export interface ProjectViews {
  /** The page's DATA after the scenario's change (may be deliberately invalid). */
  data: unknown;
  platform: PlatformView;
}

export const ALL_PROJECTS: readonly DemoProject[] = [...BUNDLED, ...ALL_SCENARIOS];

const byId = new Map(ALL_PROJECTS.map((p) => [p.spec.projectId, p]));
if (byId.size !== ALL_PROJECTS.length) throw new Error('demo: two projects share a project id');
const cache = new Map<string, ProjectViews>();
const otherDates = new Map<string, ProjectViews>();
const OTHER_DATES_CACHE_SIZE = 400;

/**
 * A project by id, as it is on `date` (demo/dates.ts): projects served nightly exist on every date of
 * the window and on their own date (undefined on another date: no report that night); the others
 * ignore the date.
 */
export function projectById(projectId: string, date?: string): DemoProject | undefined {
  const project = byId.get(projectId) ?? modelProject(projectId);
  return project?.nightly ? projectAt(project, date) : project;
}

function build(project: DemoProject): ProjectViews {
  const truth = buildTruth(project.spec);
  const data = project.html ? project.html(structuredClone(htmlData(truth))) : htmlData(truth);
  const platform = platformView(truth);
  project.platform?.(platform);
  return { data, platform };
}

/** The DATA and payloads of a bundled or scenario project (a model project serves its drawn case: modelAnswers). */
export function viewsOf(project: DemoProject): ProjectViews {
  const own = byId.get(project.spec.projectId);
  if (!own) throw new Error(`demo: viewsOf(${project.spec.projectId}): not a bundled or scenario project`);
  const id = `${project.spec.projectId}@${project.spec.batchDate}`;
  // The nightly projects' other dates sit in the bounded cache.
  const other = own.spec.batchDate !== project.spec.batchDate;
  const store = other ? otherDates : cache;
  const cached = store.get(id);
  if (cached) return cached;
  const views = build(project);
  store.set(id, views);
  if (other && store.size > OTHER_DATES_CACHE_SIZE) store.delete(store.keys().next().value as string);
  return views;
}

function previousDate(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

function item(companyId: number, spec: DemoProject['spec'], batchDate: string, batchIds: string[]) {
  return {
    batchDate,
    // A string, as contract §4.1 has it (the suite also reads a number: tests/unit/platform-parsing.spec.ts).
    project: spec.projectId,
    line: spec.line,
    l1CrawlBatchIds: batchIds.map((batchId) => ({ batchId })),
  };
}

/**
 * Contract 4.1: the batch list of a company and report type, newest first, with one older batch per
 * named project so the suite has to choose by batchDate and project. The model projects
 * (demo/model/projects.ts, every kind of every index) are listed too, with no older batch.
 */
export function batchList(companyId: number, reportType: ReportType): BatchItemInput[] {
  const items: BatchItemInput[] = [];
  const matches = ({ spec }: DemoProject) =>
    spec.companyId === companyId && spec.reportType === reportType && spec.listed;
  for (const project of ALL_PROJECTS.filter(matches).filter((p) => p.nightly)) {
    for (const date of windowDates()) {
      const { spec } = projectAt(project, date)!;
      items.push(item(companyId, spec, spec.batchDate, spec.batchIds));
    }
  }
  for (const { spec } of ALL_PROJECTS.filter(matches)) {
    const step = reportType === 'monitor' ? 7 : 28;
    const older = previousDate(spec.batchDate, step);
    items.push(item(companyId, spec, spec.batchDate, spec.batchIds));
    items.push(
      item(companyId, spec, older, [`${spec.batchIds[0] ?? spec.projectId}-${older.replace(/-/g, '')}-H`]),
    );
  }
  for (const project of allModelProjects())
    if (matches(project))
      items.push(item(companyId, project.spec, project.spec.batchDate, project.spec.batchIds));
  return items.sort((a, b) => b.batchDate.localeCompare(a.batchDate));
}
