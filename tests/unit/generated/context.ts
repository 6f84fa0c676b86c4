import { unwrapEnvelope } from '../../../lib/platform/envelope';
import type { Level, Profile, ReportType, RuleContext } from '../../../lib/rules/types';
import { dataSchemaFor } from '../../../lib/schema/data';
import { parseWith } from '../../../lib/schema/issues';
import { metricsTables, wordcloudPayload } from '../../../lib/schema/platform';
import type { Answers } from '../../../demo/model/encode';

function unwrap(answer: unknown, name: string): unknown {
  const u = unwrapEnvelope(answer);
  if (!u.ok) throw new Error(`${name}: API error ${String(u.code)}: ${u.message}`);
  return u.payload;
}

/** Parses every answer through the real schemas (lib/schema) into the rules' context. */
export function toContext(
  answers: Answers,
  profile: Profile,
  level: Level = 'brand',
  reportType: ReportType = 'monitor',
): RuleContext {
  const get = <T>(name: string, schema: Parameters<typeof parseWith>[0], answer: unknown) =>
    parseWith(schema, unwrap(answer, name), name, 'payload') as T;
  return {
    profile,
    level,
    reportType,
    data: parseWith(dataSchemaFor(level), answers.data, 'generated DATA', 'DATA'),
    platform: {
      snapshot: get<{ rows: never[] }>('snapshot', metricsTables.snapshot, answers.snapshot).rows,
      competitor: get<{ rows: never[] }>('competitor', metricsTables.competitor, answers.competitor).rows,
      tmc: get<{ rows: never[] }>('tmc', metricsTables.tmc, answers.tmc).rows,
      sources: Object.fromEntries(
        Object.entries(answers.sources).map(([k, v]) => [
          k,
          get<{ rows: never[] }>(`source ${k}`, metricsTables.source, v).rows,
        ]),
      ),
      wordcloud: get('wordcloud', wordcloudPayload, answers.wordcloud),
    },
  };
}
