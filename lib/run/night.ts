import type { RunInput } from './types';
import { realDate } from '../util/calendar';

/**
 * Tonight's reports (README.md § Run it nightly in CI): a run's string fields may name the batch
 * date as `{batchDate}` (YYYY-MM-DD) or `{batchDateCompact}` (YYYYMMDD), filled from
 * `L1_BATCH_DATE` in the time zone `L1_TIME_ZONE`. Pure: the caller passes the clock.
 */

/** The reports are generated for a team in China: "yesterday" is yesterday in Beijing time. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
/** A scheduled night checks the reports of the day that just ended. */
export const DEFAULT_BATCH_DATE = 'yesterday';

/** The run fields that may hold a placeholder (docs/contract.md §1). */
export const TEMPLATED_FIELDS = [
  'htmlUrl',
  'platformUrl',
  'baseUrl',
  'calDataJson',
  'label',
  'batchId',
] as const;

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9_]*)\}/g;
const KNOWN = ['batchDate', 'batchDateCompact'];
/**
 * A known placeholder as a browser's address bar percent-encodes it (`%7BbatchDate%7D`), which a
 * URL copied back from it holds: left as it was, the run read the batch date "{batchDate}"
 * (docs/contract.md §1.1) and failed at night, or took the date of another segment. Only the
 * known names: a URL may hold other encoded braces (`?filter=%7Bstatus%7D`) of its own.
 */
const ENCODED = /%7[Bb](batchDate|batchDateCompact)%7[Dd]/g;

export class NightError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NightError';
  }
}

/** The batch date an invocation fills in, and how it was chosen (for the terminal, verdicts, Allure). */
export interface Night {
  /** YYYY-MM-DD. */
  batchDate: string;
  /** What was asked: `yesterday`, `today`, `-3` or a date. */
  given: string;
  timeZone: string;
  /** `2026-11-22 (yesterday in Asia/Shanghai)`. */
  describe: string;
}

/**
 * Names ICU takes that are no IANA time zone: the three-letter ids of old Java, and the SystemV
 * zones IANA dropped. `CST` is America/Chicago there, where a team in China means China Standard
 * Time, 14 hours away: "yesterday" was then the day before yesterday for part of the day, and
 * nothing said so. `IST` (Kolkata), `BST` (Dhaka) and `PST` alike. EST, MST, HST, PRC, ROC, ROK,
 * CET, EET, MET, WET, GMT, UTC and UCT are IANA names and stay.
 */
const ICU_ONLY_ZONES =
  /^(?:ACT|AET|AGT|ART|AST|BET|BST|CAT|CNT|CST|CTT|EAT|ECT|IET|IST|JST|MIT|NET|NST|PLT|PNT|PRT|PST|SST|VST|SystemV\/.*)$/i;

/** A valid IANA time zone name, else a NightError naming the variable. */
export function checkTimeZone(timeZone: string, variable = 'L1_TIME_ZONE'): string {
  let read: string;
  try {
    read = new Intl.DateTimeFormat('en-CA', { timeZone }).resolvedOptions().timeZone;
  } catch {
    throw new NightError(
      `${variable}=${JSON.stringify(timeZone)} is not an IANA time zone name (for example Asia/Shanghai or UTC)`,
    );
  }
  if (ICU_ONLY_ZONES.test(timeZone.trim()))
    throw new NightError(
      `${variable}=${JSON.stringify(timeZone)} is not an IANA time zone name: it would be read as ${read}, which the abbreviation does not mean everywhere (China Standard Time is Asia/Shanghai); write the IANA name, for example Asia/Shanghai or ${read}`,
    );
  return timeZone;
}

/** IANA names of a fixed offset all year that read as a region's time, which changes in summer. */
const NO_DAYLIGHT_SAVING: Record<string, string> = {
  EST: 'America/New_York',
  MST: 'America/Denver',
};

/**
 * A warning for a zone that is not the time it reads as (time audit of 2026-11-28), undefined for
 * every other zone:
 * - `Etc/GMT±N`, whose sign is POSIX's, the reverse: `Etc/GMT+8` is UTC−08:00, 16 hours from
 *   Beijing, where a team writing it for China meant UTC+08:00; "yesterday" was then the day before
 *   yesterday for most of the day.
 * - `EST` and `MST`, UTC−05:00 and UTC−07:00 all year: a team in New York or Denver is an hour
 *   away in summer, and "yesterday" was the day before for an hour each night.
 */
export function zoneWarning(timeZone: string, variable = 'L1_TIME_ZONE'): string | undefined {
  const fixed = NO_DAYLIGHT_SAVING[timeZone.trim().toUpperCase()];
  if (fixed)
    return `${variable}=${timeZone} is a fixed offset all year, with no daylight saving: for the time of a region that changes in summer write its zone, for example ${fixed}`;
  const m = /^Etc\/GMT([+-])(\d{1,2})$/i.exec(timeZone.trim());
  if (!m || Number(m[2]) === 0) return undefined;
  const hours = `${m[2]!.padStart(2, '0')}:00`;
  const [is, reads, other] = m[1] === '+' ? ['−', '+', '-'] : ['+', '−', '+'];
  // Beijing's zone named only where it is the time the name reads as (Etc/GMT+8): after Etc/GMT-5,
  // "Asia/Shanghai for Beijing time" pointed at neither offset (review of 2026-11-28).
  const beijing = reads === '+' && Number(m[2]) === 8 ? ' (Asia/Shanghai for Beijing time)' : '';
  return `${variable}=${timeZone} is UTC${is}${hours}: in Etc/GMT names the sign is reversed (POSIX); for UTC${reads}${hours} write Etc/GMT${other}${Number(m[2])}, or the zone of a city there${beijing}`;
}

/**
 * One date format per time zone: building an Intl.DateTimeFormat costs about a hundred times what
 * a format does, and the demo asks for a date on every request (a self-test worker's CPU profile
 * had 2.8 s in this function).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date of `now` in `timeZone`, YYYY-MM-DD. */
export function dateIn(timeZone: string, now: Date): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dateFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** `date` moved by `days` calendar days (dates only: no time zone, no daylight saving). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * `L1_BATCH_DATE`: `YYYY-MM-DD`, `today`, `yesterday` or `-N` (N days back), in `timeZone`.
 * Anything else is a NightError naming the variable and the forms it accepts.
 */
export function resolveNight(given: string, timeZone: string, now: Date, variable = 'L1_BATCH_DATE'): Night {
  const text = given.trim();
  checkTimeZone(timeZone);
  const today = dateIn(timeZone, now);
  let batchDate: string;
  let how: string;
  if (realDate(text)) {
    batchDate = text;
    how = `${variable}=${text}`;
  } else if (text === 'today' || text === 'yesterday' || /^-\d{1,4}$/.test(text)) {
    const back = text === 'today' ? 0 : text === 'yesterday' ? 1 : Number(text.slice(1));
    batchDate = addDays(today, -back);
    how = `${text === 'today' || text === 'yesterday' ? text : `${back} day${back === 1 ? '' : 's'} back`} in ${timeZone}`;
  } else {
    // A value of the date's form said as what it is: "expected YYYY-MM-DD" of 2026-02-29 sent
    // users looking for a typo in the format (inputs audit of 2026-11-28).
    const compact = text.replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3');
    const why = /^\d{4}-\d{2}-\d{2}$/.test(text)
      ? 'no such day in the calendar; '
      : compact !== text && realDate(compact)
        ? `write it ${compact}; `
        : '';
    throw new NightError(
      `${variable}=${JSON.stringify(given)}: ${why}expected YYYY-MM-DD, today, yesterday or -N (N days back, in L1_TIME_ZONE)`,
    );
  }
  return { batchDate, given: text, timeZone, describe: `${batchDate} (${how})` };
}

/** The nights of one job over several (`npm run demo -- --nights N`, scripts/main.ts). */
export interface NightsOfJob {
  /** YYYY-MM-DD, oldest first, one a day: what each night's checks get as `L1_BATCH_DATE`. */
  dates: string[];
  /** The last night, as `given` (L1_BATCH_DATE, default yesterday) resolved it. */
  last: Night;
}

/**
 * The `count` nights ending with the one `given` names, resolved once with the job's clock. Each
 * night's checks get its date written out: as `-N … -1` each was resolved when its own checks began,
 * so a job that crossed midnight in `timeZone` (30 demo nights take hours) checked one night twice
 * and skipped another (time audit of 2026-11-28), and an `L1_BATCH_DATE` given to the job was
 * silently replaced. A NightError for a bad `given` or zone, as `resolveNight`.
 */
export function nightsOfJob(given: string, count: number, timeZone: string, now: Date): NightsOfJob {
  const last = resolveNight(given, timeZone, now);
  const dates = Array.from({ length: count }, (_, i) => addDays(last.batchDate, i - count + 1));
  return { dates, last };
}

/** The placeholders a text names, known or not (known ones percent-encoded too). */
export function placeholdersIn(text: string): string[] {
  return [...decodePlaceholders(text).matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/** The text with `%7BbatchDate%7D` (either case of hex) written `{batchDate}`. */
function decodePlaceholders(text: string): string {
  return text.replace(ENCODED, (_, name: string) => `{${name}}`);
}

/** Whether any templated field of the run names a placeholder. */
export function isTemplated(input: RunInput): boolean {
  return TEMPLATED_FIELDS.some((f) => {
    const value = input[f];
    return typeof value === 'string' && placeholdersIn(value).length > 0;
  });
}

/**
 * The run with `{batchDate}` and `{batchDateCompact}` filled in. An unknown placeholder (a typo such
 * as `{batchdate}`) is a NightError naming the field, never left in a URL.
 */
export function fillRun(input: RunInput, night: Night): RunInput {
  const out: RunInput = { ...input };
  for (const field of TEMPLATED_FIELDS) {
    const value = input[field];
    if (typeof value !== 'string') continue;
    const unknown = placeholdersIn(value).filter((p) => !KNOWN.includes(p));
    if (unknown.length)
      throw new NightError(
        `${field}: unknown placeholder ${unknown.map((p) => `{${p}}`).join(', ')}: use {batchDate} (YYYY-MM-DD) or {batchDateCompact} (YYYYMMDD)`,
      );
    (out as unknown as Record<string, string>)[field] = decodePlaceholders(value).replace(
      PLACEHOLDER,
      (_, name: string) => (name === 'batchDate' ? night.batchDate : night.batchDate.replace(/-/g, '')),
    );
  }
  return out;
}
