const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text made inert inside HTML or XML, in element content and in quoted attribute values alike:
 * `& < > " '` become entities (`&#39;` is valid in both). The one escaping helper of the suite.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
