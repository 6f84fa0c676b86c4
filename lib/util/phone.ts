/**
 * A mainland China mobile number standing alone (spec 1.5: never in an output), as the suite masks
 * it in text (lib/redaction/url.ts `redactText`) and keeps it out of a run's file name
 * (lib/run/runs.ts `fileKeyOf`): one pattern, so a label masked in its verdict is masked in its file
 * name too. Global: use with `replace`, or `new RegExp(MOBILE.source)` for a test.
 */
export const MOBILE = /(?<![\d.])1[3-9]\d{9}(?![\d.])/g;
