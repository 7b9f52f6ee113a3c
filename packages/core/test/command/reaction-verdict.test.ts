/**
 * The command acknowledgement's decisions, as a table: which reaction a stage's end earns (acted,
 * refused with its code, or none when nothing was judged), the one request each reaction is, what a
 * failed one logs (a code and GitHub's status, never text), and the status comment's refusal line.
 */
import { describe, expect, it } from '@jest/globals';
import { RequestError } from '@octokit/request-error';
import type { ErrorCode } from '../../src/errors.js';
import { ERROR_CATALOGUE, WritError } from '../../src/errors.js';
import type { GitHubClient } from '../../src/github/client.js';
import {
  CONSUMED_HERE,
  COMMAND_REACTIONS,
  COMMAND_REFUSALS,
  commandVerdict,
  reactToCommand,
} from '../../src/command/reactions.js';
import type { CommandSignal } from '../../src/command/reactions.js';
import { commandRefusalLine, renderStatusProjection } from '../../src/status-comment/projection.js';
import type { RunFile } from '../../src/ledger/types.js';
import type { Logger } from '../../src/redact.js';

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`info: ${message}`),
    warning: (message) => lines.push(`warning: ${message}`),
    debug: (message) => lines.push(`debug: ${message}`),
  };
}

describe('commandVerdict', () => {
  const coded = (code: ErrorCode, details: Record<string, boolean> = {}) =>
    new WritError(code, 'why', { details });

  it.each<[string, unknown, ReturnType<typeof commandVerdict>]>([
    ['a thrown undefined (nothing judged)', undefined, { signal: null }],
    [
      'a definite refusal',
      coded('insufficient-permission'),
      { signal: 'refused', code: 'insufficient-permission' },
    ],
    ['a malformed command', coded('malformed-command'), { signal: 'refused', code: 'malformed-command' }],
    [
      'a lease held by another run',
      coded('repository-lease-held'),
      { signal: 'refused', code: 'repository-lease-held' },
    ],
    [
      'a re-run of this very comment, which acted',
      coded('approval-already-consumed', { [CONSUMED_HERE]: true }),
      { signal: 'acted' },
    ],
    [
      'another comment for a consumed run',
      coded('approval-already-consumed', { [CONSUMED_HERE]: false }),
      { signal: 'refused', code: 'approval-already-consumed' },
    ],
    [
      'a consumed run with no detail',
      coded('approval-already-consumed'),
      { signal: 'refused', code: 'approval-already-consumed' },
    ],
    ['a transport failure (nothing judged)', coded('github-request-failed'), { signal: null }],
    ['a bad plan (the workflow’s, not the command’s)', coded('malformed-plan'), { signal: null }],
    ['an unproven ledger (nothing judged)', coded('ledger-provenance-unproven'), { signal: null }],
    ['a deadline (nothing judged)', coded('github-request-deadline'), { signal: null }],
    ['an internal error', new TypeError('bug'), { signal: null }],
    ['a non-Error throw', 'boom', { signal: null }],
  ])('%s', (_name, thrown, verdict) => {
    expect(commandVerdict({ failed: true, thrown })).toEqual(verdict);
  });

  it('a stage that returned acted', () => {
    expect(commandVerdict({ failed: false })).toEqual({ signal: 'acted' });
  });

  it('every code is a refusal exactly when it is a verdict on the command', () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const verdict = commandVerdict({ failed: true, thrown: coded(code) });
      expect([code, verdict.signal]).toEqual([code, COMMAND_REFUSALS.has(code) ? 'refused' : null]);
    }
  });
});

/** A client whose only method is the reaction create, answering `answer` (a status, or a throw). */
function fakeClient(answer: number | Error, calls: unknown[]): GitHubClient {
  return {
    rest: {
      reactions: {
        createForIssueComment: (params: unknown) => {
          calls.push(params);
          return typeof answer === 'number' ? Promise.resolve({ status: answer }) : Promise.reject(answer);
        },
      },
    },
  } as unknown as GitHubClient;
}

describe('reactToCommand', () => {
  const target = { repository: { owner: 'acme', repo: 'widgets' }, commentId: 42 };

  it.each<[CommandSignal, string]>([
    ['received', 'eyes'],
    ['acted', 'rocket'],
    ['refused', '-1'],
  ])('sends one %s reaction (%s) to the comment', async (signal, content) => {
    const calls: unknown[] = [];
    const logger = recordingLogger();
    const outcome = await reactToCommand({ github: fakeClient(201, calls), logger }, target, signal);
    expect(outcome).toBe('created');
    expect(calls).toEqual([{ owner: 'acme', repo: 'widgets', comment_id: 42, content }]);
    expect(COMMAND_REACTIONS[signal]).toBe(content);
    expect(logger.lines).toEqual([]);
  });

  it('takes a 200 as the reaction the app already added (no duplicate)', async () => {
    const calls: unknown[] = [];
    const outcome = await reactToCommand(
      { github: fakeClient(200, calls), logger: recordingLogger() },
      target,
      'acted',
    );
    expect(outcome).toBe('exists');
    expect(calls).toHaveLength(1);
  });

  it('logs a coded warning with GitHub’s status, never its text, and does not throw', async () => {
    const logger = recordingLogger();
    const refused = new RequestError('Resource not accessible by integration <script>', 403, {
      request: { method: 'POST', url: 'https://api.github.com/x', headers: {} },
      response: { status: 403, url: '', headers: {}, data: { message: '@everyone <script>' } },
    });
    const outcome = await reactToCommand({ github: fakeClient(refused, []), logger }, target, 'refused');
    expect(outcome).toBe('failed');
    expect(logger.lines).toEqual([
      expect.stringMatching(
        /^warning: command-reaction-failed: the refused reaction \(-1\) on comment 42 was not added \(HTTP 403\); the command's outcome stands — https:\/\/\S+#command-reaction-failed$/,
      ),
    ]);
    expect(logger.lines.join('\n')).not.toMatch(/script|everyone|accessible/);
  });

  it('says "no answer" when the request got none', async () => {
    const logger = recordingLogger();
    await reactToCommand({ github: fakeClient(new Error('socket hang up'), []), logger }, target, 'received');
    expect(logger.lines).toEqual([expect.stringContaining('was not added (no answer)')]);
    expect(logger.lines.join('\n')).not.toContain('socket');
  });
});

describe('the status comment’s refusal line', () => {
  it('names the verb, the comment ID and the code with its link, nothing of the comment', () => {
    expect(commandRefusalLine({ kind: 'cancel', commentId: 7, code: 'insufficient-permission' })).toBe(
      "Last command refused: `cancel` in comment 7, [`insufficient-permission`](https://github.com/writ-actions/writ/blob/main/docs/errors.md#insufficient-permission). The comment carries Writ's `-1` reaction; the run is unchanged by it.",
    );
    expect(
      commandRefusalLine({ kind: 'approve', commentId: Number.NaN, code: 'malformed-command' }),
    ).toContain('in comment 0,');
  });

  it('is shown after the action-needed line, and only when given', () => {
    const run = {
      run_id: 'r1',
      state: 'proposed',
      stop_reason: null,
      steps: [],
      approval: null,
      owner: null,
    } as unknown as RunFile;
    const refusal = { kind: 'approve', commentId: 9, code: 'stale-or-mismatched-approval' } as const;
    const shown = renderStatusProjection(run, '## Writ plan preview: x\n', { lastRefusal: refusal });
    const lines = shown.split('\n');
    expect(lines.indexOf(commandRefusalLine(refusal))).toBe(
      lines.findIndex((line) => line.startsWith('Action needed')) + 1,
    );
    expect(renderStatusProjection(run, '## Writ plan preview: x\n', { lastRefusal: null })).not.toContain(
      'Last command refused',
    );
  });
});
