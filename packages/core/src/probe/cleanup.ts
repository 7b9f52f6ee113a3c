/**
 * Cleanup by marker: the probe removes exactly what carries this run's marker — issues and milestones
 * whose body or description holds `<!-- writ-probe run=<id> -->`, the label `writ-probe-<id>-pinned`,
 * the branch `writ-probe-<id>` — found by listing (so a resource whose create answer was lost is found
 * too), and nothing else: a similar title, another run's marker or a pull request is never touched.
 * An issue is deleted (GraphQL `deleteIssue`, which needs admin on the sandbox), else closed and
 * reported; anything it could not remove is reported by kind and number or name.
 */
import type { ProbeApi } from './api.js';
import { ok } from './api.js';
import { listAll, pinLabel, runMarker } from './cases.js';
import { probeBranch } from './primitives.js';

export interface CleanupReport {
  removed: number;
  left: string[];
}

const DELETE_ISSUE = `mutation WritProbeDeleteIssue($input: DeleteIssueInput!) {
  deleteIssue(input: $input) { clientMutationId }
}`;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export async function cleanupProbe(
  api: ProbeApi,
  target: { owner: string; repo: string; runId: string },
): Promise<CleanupReport> {
  const repo = { owner: target.owner, repo: target.repo };
  const marker = runMarker(target.runId);
  let removed = 0;
  const left: string[] = [];

  const issues = await listAll(api, 'GET /repos/{owner}/{repo}/issues', { ...repo, state: 'all' });
  if (issues === null) left.push('issues: not listed');
  for (const issue of issues ?? []) {
    if (issue.pull_request !== undefined || !text(issue.body).includes(marker)) continue;
    const number = Number(issue.number);
    const deleted = await api.graphql(
      DELETE_ISSUE,
      { input: { issueId: text(issue.node_id) } },
      { write: true },
    );
    if (ok(deleted)) {
      removed += 1;
      continue;
    }
    const closed = await api.rest(
      'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
      { ...repo, issue_number: number, state: 'closed', milestone: null, labels: [] },
      { write: true },
    );
    left.push(ok(closed) ? `issue #${number} closed not deleted` : `issue #${number}`);
  }

  const milestones = await listAll(api, 'GET /repos/{owner}/{repo}/milestones', { ...repo, state: 'all' });
  if (milestones === null) left.push('milestones: not listed');
  for (const milestone of milestones ?? []) {
    if (!text(milestone.description).includes(marker)) continue;
    const number = Number(milestone.number);
    const deleted = await api.rest(
      'DELETE /repos/{owner}/{repo}/milestones/{milestone_number}',
      { ...repo, milestone_number: number },
      { write: true },
    );
    if (ok(deleted)) removed += 1;
    else left.push(`milestone #${number}`);
  }

  const labels = await listAll(api, 'GET /repos/{owner}/{repo}/labels', repo);
  if (labels === null) left.push('labels: not listed');
  const pin = pinLabel(target.runId);
  for (const label of labels ?? []) {
    if (label.name !== pin) continue;
    const deleted = await api.rest(
      'DELETE /repos/{owner}/{repo}/labels/{name}',
      { ...repo, name: pin },
      { write: true },
    );
    if (ok(deleted)) removed += 1;
    else left.push(`label ${pin}`);
  }

  const branch = probeBranch(target.runId);
  const refs = await api.rest('GET /repos/{owner}/{repo}/git/matching-refs/{ref}', {
    ...repo,
    ref: `heads/${branch}`,
  });
  if (!ok(refs) || !Array.isArray(refs.data)) left.push('branches: not listed');
  else if ((refs.data as { ref?: unknown }[]).some((entry) => entry.ref === `refs/heads/${branch}`)) {
    const deleted = await api.rest(
      'DELETE /repos/{owner}/{repo}/git/refs/{ref}',
      { ...repo, ref: `heads/${branch}` },
      { write: true },
    );
    if (ok(deleted)) removed += 1;
    else left.push(`branch ${branch}`);
  }
  return { removed, left };
}
