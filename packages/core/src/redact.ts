/**
 * Token redaction. Every string Writ writes to a log, a summary, an output or a file passes through
 * `redact`, on top of the runner's own masking of values registered with `core.setSecret`.
 */

export const REDACTED = '***';

/**
 * Credential formats, found in text whether or not they were registered (one list: `redact` replaces
 * them, `containsSecret` refuses them). Classic and fine-grained GitHub tokens: personal (ghp_), OAuth
 * (gho_), user-to-server (ghu_), server-to-server / installation (ghs_), refresh (ghr_), fine-grained
 * PAT (github_pat_); the older installation token format (`v1.` and 40 hex digits); and anything shaped
 * like a JWT (an app's signed assertion: base64url JSON header and payload, `eyJ…`, and a signature).
 */
const TOKEN_SHAPE_SOURCES: readonly string[] = [
  String.raw`\bgh[pousr]_[A-Za-z0-9]{20,255}\b`,
  String.raw`\bgithub_pat_[A-Za-z0-9_]{20,255}\b`,
  String.raw`\bv1\.[0-9a-fA-F]{40}\b`,
  String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`,
];

const TOKEN_PATTERNS: readonly [RegExp, string][] = [
  ...TOKEN_SHAPE_SOURCES.map((source): [RegExp, string] => [new RegExp(source, 'g'), REDACTED]),
  // Authorization headers and bare bearer/token credentials.
  [/\b(authorization\s*[:=]\s*)(?:bearer|token|basic)\s+[^\s"',;]+/gi, `$1${REDACTED}`],
  [/\b(bearer|token)\s+[A-Za-z0-9._~+/=-]{16,}/gi, `$1 ${REDACTED}`],
  // Credentials in URLs.
  [/([?&](?:access_token|token|client_secret)=)[^&#\s"']+/gi, `$1${REDACTED}`],
  [/(https?:\/\/)[^/\s:@"']+:[^/\s@"']+@/gi, `$1${REDACTED}@`],
];

const registered = new Set<string>();
/** The registered values themselves (the set above also holds their encoded forms). */
const registeredValues = new Set<string>();

/** Registers a secret value so `redact` removes it wherever it appears (and its base64/URL forms). */
export function registerSecret(value: string): void {
  if (value.length < 4) return;
  registered.add(value);
  registeredValues.add(value);
  registered.add(Buffer.from(value, 'utf8').toString('base64'));
  registered.add(encodeURIComponent(value));
}

/** Forgets registered secrets (tests only). */
export function clearRegisteredSecrets(): void {
  registered.clear();
  registeredValues.clear();
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

const TOKEN_SHAPES: readonly RegExp[] = TOKEN_SHAPE_SOURCES.map((source) => new RegExp(source));
const TOKEN_SHAPES_GLOBAL: readonly RegExp[] = TOKEN_SHAPE_SOURCES.map((source) => new RegExp(source, 'g'));

/**
 * Replaces exactly what `containsSecret` refuses in text: registered secrets (raw, base64, URL-encoded)
 * and token shapes, with `***`. Unlike `redact` it leaves prose such as "token used-by-the-bot" alone,
 * so text Writ writes to GitHub changes only where plan validation would have refused it.
 */
export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of registered) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const shape of TOKEN_SHAPES_GLOBAL) out = out.replace(shape, REDACTED);
  return out;
}

/**
 * The forms of a secret that may hide in published bytes: itself, URL-encoded, hex, and base64 at each
 * of the three alignments it can take inside a longer base64 text (the characters that depend on its
 * neighbours are cut off, so the rest appears verbatim wherever the secret was encoded).
 */
function secretForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = [
    value,
    encodeURIComponent(value),
    bytes.toString('hex'),
    bytes.toString('hex').toUpperCase(),
  ];
  forms.push(bytes.toString('base64'), bytes.toString('base64url'));
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const start = Math.ceil((shift * 4) / 3);
    const end = Math.floor(((shift + bytes.length) * 4) / 3);
    const core = encoded.slice(start, end);
    if (core.length >= 8) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** Percent-decodes leniently (any `%XX`, either case), byte for byte. */
function percentDecoded(bytes: Buffer): Buffer {
  const text = bytes.toString('latin1');
  if (!text.includes('%')) return bytes;
  return Buffer.from(
    text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

/**
 * Whether bytes about to be published hold a registered secret (raw, URL-encoded, hex or base64) or
 * anything shaped like a GitHub token. Publishing refuses such bytes rather than redacting them.
 */
export function containsSecret(content: Buffer | string): boolean {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const decoded = percentDecoded(bytes);
  for (const value of registeredValues) {
    for (const form of secretForms(value)) {
      if (bytes.includes(form) || decoded.includes(form)) return true;
    }
  }
  const text = `${bytes.toString('latin1')}\n${decoded.toString('latin1')}`;
  return TOKEN_SHAPES.some((shape) => shape.test(text));
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
