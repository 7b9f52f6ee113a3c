/**
 * Replay and the live verification read a command through the one grammar (command/grammar.ts): over
 * the approval corpus, and the same corpus turned into reconcile and cancel commands, replay holds a
 * comment as backing a consume or a human command exactly when the live parser accepts that command
 * (for the prefix the body names: replay does not know the configured one). An edited comment never
 * backs anything, whatever its body.
 */
import { describe, expect, it } from '@jest/globals';
import { parseCommandOrNull } from '../../src/command/grammar.js';
import type { Command } from '../../src/command/grammar.js';
import { checkApprovalComment, checkCommandComment } from '../../src/ledger/replay.js';
import type { CommentInfo } from '../../src/ledger/store.js';
import type { Approval } from '../../src/ledger/types.js';
import { BAD_COMMANDS, CANONICAL, HEX, RUN } from '../../../../test/fixtures/approval-corpus.js';

const PREFIXES = ['writ', 'roadmap', 'writx', 'writ-bot', 'w', 'a'.repeat(32)];
const URL = 'https://github.com/acme/widgets/issues/7#issuecomment-1001';
const APPROVAL: Approval = {
  actor_login: 'alice',
  actor_id: 501,
  role_name: 'write',
  comment_id: 1001,
  comment_url: URL,
  digest: `sha256:${HEX}`,
  consumed_at: '2026-12-02T10:00:00Z',
  epoch: 1,
};

function info(body: string, edited = false): CommentInfo {
  return { userId: 501, body, htmlUrl: URL, edited };
}

/** What the live verification accepts: the body parsed for any of the prefixes it might be configured with. */
function live(body: string): Command[] {
  return PREFIXES.map((prefix) => parseCommandOrNull(body, prefix)).filter(
    (command): command is Command => command !== null,
  );
}

const BODIES = [
  CANONICAL,
  `${CANONICAL}\n`,
  `${CANONICAL}\r\n`,
  CANONICAL.replace('writ', 'roadmap'),
  CANONICAL.replace(RUN, 'run-2'),
  CANONICAL.replace(HEX, 'f'.repeat(64)),
  ...BAD_COMMANDS.map(([, body]) => body),
];
const RECONCILE = `writ: reconcile ${RUN} step-1 done`;
const CANCEL = `writ: cancel ${RUN}`;
const as = (replacement: string): string[] =>
  BODIES.map((body) =>
    body
      .split(CANONICAL)
      .join(replacement)
      .replace(`approve ${RUN} ${HEX}`, replacement.slice(6))
      .replace(' approve ', ` ${replacement.slice(6).split(' ')[0]!} `),
  );

describe('replay and the live parser agree', () => {
  it.each(BODIES.map((body) => [JSON.stringify(body).slice(0, 80), body] as const))(
    'on approve body %s',
    (_name, body) => {
      const accepted = live(body).some(
        (command) => command.kind === 'approve' && command.runId === RUN && command.digestHex === HEX,
      );
      expect(checkApprovalComment(info(body), APPROVAL, RUN).backs).toBe(accepted);
      expect(checkApprovalComment(info(body, true), APPROVAL, RUN)).toMatchObject({
        backs: false,
        unverifiable: true,
      });
    },
  );

  it('accepts some and refuses most of the approve corpus (the comparison is not vacuous)', () => {
    const backs = BODIES.filter((body) => checkApprovalComment(info(body), APPROVAL, RUN).backs);
    expect(backs.length).toBeGreaterThanOrEqual(4);
    expect(BODIES.length - backs.length).toBeGreaterThanOrEqual(50);
  });

  it.each([
    ...as(RECONCILE).map((body) => ['reconcile', body] as const),
    ...as(CANCEL).map((body) => ['cancel', body] as const),
  ])('on %s body %j', (verb, body) => {
    const args = verb === 'reconcile' ? [RUN, 'step-1', 'done'] : [RUN];
    const accepted = live(body).some(
      (command) =>
        command.kind === verb &&
        JSON.stringify(
          command.kind === 'reconcile' ? [command.runId, command.stepId, command.decision] : [command.runId],
        ) === JSON.stringify(args),
    );
    const expected = { actorId: 501, verb, args };
    expect(checkCommandComment(info(body), 1001, expected).backs).toBe(accepted);
    expect(checkCommandComment(info(body, true), 1001, expected)).toMatchObject({
      backs: false,
      unverifiable: true,
    });
  });

  it('accepts the canonical reconcile and cancel commands (the comparison is not vacuous)', () => {
    expect(
      checkCommandComment(info(RECONCILE), 1001, {
        actorId: 501,
        verb: 'reconcile',
        args: [RUN, 'step-1', 'done'],
      }).backs,
    ).toBe(true);
    expect(checkCommandComment(info(CANCEL), 1001, { actorId: 501, verb: 'cancel', args: [RUN] }).backs).toBe(
      true,
    );
  });
});
