/**
 * `statusFold`: the reservation the status comment sync would commit first, for the transition that
 * produces the run to fold into its own commit; nothing whenever the sync has something to resolve.
 */
import { describe, expect, it } from '@jest/globals';
import { digest } from '../../src/canonical-json.js';
import type { RunFile, StatusComment } from '../../src/ledger/types.js';
import { statusBody, statusFold } from '../../src/status-comment/sync.js';

const project = (run: RunFile): string => `state ${run.state}`;
const wanted = digest(statusBody('run-1', 'state proposed'));
const OLD = `sha256:${'0'.repeat(64)}`;

function runWith(statusComment: StatusComment | null): RunFile {
  return { run_id: 'run-1', state: 'proposed', status_comment: statusComment } as unknown as RunFile;
}

describe('statusFold', () => {
  const fold = statusFold({ runId: 'run-1', issueNumber: 7, project });
  const recorded = { issue_number: 7, comment_id: 42, body_digest: OLD, pending_digest: null };

  it('reserves the first POST when nothing is recorded', () => {
    expect(fold(runWith(null))).toEqual({
      issue_number: 7,
      comment_id: null,
      body_digest: null,
      pending_digest: wanted,
    });
  });

  it('reserves the PATCH of the recorded comment on the recorded issue when the body changes', () => {
    expect(statusFold({ runId: 'run-1', project })(runWith(recorded))).toEqual({
      ...recorded,
      pending_digest: wanted,
    });
  });

  it.each<[string, StatusComment | null, number | undefined]>([
    ['no issue is known', null, undefined],
    ['the record is on another issue', recorded, 8],
    [
      'a first POST is unresolved',
      { ...recorded, comment_id: null, body_digest: null, pending_digest: OLD },
      7,
    ],
    ['an update is unresolved', { ...recorded, pending_digest: OLD }, 7],
    ['the comment already holds the body', { ...recorded, body_digest: wanted }, 7],
  ])('folds nothing when %s', (_what, record, issueNumber) => {
    expect(statusFold({ runId: 'run-1', issueNumber, project })(runWith(record))).toBeNull();
  });
});
