/**
 * One seeded source of truth per project, and the two views derived from it: the report's DATA and
 * the platform payloads. Both views agree under the spec's rules unless a scenario mutates one side.
 * Where the two sides differ on purpose (rounding, formats, near-misses) the comment names the rule.
 *
 * This module only gathers the parts: spec.ts (what a project is), truth.ts and truth-media.ts (the
 * seeded truth), view-platform.ts (payload rows) and view-html.ts (DATA).
 */
export type {
  BatchItemInput,
  CompetitorRowInput,
  DataInput,
  Dimension,
  Envelope,
  NoValue,
  ProjectSpec,
  RateStyle,
  ReportType,
  Shape,
  SnapshotRowInput,
  SourceRowInput,
  TmcRowInput,
  WordcloudInput,
} from './spec';
export { buildTruth, type Truth } from './truth';
export { htmlData } from './view-html';
export { platformView, type PlatformView } from './view-platform';
