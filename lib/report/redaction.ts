/** The redaction guard now lives in lib/redaction; this path stays for existing importers. */
export * from '../redaction';
