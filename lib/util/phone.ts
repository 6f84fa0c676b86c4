/**
 * A mainland China mobile number standing alone (spec 1.5: never in an output), bare (13800138000),
 * with the country code (`+86`, `0086`, `86`) or grouped 3-4-4 with spaces or dashes (`138 0013
 * 8000`, `+86 138-0013-8000`; review of 2026-11-28: only the bare form was masked), as the suite masks
 * it in text (lib/redaction/url.ts `redactText`) and keeps it out of a run's file name
 * (lib/run/runs.ts `fileKeyOf`): one pattern, so a label masked in its verdict is masked in its file
 * name too. Global: use with `replace`, or `new RegExp(MOBILE.source)` for a test.
 *
 * A grouped number has one separator, the same twice, and no letter or digit against it: a batch
 * id's `…-150-20251110-D` (a three-digit project, a compact date) or a UUID's `…a150-1234-5678-…`
 * are no phone (review of ba2508d: `XH-HIST-150-20251110-D` went out as `XH-HIST-1**********-D`,
 * and the label `shop-150-20251117` changed its file name). A bare number ending a sentence
 * (`…13800138000.`) is masked, as the redaction guard finds it (lib/redaction/detectors.ts PHONE):
 * a dot is kept apart only before a digit (`v1.13800138000`, `13800138000.5`).
 */
export const MOBILE =
  /(?<!\d|\d\.)(?:(?:\+|00)?86(?:[^\S\r\n]|-)?)?1[3-9]\d{9}(?!\d|\.\d)|(?<![\w.])(?:(?:\+|00)?86(?:[^\S\r\n]|-))?1[3-9]\d([^\S\r\n]|-)\d{4}\1\d{4}(?!\w|\.\d)/g;
