/**
 * A mainland China mobile number standing alone (spec 1.5: never in an output), bare (13800138000),
 * with the country code (`+86`, `0086`, `86`) or grouped 3-4-4 with spaces or dashes (`138 0013
 * 8000`, `+86 138-0013-8000`; review of 2026-11-28: only the bare form was masked), as the suite masks
 * it in text (lib/redaction/url.ts `redactText`) and keeps it out of a run's file name
 * (lib/run/runs.ts `fileKeyOf`): one pattern, so a label masked in its verdict is masked in its file
 * name too. Global: use with `replace`, or `new RegExp(MOBILE.source)` for a test.
 */
export const MOBILE = /(?<![\d.])(?:(?:\+|00)?86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}(?![\d.])/g;
