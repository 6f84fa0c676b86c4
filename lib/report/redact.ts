/** URL masking now lives in lib/redaction/url; this path stays for existing importers. */
export { redactText, redactUrl, SECRET_PARAM_NAMES } from '../redaction/url';
