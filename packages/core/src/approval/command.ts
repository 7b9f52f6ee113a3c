/**
 * The approve command: exactly `<prefix>: approve <run_id> <64 lowercase hex>`, one ASCII line, with
 * one optional trailing newline. Nothing is normalized first: a zero-width or bidi character, a
 * confusable, a fullwidth form, a non-breaking space, an extra word, quoting or a code span all fail,
 * because the human approved what GitHub shows and Writ must act on exactly those bytes.
 */
import { WritError } from '../errors.js';

export interface ApproveCommand {
  prefix: string;
  runId: string;
  /** The bare 64-hex digest the human approved. */
  digestHex: string;
}

/** Bodies longer than this are refused before any parsing (the longest valid command is ~140 bytes). */
export const MAX_COMMAND_BODY = 256;

/** What a command prefix may be: 1-32 of [a-z0-9-], starting with a letter. */
export const COMMAND_PREFIX_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

const COMMAND = /^([a-z][a-z0-9-]{0,31}): approve ([A-Za-z0-9][A-Za-z0-9_-]{0,63}) ([0-9a-f]{64})(?:\r?\n)?$/;
const PRINTABLE_ASCII_LINE = /^[\x20-\x7e]*(?:\r?\n)?$/;

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
  throw new WritError('malformed-command', `the comment is not an approve command: ${why}`);
}

/** Parses a comment body into an approve command for `prefix`, or throws `malformed-command`. */
export function parseApproveCommand(body: string | null | undefined, prefix: string): ApproveCommand {
  if (typeof body !== 'string' || body.length === 0) refuse('the body is empty');
  if (body.length > MAX_COMMAND_BODY) refuse(`the body is ${body.length} characters long`);
  if (!PRINTABLE_ASCII_LINE.test(body)) refuse('it must be one line of printable ASCII');
  const match = COMMAND.exec(body);
  if (!match) refuse(`expected exactly '${prefix}: approve <run_id> <64 lowercase hex>'`);
  const [, givenPrefix, runId, digestHex] = match as unknown as [string, string, string, string];
  if (givenPrefix !== prefix) refuse(`the command prefix is not '${prefix}'`);
  return { prefix, runId, digestHex };
}
