/**
 * Whether `text` is YYYY-MM-DD and a day of the calendar (`2026-02-30` is not): the one reading of a
 * date for L1_BATCH_DATE (lib/run/night.ts) and DATA's trend dates (lib/schema/data.ts).
 */
export function realDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
