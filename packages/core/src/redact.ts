/**
 * Token redaction. Every string Writ writes to a log, a summary, an output or a file passes through
 * `redact`, on top of the runner's own masking of values registered with `core.setSecret`.
 */

export const REDACTED = '***';

const TOKEN_PATTERNS: readonly [RegExp, string][] = [
  // Classic and fine-grained GitHub tokens: personal (ghp_), OAuth (gho_), user-to-server (ghu_),
  // server-to-server / installation (ghs_), refresh (ghr_), fine-grained PAT (github_pat_).
  [/\bgh[pousr]_[A-Za-z0-9]{20,255}\b/g, REDACTED],
  [/\bgithub_pat_[A-Za-z0-9_]{20,255}\b/g, REDACTED],
  // Authorization headers and bare bearer/token credentials.
  [/\b(authorization\s*[:=]\s*)(?:bearer|token|basic)\s+[^\s"',;]+/gi, `$1${REDACTED}`],
  [/\b(bearer|token)\s+[A-Za-z0-9._~+/=-]{16,}/gi, `$1 ${REDACTED}`],
  // Credentials in URLs.
  [/([?&](?:access_token|token|client_secret)=)[^&#\s"']+/gi, `$1${REDACTED}`],
  [/(https?:\/\/)[^/\s:@"']+:[^/\s@"']+@/gi, `$1${REDACTED}@`],
];

const registered = new Set<string>();

/** Registers a secret value so `redact` removes it wherever it appears (and its base64/URL forms). */
export function registerSecret(value: string): void {
  if (value.length < 4) return;
  registered.add(value);
  registered.add(Buffer.from(value, 'utf8').toString('base64'));
  registered.add(encodeURIComponent(value));
}

/** Forgets registered secrets (tests only). */
export function clearRegisteredSecrets(): void {
  registered.clear();
}

/** Replaces every token-shaped substring and every registered secret with `***`. */
export function redact(text: string): string {
  let out = text;
  for (const secret of registered) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of TOKEN_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A logger every core function takes; implementations must not bypass `redact`. */
export interface Logger {
  info(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
}

/** Wraps a sink so everything it receives is redacted first. */
export function redactingLogger(sink: Logger): Logger {
  return {
    info: (message) => sink.info(redact(message)),
    warning: (message) => sink.warning(redact(message)),
    debug: (message) => sink.debug(redact(message)),
  };
}

/** A logger that drops everything (for tests and quiet library use). */
export const silentLogger: Logger = {
  info: () => undefined,
  warning: () => undefined,
  debug: () => undefined,
};
