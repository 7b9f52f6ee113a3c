import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseApproveCommand, validateCommandPrefix } from '../../src/command/grammar.js';
import { WritError } from '../../src/errors.js';
import { BAD_COMMANDS, CANONICAL, HEX, RUN } from '../../../../test/fixtures/approval-corpus.js';
import { CAMPAIGNS } from '../../../../test/support/campaigns.mjs';

const MUTANTS = CAMPAIGNS.grammarMutants;

function refusal(body: string): string | undefined {
  try {
    parseApproveCommand(body, 'writ');
  } catch (error: unknown) {
    return error instanceof WritError ? error.code : 'not-a-writ-error';
  }
  return undefined;
}

describe('parseApproveCommand', () => {
  it('accepts the canonical command, alone or with one trailing newline', () => {
    for (const body of [CANONICAL, `${CANONICAL}\n`, `${CANONICAL}\r\n`]) {
      expect(parseApproveCommand(body, 'writ')).toEqual({ prefix: 'writ', runId: RUN, digestHex: HEX });
    }
  });

  it('has a corpus of at least 40 classes of bad comment', () => {
    expect(new Set(BAD_COMMANDS.map(([name]) => name)).size).toBeGreaterThanOrEqual(40);
  });

  it.each(BAD_COMMANDS)('refuses %s with malformed-command', (_name, body) => {
    expect(refusal(body)).toBe('malformed-command');
  });

  it('refuses null and non-string bodies', () => {
    expect(() => parseApproveCommand(null, 'writ')).toThrow(WritError);
    expect(() => parseApproveCommand(undefined, 'writ')).toThrow(WritError);
  });

  it('never echoes the body in its message', () => {
    const body = `${CANONICAL} ghp_${'x'.repeat(36)}`;
    try {
      parseApproveCommand(body, 'writ');
    } catch (error: unknown) {
      expect(String(error)).not.toContain('ghp_');
      expect(String(error)).not.toContain(HEX);
    }
  });

  // 10,000 generated mutants of the valid command: insertions of format, bidi, confusable, space and
  // control characters, case flips, deletions and duplications. Only the exact canonical bytes (with at
  // most one trailing newline) may be accepted.
  const INSERTIONS = [
    '\u200b',
    '\u200c',
    '\u200d',
    '\u2060',
    '\ufeff',
    '\u00ad',
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u061c',
    '\u00a0',
    '\u2007',
    '\u202f',
    '\u3000',
    '\u2002',
    '\t',
    ' ',
    '\r',
    '\n',
    '\u0000',
    '\u001b',
    '\u0430',
    '\u0435',
    '\u043e',
    '\u0440',
    '\u0441',
    '\u03bf',
    '\u0131',
    '\uff41',
    '\uff1a',
    '\u2212',
    '\u2010',
    '\u2011',
    '`',
    '>',
    '*',
    '_',
    '~',
    '"',
    "'",
    '\\',
    ':',
    '-',
    '0',
    'a',
    'A',
    'F',
  ];
  const mutant = fc
    .array(
      fc.oneof(
        fc.record({
          kind: fc.constant('insert' as const),
          at: fc.nat(),
          text: fc.constantFrom(...INSERTIONS),
        }),
        fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
        fc.record({ kind: fc.constant('flip-case' as const), at: fc.nat() }),
        fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((edits) =>
      edits.reduce((text, edit) => {
        const at = edit.at % (text.length + 1);
        switch (edit.kind) {
          case 'insert':
            return text.slice(0, at) + edit.text + text.slice(at);
          case 'delete':
            return text.slice(0, at) + text.slice(at + 1);
          case 'flip-case': {
            const c = text.charAt(at);
            const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
            return text.slice(0, at) + flipped + text.slice(at + 1);
          }
          case 'duplicate':
            return text.slice(0, at) + text.charAt(at) + text.slice(at);
        }
      }, CANONICAL),
    );

  it(`accepts no mutant of the valid command as approving its run (${MUTANTS} runs), and always the canonical one`, () => {
    const accepted = new Set([CANONICAL, `${CANONICAL}\n`, `${CANONICAL}\r\n`]);
    let refused = 0;
    let otherCommand = 0;
    let unchanged = 0;
    fc.assert(
      fc.property(mutant, (body) => {
        if (accepted.has(body)) {
          expect(parseApproveCommand(body, 'writ')).toEqual({ prefix: 'writ', runId: RUN, digestHex: HEX });
          unchanged += 1;
          return;
        }
        const code = refusal(body);
        if (code === undefined) {
          // Still well-formed, e.g. a doubled run-ID character: a command for ANOTHER run or digest,
          // which consumption refuses against the ledger. It must never name this run and digest.
          const parsed = parseApproveCommand(body, 'writ');
          expect(parsed.runId === RUN && parsed.digestHex === HEX).toBe(false);
          expect(body).toMatch(/^[\x20-\x7e]+\r?\n?$/);
          otherCommand += 1;
        } else {
          expect(code).toBe('malformed-command');
          refused += 1;
        }
      }),
      { numRuns: MUTANTS, seed: 8785 },
    );
    // Every mutant was classified; most edits produce a refusal, a few cancel out (e.g. case-flipping ':').
    expect(refused + otherCommand + unchanged).toBe(MUTANTS);
    expect(refused).toBeGreaterThan(MUTANTS * 0.8);
  });
});

describe('validateCommandPrefix', () => {
  it.each(['', 'Writ', '1writ', 'writ:', 'w'.repeat(33), 'wr it'])(
    'refuses the command prefix %j',
    (prefix) => {
      let refused: unknown;
      try {
        validateCommandPrefix(prefix);
      } catch (error: unknown) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(WritError);
      expect((refused as WritError).code).toBe('invalid-input');
      expect((refused as WritError).message).toBe(
        `input 'command-prefix' must be 1-32 of [a-z0-9-] starting with a letter (got ${prefix.length} characters)`,
      );
    },
  );

  it.each(['writ', 'roadmap', 'a', 'release-bot-2', 'w'.repeat(32)])('accepts %j', (prefix) => {
    expect(validateCommandPrefix(prefix)).toBe(prefix);
  });
});

describe('the grammar module', () => {
  it('is a leaf: it imports only the error catalogue, and the ledger imports nothing from approval/', () => {
    const src = join(dirname(fileURLToPath(import.meta.url)), '../../src');
    const importsOf = (file: string): string[] =>
      [...readFileSync(join(src, file), 'utf8').matchAll(/^import [^;]*? from '([^']+)';$/gms)].map(
        (match) => match[1]!,
      );
    expect(importsOf('command/grammar.ts')).toEqual(['../errors.js']);
    const ledgerImports = readdirSync(join(src, 'ledger'))
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => importsOf(join('ledger', file)).map((target) => `${file} -> ${target}`));
    expect(ledgerImports.length).toBeGreaterThan(10);
    expect(ledgerImports.filter((entry) => entry.includes('/approval/'))).toEqual([]);
  });
});
