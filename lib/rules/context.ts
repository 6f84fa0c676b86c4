import type { Evidence } from '../platform/evidence';
import { dataSchemaFor } from '../schema/data';
import { parseWith } from '../schema/issues';
import { metricsTables, wordcloudPayload, type PlatformEvidence } from '../schema/platform';
import type { RuleContext } from './types';

/** What the rules see of a run: its validated DATA and payloads. `undefined` unless it was checked. */
export function ruleContext(evidence: Evidence): RuleContext | undefined {
  const { run, raw } = evidence;
  if (evidence.status !== 'checked' || !raw || !run.reportType) return undefined;
  const platform: PlatformEvidence = {
    snapshot: parseWith(metricsTables.snapshot, raw.platform.snapshot, 'snapshot', 'payload').rows,
    competitor: parseWith(metricsTables.competitor, raw.platform.competitor, 'competitor', 'payload').rows,
    tmc: parseWith(metricsTables.tmc, raw.platform.tmc, 'tmc', 'payload').rows,
    sources: Object.fromEntries(
      Object.entries(raw.platform.sources).map(([key, value]) => [
        key,
        parseWith(metricsTables.source, value, `source ${key}`, 'payload').rows,
      ]),
    ),
    wordcloud: parseWith(wordcloudPayload, raw.platform.wordcloud, 'wordcloud', 'payload'),
  };
  const data = parseWith(dataSchemaFor(run.level), raw.data, 'DATA', 'DATA');
  return { profile: run.profile, level: run.level, reportType: run.reportType, data, platform };
}
