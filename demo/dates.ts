import { addDays, dateIn, DEFAULT_TIME_ZONE } from '../lib/run/night';
import type { DemoProject } from './runs';

/**
 * The demo as a nightly platform (README.md § Run it nightly in CI): the bundled projects (and the
 * `nightly-*` scenarios) have a report and batches for every date of a recent window, so a templated
 * runs file (`{batchDate}`) finds tonight's reports whatever the date. Each date has its own numbers
 * (seed `<seed>@<date>`) and batch ids (the project's ids with the date in them moved to the date).
 * A project's own fixed date is always served too (the scenarios and screenshots use it).
 */

/** Days back from today (in Asia/Shanghai, the suite's default L1_TIME_ZONE) that the demo serves. */
export const DEMO_WINDOW_DAYS = 120;

export function today(now = new Date()): string {
  return dateIn(DEFAULT_TIME_ZONE, now);
}

/** Today − 120 … today + 1 (a runner in another time zone may already be on tomorrow). */
export function inWindow(date: string, now = new Date()): boolean {
  const t = today(now);
  return date >= addDays(t, -DEMO_WINDOW_DAYS) && date <= addDays(t, 1);
}

/** Every date of the window, newest first. */
export function windowDates(now = new Date()): string[] {
  const t = addDays(today(now), 1);
  return Array.from({ length: DEMO_WINDOW_DAYS + 2 }, (_, i) => addDays(t, -i));
}

/**
 * From when `nightly-*` scenarios break (L1_DEMO_BREAK_FROM: a YYYY-MM-DD date; default yesterday in
 * Asia/Shanghai): the night before stays clean, so two nights show a pass then a fail under one id.
 */
export function breakFrom(now = new Date()): string {
  const given = process.env.L1_DEMO_BREAK_FROM;
  if (given && /^\d{4}-\d{2}-\d{2}$/.test(given)) return given;
  return addDays(today(now), -1);
}

const compact = (date: string) => date.replace(/-/g, '');

/** A date in any of the report URL forms (docs/contract.md §1.1): a query parameter or a path segment. */
export function dateOfUrl(url: URL): string | undefined {
  const q = url.searchParams.get('batchDate') ?? url.searchParams.get('batch_date');
  const fromPath = url.pathname.split('/').find((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) || /^\d{8}$/.test(s));
  const found = q ?? fromPath;
  if (!found) return undefined;
  return /^\d{8}$/.test(found) ? `${found.slice(0, 4)}-${found.slice(4, 6)}-${found.slice(6)}` : found;
}

/** The date inside a batch id (`…-20251117-…`), if any. */
export function dateOfBatchId(batchId: string): string | undefined {
  const m = /(?:^|\D)(20\d{2})(\d{2})(\d{2})(?:\D|$)/.exec(batchId);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

/** Whether a project is served on every date of the window (bundled projects, `nightly-*` scenarios). */
export function servedNightly(project: DemoProject): boolean {
  return project.nightly !== undefined;
}

const dated = new Map<string, DemoProject>();

/**
 * The project as it is on `date`: itself on its own date; a copy with the date, its batch ids and
 * seed moved to `date` inside the window; undefined outside (no report that night).
 */
export function projectAt(
  project: DemoProject,
  date: string | undefined,
  now = new Date(),
): DemoProject | undefined {
  if (date === undefined || date === project.spec.batchDate) return project;
  if (!project.nightly || !inWindow(date, now)) return undefined;
  const key = `${project.spec.projectId}@${date}@${breakFrom(now)}`;
  const cached = dated.get(key);
  if (cached) return cached;
  const own = compact(project.spec.batchDate);
  const breaks = project.nightly.breaks && date >= breakFrom(now) ? project.nightly.breaks : undefined;
  const copy: DemoProject = {
    ...project,
    spec: {
      ...project.spec,
      batchDate: date,
      seed: `${project.spec.seed}@${date}`,
      batchIds: project.spec.batchIds.map((id) => id.replace(own, compact(date))),
    },
    ...(breaks?.platform ? { platform: breaks.platform } : {}),
    ...(breaks?.html ? { html: breaks.html } : {}),
  };
  dated.set(key, copy);
  if (dated.size > 2000) dated.delete(dated.keys().next().value as string);
  return copy;
}
