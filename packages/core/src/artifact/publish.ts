/**
 * The artifact publisher: one generated file on one stable bot branch, through exactly one pull
 * request. Every write is gated on a re-verified approval; the branch is only ever moved forward by
 * compare-and-set commits (createCommitOnBranch with expectedHeadOid) or a merge of the base into it,
 * never forced and never reset, so human commits on the branch survive; the base is never written.
 * It stays in its lane (lane.ts, safe-path.ts): never the ledger branch, never the default branch as its
 * bot branch, only safe paths, never a secret's bytes, and every write is fenced by the run's epoch.
 */
import type { FileRoots } from '../io/input-file.js';
import { createHash } from 'node:crypto';
import { digest } from '../canonical-json.js';
import { verifyApprovalGate } from '../approval/gate.js';
import { WritError, errorMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { casExhausted, commitOnBranch } from '../github/commit-on-branch.js';
import type { LedgerContext } from '../ledger/cas.js';
import { readRun, recordArtifactPublish } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import { LEDGER_ROOT_PATH } from '../ledger/paths.js';
import { DEFAULT_LEDGER_BRANCH } from '../ledger/types.js';
import { checkArtifactFence } from '../ledger/transitions.js';
import { loadPlanFile } from '../plan/load.js';
import type { Logger } from '../redact.js';
import { containsSecret } from '../redact.js';
import { lineDiff } from './diff.js';
import { checkLane, refuseLedgerBranches, sanitizeTitle, validateArtifactBranch } from './lane.js';
import { validateArtifactPath } from './safe-path.js';

export type OnClosedPr = 'report' | 'open-new';

export interface PublishSettings {
  repository: RepositoryName;
  runId: string;
  /** The fencing epoch consume-approval took (its `epoch` output): a publish under an older one is `fenced`. */
  epoch: number;
  planFile: string;
  /** Where a stage may read the plan from (the workspace and the runner's temp directory). */
  planRoots?: FileRoots;
  commandPrefix: string;
  allowedRoles: readonly string[];
  /** Repository-relative path of the published file. */
  path: string;
  /** Allow `path` under `.github/workflows/`. */
  allowWorkflowFiles: boolean;
  content: Buffer;
  branch: string;
  /** Empty: the repository's default branch. */
  base: string;
  /** Untrusted: sanitized to one line of visible characters. Empty: `docs: refresh <path>`. */
  prTitle: string;
  prBody: string;
  onClosedPr: OnClosedPr;
  dryRun: boolean;
  maxAttempts?: number;
}

export interface PublishResult {
  outcome: 'created' | 'updated' | 'unchanged' | 'dry-run';
  commitOid: string;
  prNumber: number | null;
  prUrl: string;
  branch: string;
  base: string;
  diff: { added: number; removed: number; lines: string[] };
  /** The write requests made (or, in a dry run, that would be made). */
  writes: string[];
}

export const MAX_ARTIFACT_BYTES = 5 * 1024 * 1024;

/** The git blob ID of some bytes: what GitHub reports as the file's `sha`. */
export function blobOid(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

interface BranchState {
  baseOid: string;
  headOid: string | null;
  fileOid: string | null;
  fileText: string;
}

interface PullState {
  open: { number: number; html_url: string; title: string; body: string | null } | null;
  closedUnmerged: { number: number; html_url: string } | null;
}

export async function publishArtifact(
  deps: { github: GitHubClient; ledger: LedgerContext; logger: Logger },
  settings: PublishSettings,
): Promise<PublishResult> {
  const { github, logger } = deps;
  const { repository } = settings;
  const path = validateArtifactPath(settings.path, { allowWorkflowFiles: settings.allowWorkflowFiles });
  const branch = validateArtifactBranch(settings.branch, 'branch');
  const explicitBase = settings.base === '' ? null : validateArtifactBranch(settings.base, 'base');
  const ledgerBranches = [deps.ledger.store.location.branch, DEFAULT_LEDGER_BRANCH];
  refuseLedgerBranches(explicitBase === null ? [branch] : [branch, explicitBase], ledgerBranches);
  if (!Number.isSafeInteger(settings.epoch) || settings.epoch < 1) {
    throw new WritError('invalid-input', `the epoch must be a positive integer (got ${settings.epoch})`);
  }
  if (settings.content.length > MAX_ARTIFACT_BYTES) {
    throw new WritError(
      'invalid-input',
      `the content file is ${settings.content.length} bytes; the limit is ${MAX_ARTIFACT_BYTES}`,
    );
  }
  const prTitle = sanitizeTitle(settings.prTitle) || `docs: refresh ${path}`;
  for (const [what, bytes] of [
    ['the content file', settings.content],
    ['the pull request body', settings.prBody],
    ['the pull request title', prTitle],
  ] as const) {
    if (containsSecret(bytes)) {
      throw new WritError(
        'invalid-input',
        `${what} holds the token, a registered secret (raw, base64, hex or URL-encoded) or a GitHub token; it is never published`,
      );
    }
  }
  const plan = loadPlanFile(settings.planFile, settings.planRoots);
  const planDigest = digest(plan);
  const gated = await verifyApprovalGate(deps, {
    repository,
    runId: settings.runId,
    planDigest,
    commandPrefix: settings.commandPrefix,
    allowedRoles: settings.allowedRoles,
  });

  const defaultBranch = (await github.rest.repos.get({ ...repository })).data.default_branch;
  const base = explicitBase ?? defaultBranch;
  const lane = checkLane({
    branch,
    base,
    defaultBranch,
    ledgerBranches,
  });
  // Fenced like every other write: checked before the first one, again before each later kind of write,
  // and once more by the ledger's own artifact transition.
  const fence = async (): Promise<void> => {
    const view = await readRun(deps.ledger, settings.runId);
    if (view.run === null) throw new WritError('run-not-found', `the ledger holds no run ${settings.runId}`);
    checkArtifactFence(view, view.run, settings.epoch);
  };
  await fence();
  const wantedOid = blobOid(settings.content);
  const wantedText = settings.content.toString('utf8');
  const writes: string[] = [];

  const refOid = async (name: string): Promise<string | null> => {
    try {
      return (await github.rest.git.getRef({ ...repository, ref: `heads/${name}` })).data.object.sha;
    } catch (error: unknown) {
      if (httpStatus(error) === 404) return null;
      throw error;
    }
  };

  const readBranch = async (): Promise<BranchState> => {
    const baseOid = await refOid(base);
    if (baseOid === null) throw new WritError('invalid-input', `the base branch '${base}' does not exist`);
    const headOid = await refOid(branch);
    if (headOid === null) return { baseOid, headOid, fileOid: null, fileText: '' };
    try {
      const { data } = await github.rest.repos.getContent({ ...repository, path, ref: headOid });
      if (Array.isArray(data) || data.type !== 'file')
        throw new WritError('invalid-input', `the published path on '${branch}' is not a file`);
      const text =
        'content' in data && typeof data.content === 'string'
          ? Buffer.from(data.content, 'base64').toString('utf8')
          : '';
      return { baseOid, headOid, fileOid: data.sha, fileText: text };
    } catch (error: unknown) {
      if (httpStatus(error) === 404) return { baseOid, headOid, fileOid: null, fileText: '' };
      throw error;
    }
  };

  const readPulls = async (): Promise<PullState> => {
    const state: PullState = { open: null, closedUnmerged: null };
    for await (const page of github.paginate.iterator(github.rest.pulls.list, {
      ...repository,
      head: `${repository.owner}:${branch}`,
      base,
      state: 'all',
      per_page: 100,
    })) {
      for (const pull of page.data) {
        if (pull.head.ref !== branch || pull.base.ref !== base) continue;
        if (pull.state === 'open' && state.open === null) {
          state.open = { number: pull.number, html_url: pull.html_url, title: pull.title, body: pull.body };
        } else if (pull.state === 'closed' && pull.merged_at === null && state.closedUnmerged === null) {
          state.closedUnmerged = { number: pull.number, html_url: pull.html_url };
        }
      }
    }
    return state;
  };

  let state = await readBranch();
  // Whatever the inputs name it, a branch holding a ledger root is a ledger: never written, never a base.
  for (const oid of [state.baseOid, state.headOid]) {
    if (oid !== null && (await holdsLedgerRoot(github, repository, oid))) {
      throw new WritError(
        'invalid-input',
        `'${oid === state.headOid ? branch : base}' holds a Writ ledger (${LEDGER_ROOT_PATH}); publish-artifact never writes a ledger or proposes into one`,
      );
    }
  }
  const pulls = await readPulls();
  const diff = lineDiff(state.fileText, wantedText);
  if (pulls.open === null && pulls.closedUnmerged !== null && settings.onClosedPr === 'report') {
    throw new WritError(
      'artifact-pr-closed',
      `pull request #${pulls.closedUnmerged.number} (${pulls.closedUnmerged.html_url}) for '${branch}' was closed without merging; a human decides: reopen it, or set on-closed-pr: open-new`,
      { details: { 'pr-url': pulls.closedUnmerged.html_url } },
    );
  }
  const prBody = settings.prBody;
  const prCurrent = pulls.open !== null && pulls.open.title === prTitle && (pulls.open.body ?? '') === prBody;
  if (state.fileOid === wantedOid && prCurrent && pulls.open !== null && state.headOid !== null) {
    // Published, but maybe never recorded: an earlier run died between its pull request and its ledger
    // record (the recovery kill-point campaign found it). The record is written once, fenced as ever.
    const recorded = gated.artifact ?? null;
    const contentDigest = `sha256:${createHash('sha256').update(settings.content).digest('hex')}`;
    if (
      !settings.dryRun &&
      (recorded?.commit_oid !== state.headOid ||
        recorded.pr_number !== pulls.open.number ||
        recorded.content_digest !== contentDigest)
    ) {
      await recordArtifactPublish(deps.ledger, {
        runId: settings.runId,
        artifact: {
          commit_oid: state.headOid,
          pr_number: pulls.open.number,
          content_digest: contentDigest,
          epoch: settings.epoch,
        },
      });
    }
    return {
      outcome: 'unchanged',
      commitOid: state.headOid,
      prNumber: pulls.open.number,
      prUrl: pulls.open.html_url,
      branch,
      base,
      diff,
      writes,
    };
  }

  if (settings.dryRun) {
    if (state.headOid === null)
      writes.push(
        `POST /repos/${repository.owner}/${repository.repo}/git/refs (create ${branch} at ${base})`,
      );
    if (state.fileOid !== wantedOid) writes.push(`POST /graphql createCommitOnBranch (${path} on ${branch})`);
    if (pulls.open === null)
      writes.push(`POST /repos/${repository.owner}/${repository.repo}/pulls (${branch} → ${base})`);
    else if (!prCurrent)
      writes.push(`PATCH /repos/${repository.owner}/${repository.repo}/pulls/${pulls.open.number}`);
    writes.push('POST /graphql createCommitOnBranch (ledger: artifact record)');
    return {
      outcome: 'dry-run',
      commitOid: state.headOid ?? '',
      prNumber: pulls.open?.number ?? null,
      prUrl: pulls.open?.html_url ?? '',
      branch,
      base,
      diff,
      writes,
    };
  }

  // 1. The branch exists, created from the base only if absent.
  const created = state.headOid === null;
  if (state.headOid === null) {
    writes.push('create branch');
    try {
      await github.rest.git.createRef({
        ...repository,
        ref: `refs/heads/${lane.target(branch)}`,
        sha: state.baseOid,
      });
    } catch (error: unknown) {
      if (httpStatus(error) !== 422) throw error;
      logger.info(`branch ${branch} appeared concurrently; using it`);
    }
    state = await readBranch();
  }

  // 2. The base has moved on: merge it in (never a reset), so the PR stays open and human commits survive.
  if (state.headOid !== null && !(await containsCommit(github, repository, state.headOid, state.baseOid))) {
    await fence();
    writes.push(`merge ${base} into ${branch}`);
    try {
      await github.rest.repos.merge({
        ...repository,
        base: lane.target(branch),
        head: state.baseOid,
        commit_message: `Merge ${base} into ${branch} (writ run ${settings.runId})`,
      });
    } catch (error: unknown) {
      if (httpStatus(error) === 409) {
        throw new WritError(
          'conflict',
          `'${base}' cannot be merged into '${branch}' without conflicts; a human must resolve the branch`,
        );
      }
      throw error;
    }
    state = await readBranch();
  }

  // 3. The file, by compare-and-set commits only; a moved head is re-read, never overwritten.
  const maxAttempts = settings.maxAttempts ?? 6;
  if (state.fileOid !== wantedOid && writes.length > 0) await fence();
  for (let attempt = 1; state.fileOid !== wantedOid; attempt++) {
    if (attempt > maxAttempts)
      throw casExhausted('artifact', `The artifact commit on '${branch}'`, maxAttempts);
    if (state.headOid === null) throw new WritError('invalid-input', `the branch '${branch}' disappeared`);
    writes.push(`commit ${path}`);
    const outcome = await commitOnBranch(
      github,
      {
        repository: `${repository.owner}/${repository.repo}`,
        branch: lane.target(branch),
        expectedHeadOid: state.headOid,
        headline: Array.from(prTitle).slice(0, 200).join(''),
        body: `Published by Writ for run ${settings.runId}.\n\nWrit-Run: ${settings.runId}`,
        additions: [{ path, contents: settings.content }],
      },
      'artifact',
    );
    if (outcome.kind !== 'committed') {
      // STALE_DATA, a 5xx or a lost response: it may have landed (even our own retried request). Read back.
      logger.info(
        `artifact commit attempt ${attempt} on ${branch}: ${outcome.kind === 'stale' ? 'head moved' : `no definite answer (${outcome.reason})`}; re-reading`,
      );
    }
    state = await readBranch();
  }
  const commitOid = state.headOid ?? '';

  // 4. Exactly one open pull request, found before created; a concurrent creation is found, not duplicated.
  let pull = (await readPulls()).open;
  const pullCurrent = (p: NonNullable<PullState['open']>): boolean =>
    p.title === prTitle && (p.body ?? '') === prBody;
  if (pull === null || !pullCurrent(pull)) await fence();
  if (pull === null) {
    writes.push('open pull request');
    try {
      const { data } = await github.rest.pulls.create({
        ...repository,
        head: lane.target(branch),
        base,
        title: prTitle,
        body: prBody,
      });
      pull = { number: data.number, html_url: data.html_url, title: data.title, body: data.body };
    } catch (error: unknown) {
      if (httpStatus(error) !== 422 || !/already exists/i.test(errorMessage(error))) throw error;
      pull = (await readPulls()).open;
      if (pull === null) throw error;
    }
  }
  if (!pullCurrent(pull)) {
    writes.push(`update pull request #${pull.number}`);
    await github.rest.pulls.update({
      ...repository,
      pull_number: pull.number,
      title: prTitle,
      body: prBody,
    });
  }

  // 5. The run's ledger file records what was published, so recovery can tell.
  await recordArtifactPublish(deps.ledger, {
    runId: settings.runId,
    artifact: {
      commit_oid: commitOid,
      pr_number: pull.number,
      content_digest: `sha256:${createHash('sha256').update(settings.content).digest('hex')}`,
      epoch: settings.epoch,
    },
  });
  return {
    outcome: created ? 'created' : 'updated',
    commitOid,
    prNumber: pull.number,
    prUrl: pull.html_url,
    branch,
    base,
    diff,
    writes,
  };
}

/** Whether the tree of commit `oid` holds a ledger root file. */
async function holdsLedgerRoot(
  github: GitHubClient,
  repository: RepositoryName,
  oid: string,
): Promise<boolean> {
  try {
    await github.rest.repos.getContent({ ...repository, path: LEDGER_ROOT_PATH, ref: oid });
    return true;
  } catch (error: unknown) {
    if (httpStatus(error) === 404) return false;
    throw error;
  }
}

/** Whether `ancestor` is in the recent history of `head` (a bounded walk of the commits list). */
async function containsCommit(
  github: GitHubClient,
  repository: RepositoryName,
  head: string,
  ancestor: string,
): Promise<boolean> {
  if (head === ancestor) return true;
  let page = 0;
  for await (const response of github.paginate.iterator(github.rest.repos.listCommits, {
    ...repository,
    sha: head,
    per_page: 100,
  })) {
    if (response.data.some((commit) => commit.sha === ancestor)) return true;
    page += 1;
    if (page >= 3) break;
  }
  return false;
}
