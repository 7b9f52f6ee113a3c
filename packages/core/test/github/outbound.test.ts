/**
 * A secret goes nowhere (issue 26, class 10), at the outlets, as defence in depth behind plan
 * validation: every REST write the client sends has its strings redacted (issues, comments,
 * milestones, labels), the status comment body is redacted as it is built, a token-shaped run ID is
 * refused, and the outputs, logs and summary pass through `redact` (io/action-io.ts), which knows the
 * same token shapes. Against the emulator with the real client.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { validateRunId } from '../../src/plan/run-id.js';
import { REDACTED, redact, redactingLogger } from '../../src/redact.js';
import { statusBody } from '../../src/status-comment/sync.js';
import { OWNER, REPO } from '../ledger/support/emulator.js';
import type { PersistWorld } from '../persist/support.js';
import { persistWorld } from '../persist/support.js';
import { codeOf } from '../support/code-of.js';

const base = { owner: OWNER, repo: REPO };
const TOKENS = [
  `ghp_${'a1B2c3D4'.repeat(5)}`,
  `ghs_${'Zz09'.repeat(9)}`,
  `github_pat_11ABCDEFG0${'x'.repeat(60)}`,
  `v1.${'0123456789abcdef'.repeat(2)}01234567`,
  'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxMjM0NSIsImlhdCI6MX0.c2lnbmF0dXJlLWJ5dGVz',
];

let w: PersistWorld;
beforeAll(async () => {
  w = await persistWorld();
});
afterAll(async () => {
  await w.close();
});

/** Every request body the emulator received since `seq`, as sent. */
function bodiesSince(seq: number): string {
  return w.world.emulator.admin
    .requests()
    .filter((r) => r.seq > seq)
    .map((r) => JSON.stringify(r))
    .join('\n');
}

describe.each(TOKENS)('the client never writes %s to GitHub', (token) => {
  it('in an issue title and body, a label name, a comment, a milestone', async () => {
    const seq = w.seq();
    const issue = (
      await w.app.rest.issues.create({ ...base, title: `Epic ${token}`, body: `see ${token} here` })
    ).data;
    expect(issue.title).toBe(`Epic ${REDACTED}`);
    expect(issue.body).toBe(`see ${REDACTED} here`);
    const comment = (
      await w.app.rest.issues.createComment({ ...base, issue_number: issue.number, body: `x ${token}` })
    ).data;
    expect(comment.body).toBe(`x ${REDACTED}`);
    const edited = (
      await w.app.rest.issues.updateComment({ ...base, comment_id: comment.id, body: `y ${token}` })
    ).data;
    expect(edited.body).toBe(`y ${REDACTED}`);
    const milestone = (
      await w.app.rest.issues.createMilestone({
        ...base,
        title: `M ${w.seq()} ${token}`.slice(0, 200),
        description: `notes ${token}`,
      })
    ).data;
    expect(milestone.title).not.toContain(token);
    expect(milestone.description).toBe(`notes ${REDACTED}`);
    const labels = (
      await w.app.rest.issues.addLabels({ ...base, issue_number: issue.number, labels: [`l-${token}`] })
    ).data;
    expect(labels.map((l) => l.name)).toEqual([`l-${REDACTED}`]);
    expect(bodiesSince(seq)).not.toContain(token);
  });

  it('in a status comment body', () => {
    const body = statusBody('run-1', `| step | ${token} |`);
    expect(body).not.toContain(token);
    expect(body).toContain(REDACTED);
  });

  it('in logs, outputs and the summary (redact, which io/action-io applies to each)', () => {
    const lines: string[] = [];
    const logger = redactingLogger({
      info: (m) => lines.push(m),
      warning: (m) => lines.push(m),
      debug: (m) => lines.push(m),
    });
    logger.info(`a ${token}`);
    logger.warning(`b ${token}`);
    expect(lines.join('\n')).not.toContain(token);
    expect(redact(`summary ${token}`)).toBe(`summary ${REDACTED}`);
  });
});

describe('what is not a secret', () => {
  it('reaches GitHub unchanged (prose about tokens is not redacted on a write)', async () => {
    const text = 'Rotate the token used-by-the-release-bot; see ghs_short and v1.2.3.';
    const issue = (await w.app.rest.issues.create({ ...base, title: 'Prose', body: text })).data;
    expect(issue.body).toBe(text);
  });
});

describe('a token-shaped run ID (it names ledger paths and markers)', () => {
  it('is refused as invalid-run-id', () => {
    expect(codeOf(() => validateRunId(`ghp_${'a1B2c3D4'.repeat(5)}`))).toBe('invalid-run-id');
    expect(codeOf(() => validateRunId('run-0123456789abcdef'))).toBeUndefined();
  });
});
