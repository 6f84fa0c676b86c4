import { between, intBetween, pick, shuffle, type Rng } from './prng';
import { AGGREGATE, SCOPES, type ProjectSpec } from './spec';
import type { Entry, GroupTruth, Truth } from './truth';
import {
  CONTENT_TYPES,
  DOMAINS,
  MEDIA_CATEGORIES,
  MEDIA_HOSTS,
  MEDIA_NAMES,
  NO_TIME,
  OTHER,
  PUBLISH_TIMES,
  TITLE_TEMPLATES,
  UNKNOWN,
} from './vocab';

/** The truth's share groups (spec 7.3 to 7.5), related sources (7.8) and word cloud (7.7). */

function distinctCounts(rng: Rng, n: number, total: number, minGap = 0.3): number[] {
  for (let attempt = 0; attempt < 2000; attempt++) {
    const weights = Array.from({ length: n }, (_, i) => between(rng, 0.45, 1) * 0.82 ** i);
    const sum = weights.reduce((a, b) => a + b, 0);
    const counts = weights.map((w) => Math.max(3, Math.round((total * w) / sum)));
    const countSum = counts.reduce((a, b) => a + b, 0);
    const shares = counts.map((c) => (c / countSum) * 100).sort((a, b) => b - a);
    if (shares.every((s, i) => i === 0 || (shares[i - 1] as number) - s >= minGap)) return counts;
  }
  throw new Error('demo dataset: could not draw distinct counts');
}

function named(rng: Rng, names: readonly string[], counts: number[]): Entry[] {
  const order = shuffle(rng, names);
  return counts.map((value, i) => ({ name: order[i] as string, value }));
}

export function buildGroups(rng: Rng, spec: ProjectSpec): Truth['groups'] {
  const groups: Truth['groups'] = {};
  for (const scope of SCOPES) {
    const total = scope === AGGREGATE ? intBetween(rng, 2400, 4200) : intBetween(rng, 500, 1100);
    const contentNames = spec.shape.contentType === 'percent10' ? CONTENT_TYPES : CONTENT_TYPES.slice(0, 7);
    const content: GroupTruth =
      spec.shape.doubleDivision === scope
        ? {
            kind: 'percent',
            entries: [52.1, 23.45, 14.25, 10.4].map((value, i) => ({
              name: CONTENT_TYPES[i] as string,
              value,
            })),
          }
        : {
            kind: 'count',
            entries: named(rng, contentNames, distinctCounts(rng, contentNames.length, total)),
          };
    const times = named(rng, PUBLISH_TIMES, distinctCounts(rng, PUBLISH_TIMES.length, total));
    const timeSum = times.reduce((s, e) => s + e.value, 0);
    // 「无时间」: ~0.4 % where the HTML keeps it in its percentages, ~8 % where the platform lists it.
    const noTimeShare =
      spec.shape.publishTime === 'html-no-time' ? between(rng, 0.003, 0.005) : between(rng, 0.07, 0.1);
    if (spec.shape.publishTime !== 'none')
      times.push({
        name: NO_TIME,
        value: Math.max(1, Math.round((timeSum * noTimeShare) / (1 - noTimeShare))),
      });
    const media = named(rng, MEDIA_CATEGORIES, distinctCounts(rng, MEDIA_CATEGORIES.length, total));
    const mediaSum = media.reduce((s, e) => s + e.value, 0);
    // 其他 + 未知 are a real part of the whole (5-9 %): computing Profile B the Profile A way fails (9.4.2).
    media.push({ name: OTHER, value: Math.round(mediaSum * between(rng, 0.03, 0.05)) });
    media.push({ name: UNKNOWN, value: Math.round(mediaSum * between(rng, 0.02, 0.04)) });
    const mediaNames = named(rng, shuffle(rng, MEDIA_NAMES).slice(0, 10), distinctCounts(rng, 10, total));
    const nameSum = mediaNames.reduce((s, e) => s + e.value, 0);
    mediaNames.push({ name: OTHER, value: Math.round(nameSum * between(rng, 0.04, 0.08)) });
    mediaNames.push({ name: UNKNOWN, value: Math.round(nameSum * between(rng, 0.01, 0.03)) });
    groups[scope] = {
      content_type: content,
      publish_time: { kind: 'count', entries: times },
      media_category: { kind: 'count', entries: media },
      media_name: { kind: 'count', entries: mediaNames },
    };
  }
  return groups;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
}

function titlePool(rng: Rng, spec: ProjectSpec): string[] {
  const domain = DOMAINS[spec.domain];
  const brands: string[] = [spec.brand, ...domain.competitors];
  const pool = new Set<string>();
  for (let i = 0; pool.size < 90 && i < 5000; i++) {
    const [b, b2] = shuffle(rng, brands);
    pool.add(
      fill(pick(rng, TITLE_TEMPLATES), {
        c: domain.category,
        b: b as string,
        b2: b2 as string,
        m: pick(rng, domain.models),
        f: pick(rng, domain.features),
        n: String(intBetween(rng, 5, 12)),
      }),
    );
  }
  return [...pool];
}

/** Cited counts, highest first, with ties (7.8.4: equal counts keep API order). */
function citeCounts(rng: Rng, n: number): number[] {
  const counts = [intBetween(rng, 40, 66)];
  for (let i = 1; i < n; i++) {
    const forcedTie = i === 4 || i === 11 || i === 12;
    const step = forcedTie ? 0 : pick(rng, [0, 1, 1, 1, 2, 2, 3]);
    counts.push(Math.max(1, (counts[i - 1] as number) - step));
  }
  return counts;
}

export function buildSources(rng: Rng, spec: ProjectSpec): Truth['sources'] {
  const pool = titlePool(rng, spec);
  const sources: Truth['sources'] = {};
  for (const scope of SCOPES) {
    const n = spec.shape.shortSources?.[scope] ?? 30;
    const titles = shuffle(rng, pool).slice(0, n);
    const counts = citeCounts(rng, n);
    sources[scope] = titles.map((title, i) => {
      const channel = pick(rng, MEDIA_NAMES);
      return {
        title,
        channel,
        cite_count: counts[i] as number,
        url: `https://${MEDIA_HOSTS[channel] ?? 'www.example.com'}/p/${intBetween(rng, 10_000_000, 99_999_999)}`,
      };
    });
  }
  return sources;
}

export function buildWordcloud(rng: Rng, spec: ProjectSpec): Truth['wordcloud'] {
  const domain = DOMAINS[spec.domain];
  const weigh = (words: readonly string[], max: number) =>
    words.map((name) => ({ name, value: intBetween(rng, 4, max) }));
  return {
    words: weigh([...domain.words, spec.brand, ...domain.competitors.slice(0, 4)], 160),
    positive: weigh(domain.positive, 60),
    negative: weigh(domain.negative, 20),
  };
}
