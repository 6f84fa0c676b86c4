import fs from 'node:fs';
import path from 'node:path';
import type { CollectDeps } from '../../../lib/platform/collect';
import type { HttpAnswer, HttpGetter } from '../../../lib/platform/http';
import type { CredentialKey } from '../../../lib/run/credentials';
import type { ConfiguredRun } from '../../../lib/run/runs';
import type { RunInput } from '../../../lib/run/types';
import { buildTruth, htmlData, platformView, type PlatformView } from '../../../demo/dataset';
import { demoProfileB, runOf, type DemoProject } from '../../../demo/runs';
import { tempDir } from './temp';

/**
 * Fakes of the collector's dependency seam (`CollectDeps`): a platform answering from a map of
 * path + query → payload, sessions that hand out a storage-state file, a page that returns a DATA.
 * The data comes from the demo's dataset, so DATA and payloads agree as on the demo platform.
 */

export const ORIGIN = 'http://platform.test';
export const PORTAL_B_HOST = 'portal-b.test';
export const PORTAL_B_ORIGIN = `http://${PORTAL_B_HOST}`;
export const PROFILE_B = demoProfileB(PORTAL_B_HOST);

/** A non-200 (or non-JSON) answer; anything else in the map is a payload answered with HTTP 200. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: string = '{}',
    readonly contentType = 'application/json',
  ) {}
}

/** The map key of a request: the path, then its query parameters sorted by name. */
export function routeKey(pathname: string, params: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)));
  return `${pathname}?${query.toString()}`;
}

/** Answers given in turn, one per request to the same key; the last one repeats. */
export class Sequence {
  readonly answers: unknown[];
  constructor(...answers: unknown[]) {
    this.answers = answers;
  }
}

/** A payload (HTTP 200, JSON), a Reply, or a Sequence of them. */
export type Answer = unknown;

/** A fake API: the answers by routeKey, the requests made (by key) and contexts opened and disposed. */
export class FakePlatform {
  readonly answers = new Map<string, Answer>();
  readonly calls: string[] = [];
  opened = 0;
  disposed = 0;

  set(key: string, answer: Answer): this {
    this.answers.set(key, answer);
    return this;
  }

  callsTo(fragment: string): string[] {
    return this.calls.filter((c) => c.includes(fragment));
  }

  getter(): HttpGetter {
    this.opened++;
    return {
      get: async (url, { params }): Promise<HttpAnswer> => {
        const key = routeKey(new URL(url).pathname, params);
        this.calls.push(key);
        const count = this.calls.filter((c) => c === key).length;
        let answer = this.answers.has(key)
          ? this.answers.get(key)
          : new Reply(404, '{"message":"no fake answer"}');
        if (answer instanceof Sequence) answer = answer.answers[Math.min(count, answer.answers.length) - 1];
        const reply = answer instanceof Reply ? answer : new Reply(200, JSON.stringify(answer));
        return {
          status: () => reply.status,
          headers: () => ({ 'content-type': reply.contentType }),
          text: async () => reply.body,
        };
      },
      dispose: async () => {
        this.disposed++;
      },
    };
  }
}

export const METRICS = '/api/geo-monitor/metrics/l1';
export const BATCH = '/api/geo_label/project/batch';

export function metricsKey(
  project: DemoProject,
  table: string,
  batchIds: string[],
  platform?: string,
): string {
  const { projectId, reportType } = project.spec;
  return routeKey(METRICS, {
    table,
    batchIds: batchIds.join(','),
    projectId,
    reportType,
    ...(platform ? { platform } : {}),
  });
}

export function batchKey(project: DemoProject): string {
  return routeKey(BATCH, { companyId: String(project.spec.companyId), reportType: project.spec.reportType });
}

export function wordcloudKey(project: DemoProject, batchId: string): string {
  return routeKey(`/api/geo-monitor/projects/${project.spec.projectId}/wordcloud`, {
    batchId,
    sentiment: 'all',
  });
}

/** The DATA and payloads of a demo project, as its report and the platform would give them. */
export function viewsOf(project: DemoProject): { data: Record<string, unknown>; view: PlatformView } {
  const truth = buildTruth(project.spec);
  return {
    data: structuredClone(htmlData(truth)) as unknown as Record<string, unknown>,
    view: structuredClone(platformView(truth)),
  };
}

/**
 * The platform answers of a project for `batchIds`: the four tables (source for `all` and every
 * platform), the word cloud of the first id, and a batch list holding `batchItems`.
 */
export function platformFor(
  project: DemoProject,
  view: PlatformView,
  batchIds: string[],
  batchItems: unknown[],
): FakePlatform {
  const fake = new FakePlatform().set(batchKey(project), batchItems);
  fake.set(metricsKey(project, 'snapshot', batchIds), { rows: view.snapshot });
  fake.set(metricsKey(project, 'competitor', batchIds), { rows: view.competitor });
  fake.set(metricsKey(project, 'tmc', batchIds), { rows: view.tmc });
  for (const [platform, rows] of Object.entries(view.source))
    fake.set(metricsKey(project, 'source', batchIds, platform), { rows });
  fake.set(wordcloudKey(project, batchIds[0] ?? ''), view.wordcloud);
  return fake;
}

/** The batch list item of a project (docs/contract.md §4.1). */
export function batchItem(project: DemoProject, batchIds: string[], batchDate = project.spec.batchDate) {
  return {
    batchDate,
    project: project.spec.projectId,
    line: project.spec.line,
    l1CrawlBatchIds: batchIds.map((batchId) => ({ batchId })),
  };
}

export function configuredRun(project: DemoProject, extra: Partial<RunInput> = {}): ConfiguredRun {
  return {
    label: project.label,
    slug: project.label,
    input: { ...runOf(project, ORIGIN, PORTAL_B_ORIGIN), ...extra },
  };
}

export interface SessionCall {
  loginBase: string;
  key: CredentialKey;
  force: boolean;
}

export interface Fakes {
  deps: CollectDeps;
  sessions: SessionCall[];
  pages: string[];
  /** The session each page read was given (undefined: none). */
  pageStates: (string | undefined)[];
  dir: string;
}

/**
 * Dependencies of `collectRun` over `platform`: `session` writes an empty storage state in a temp
 * folder (or runs `login` when given, which may throw), `readPage` answers with `page` (a DATA, a
 * function of the attempt, or an Error to throw).
 */
export function fakeDeps(
  platform: FakePlatform,
  page: unknown | ((attempt: number) => unknown),
  options: { login?: (call: SessionCall) => void; root?: string } = {},
): Fakes {
  const dir = tempDir('collect');
  const state = path.join(dir, 'state.json');
  fs.writeFileSync(state, JSON.stringify({ cookies: [], origins: [] }));
  const sessions: SessionCall[] = [];
  const pages: string[] = [];
  const pageStates: (string | undefined)[] = [];
  const deps: CollectDeps = {
    root: options.root ?? dir,
    profileB: PROFILE_B,
    timeZone: 'Asia/Shanghai',
    timeoutMs: 1000,
    retries: 2,
    backoffMs: 1,
    session: async (loginBase, key, force = false) => {
      const call = { loginBase, key, force };
      sessions.push(call);
      options.login?.(call);
      return state;
    },
    readPage: async (htmlUrl, statePath) => {
      // Without a session only on an origin credentials may not go to (docs/contract.md §3).
      if (statePath !== undefined && statePath !== state)
        throw new Error('fake: the page must be read with the session');
      pages.push(htmlUrl);
      pageStates.push(statePath);
      const answer = typeof page === 'function' ? (page as (n: number) => unknown)(pages.length) : page;
      if (answer instanceof Error) throw answer;
      return { data: answer, notes: [] };
    },
    newApiContext: async (statePath) => {
      if (statePath !== state) throw new Error('fake: the API must be called with the session');
      return platform.getter();
    },
  };
  return { deps, sessions, pages, pageStates, dir };
}
