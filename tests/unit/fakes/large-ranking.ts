import { parentPort, workerData } from 'node:worker_threads';
import { checkItem5 } from '../../../lib/rules/ranking';
import { competitorRow, context, failingKeys } from '../builders';

/**
 * Judges item 5 (Profile B) over `workerData.n` brands on each side, in a worker thread of its own,
 * and posts the failing keys of step 5.2: judging is synchronous, so only the thread's owner can end
 * it when it takes too long (tests/unit/rules-ranking.spec.ts).
 */
const n = (workerData as { n: number }).n;
const result = checkItem5(
  context({
    profile: 'B',
    edit: (d, p) => {
      for (let i = 0; i < n; i++) {
        d.brand.core_competitors.push({ name: `b${i}`, avg_exposure_rate: 10 - i / n });
        p.competitor.push(competitorRow(`b${(i * 7) % n}`, 10 - i / n, [1, 1, 1, 1, 1, 1]));
      }
      d.brand.core_competitors.unshift({ name: 'absent', avg_exposure_rate: 99 });
    },
  }),
);
parentPort?.postMessage(failingKeys(result, '5.2'));
