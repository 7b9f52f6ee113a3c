/**
 * The comment commands, one grammar: `<prefix>: approve <run_id> <64 lowercase hex>`,
 * `<prefix>: reconcile <run_id> <step_id> <done|failed|retry>` and `<prefix>: cancel <run_id>`, each one
 * ASCII line with one optional trailing newline. Nothing is normalized first: a zero-width or bidi
 * character, a confusable, a fullwidth form, a non-breaking space, an extra word, quoting or a code span
 * all fail, because the human approved what GitHub shows and Writ must act on exactly those bytes.
 *
 * Every reader of a command parses it here: the live verification (approval/verify.ts), the ledger's
 * replay (ledger/replay.ts), recovery's lost-approval scan and the CLI. A leaf module: it imports only
 * the error catalogue, so the ledger can use it without depending on approval/.
 */
import { WritError } from '../errors.js';

export interface ApproveCommand {
  prefix: string;
  runId: string;
  /** The bare 64-hex digest the human approved. */
  digestHex: string;
}

/** `retry` puts the step back to pending: the human checked that its write did not happen. */
export const RECONCILE_DECISIONS = ['done', 'failed', 'retry'] as const;
export type ReconcileDecision = (typeof RECONCILE_DECISIONS)[number];

export type Command =
  | ({ kind: 'approve' } & ApproveCommand)
  | { kind: 'reconcile'; prefix: string; runId: string; stepId: string; decision: ReconcileDecision }
  | { kind: 'cancel'; prefix: string; runId: string };

/** Bodies longer than this are refused before any parsing (the longest valid command is ~170 bytes). */
export const MAX_COMMAND_BODY = 256;

/** What a command prefix may be: 1-32 of [a-z0-9-], starting with a letter. */
export const COMMAND_PREFIX_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

const PREFIX = `(${COMMAND_PREFIX_PATTERN.source.slice(1, -1)})`;
const RUN_ID = '([A-Za-z0-9][A-Za-z0-9_-]{0,63})';
const END = '(?:\\r?\\n)?$';
const APPROVE = new RegExp(`^${PREFIX}: approve ${RUN_ID} ([0-9a-f]{64})${END}`);
const RECONCILE = new RegExp(
  `^${PREFIX}: reconcile ${RUN_ID} ([a-z0-9][a-z0-9._-]{0,63}) (done|failed|retry)${END}`,
);
const CANCEL = new RegExp(`^${PREFIX}: cancel ${RUN_ID}${END}`);
const PRINTABLE_ASCII_LINE = /^[\x20-\x7e]*(?:\r?\n)?$/;

const SHAPES = `'<prefix>: approve <run_id> <64 lowercase hex>', '<prefix>: reconcile <run_id> <step_id> <done|failed|retry>' or '<prefix>: cancel <run_id>'`;

/** The `command-prefix` input, checked: `invalid-input` naming it, its length and the rule. */
export function validateCommandPrefix(prefix: string): string {
  if (!COMMAND_PREFIX_PATTERN.test(prefix)) {
    throw new WritError(
      'invalid-input',
      `input 'command-prefix' must be 1-32 of [a-z0-9-] starting with a letter (got ${prefix.length} characters)`,
    );
  }
  return prefix;
}

function refuse(why: string): never {
  throw new WritError('malformed-command', `the comment is not a Writ command: ${why}`);
}

/**
 * Parses a comment body into one command for `prefix` (null: any well-formed prefix, for replay, which
 * does not know the configured one), or throws `malformed-command`. The message never echoes the body.
 */
export function parseCommand(body: string | null | undefined, prefix: string | null): Command {
  if (typeof body !== 'string' || body.length === 0) refuse('the body is empty');
  if (body.length > MAX_COMMAND_BODY) refuse(`the body is ${body.length} characters long`);
  if (!PRINTABLE_ASCII_LINE.test(body)) refuse('it must be one line of printable ASCII');
  let command: Command;
  const approve = APPROVE.exec(body);
  const reconcile = approve === null ? RECONCILE.exec(body) : null;
  const cancel = approve === null && reconcile === null ? CANCEL.exec(body) : null;
  if (approve !== null) {
    const [, given, runId, digestHex] = approve as unknown as [string, string, string, string];
    command = { kind: 'approve', prefix: given, runId, digestHex };
  } else if (reconcile !== null) {
    const [, given, runId, stepId, decision] = reconcile as unknown as [
      string,
      string,
      string,
      string,
      string,
    ];
    command = { kind: 'reconcile', prefix: given, runId, stepId, decision: decision as ReconcileDecision };
  } else if (cancel !== null) {
    const [, given, runId] = cancel as unknown as [string, string, string];
    command = { kind: 'cancel', prefix: given, runId };
  } else {
    refuse(`expected exactly ${prefix === null ? SHAPES : SHAPES.replaceAll('<prefix>', prefix)}`);
  }
  if (prefix !== null && command.prefix !== prefix) refuse(`the command prefix is not '${prefix}'`);
  return command;
}

/**
 * `parseCommand`, or null where it throws (only ever `malformed-command`): for readers that only ask
 * whether a body is a given command (replay, recovery's scan), so every reader applies the one grammar.
 */
export function parseCommandOrNull(body: string | null | undefined, prefix: string | null): Command | null {
  try {
    return parseCommand(body, prefix);
  } catch {
    return null;
  }
}

/** Parses a comment body into an approve command for `prefix`, or throws `malformed-command`. */
export function parseApproveCommand(body: string | null | undefined, prefix: string): ApproveCommand {
  const command = parseCommand(body, prefix);
  if (command.kind !== 'approve') refuse(`expected exactly '${prefix}: approve <run_id> <64 lowercase hex>'`);
  return { prefix: command.prefix, runId: command.runId, digestHex: command.digestHex };
}

/** The exact reconcile command a repository writer posts for a claimed step (what `writ reconcile` prints). */
export function formatReconcileCommand(
  prefix: string,
  runId: string,
  stepId: string,
  decision: ReconcileDecision,
): string {
  return `${prefix}: reconcile ${runId} ${stepId} ${decision}`;
}

/** The exact cancel command (what `writ cancel` prints). */
export function formatCancelCommand(prefix: string, runId: string): string {
  return `${prefix}: cancel ${runId}`;
}
