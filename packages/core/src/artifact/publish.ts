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
import { verifyApprovalGateView } from '../approval/gate.js';
import { WritError, errorMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { runCasLoop } from '../github/cas-loop.js';
import { casExhausted, commitOnBranch } from '../github/commit-on-branch.js';
import type { HeldHead, LedgerContext, TransitionOutcome } from '../ledger/cas.js';
import { readRun, recordArtifactPublish } from '../ledger/ledger.js';
import type { RepositoryName } from '../ledger/paths.js';
import { LEDGER_ROOT_PATH } from '../ledger/paths.js';
import type { Holder, RunFile } from '../ledger/types.js';
import { DEFAULT_LEDGER_BRANCH } from '../ledger/types.js';
import type { LedgerView } from '../ledger/transitions.js';
import { checkArtifactFence } from '../ledger/transitions.js';
import { loadPlanFile } from '../plan/load.js';
import type { Logger } from '../redact.js';
import { containsSecret } from '../redact.js';
import { lineDiff } from './diff.js';
import type { ArtifactBranch, LaneGuard } from './lane.js';
import type { LaneCommit, LanePulls, LaneRequest, LaneState } from './lane-read.js';
import { laneSelection, parseLane, readLane } from './lane-read.js';
import { checkLane, sanitizeTitle } from './lane.js';
import type { ArtifactPath } from './safe-path.js';

export type OnClosedPr = 'report' | 'open-new';

export interface PublishSettings {
  repository: RepositoryName;
  runId: string;
  /** The fencing epoch consume-approval took (its `epoch` output): a publish under an older one is `fenced`. */
  epoch: number;
  /**
   * This workflow run (its ID and attempt, from the runner context): it must own the run at `epoch`
   * (ledger/transitions.ts checkHolder), or every write is `fenced`.
   */
  holder: Omit<Holder, 'run_id'>;
  planFile: string;
  /** Where a stage may read the plan from (the workspace and the runner's temp directory). */
  planRoots?: FileRoots;
  commandPrefix: string;
  allowedRoles: readonly string[];
  /** Repository-relative path of the published file, checked by the stage's inputs. */
  path: ArtifactPath;
  /** The bytes to publish (at most MAX_ARTIFACT_BYTES: the input-file rules read no more). */
  content: Buffer;
  /** The bot branch and the base, checked by the stage's inputs (neither names the ledger branch). */
  branch: ArtifactBranch;
  /** Null: the repository's default branch. */
  base: ArtifactBranch | null;
  /** Untrusted: sanitized to one line of visible characters. Empty: `docs: refresh <path>`. */
  prTitle: string;
  prBody: string;
  onClosedPr: OnClosedPr;
  dryRun: boolean;
  /** Attempts of the file's compare-and-set commit; default the ledger context's (CAS_MAX_ATTEMPTS). */
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
  /** The run as this publish's ledger record left it, and that commit's head; null when none was made. */
  recorded: { run: RunFile; head: HeldHead | undefined } | null;
}

/** What a ledger record left, for the status comment to follow. */
function recordedBy(outcome: TransitionOutcome): PublishResult['recorded'] {
  const run = outcome.result.run;
  return outcome.committed && run !== null ? { run, head: outcome.held } : null;
}

export const MAX_ARTIFACT_BYTES = 5 * 1024 * 1024;

/** The git blob ID of some bytes: what GitHub reports as the file's `sha`. */
export function blobOid(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/** The digest the ledger's artifact record holds for the published bytes. */
function contentDigest(content: Buffer): string {
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}

interface BranchState {
  baseOid: string;
  headOid: string | null;
  fileOid: string | null;
  fileText: string;
}

type OpenPull = NonNullable<LanePulls['open']>;
type PullState = LanePulls;

/** What the published state should be: the file's blob ID and the pull request's title and body. */
export interface WantedState {
  fileOid: string;
  prTitle: string;
  prBody: string;
}

/** The pull request write a state calls for: none, open one, or bring the open one's text up to date. */
export type PullWrite = { kind: 'none' } | { kind: 'open' } | { kind: 'update'; number: number };

/**
 * The writes a publish makes, decided purely from what was read: the dry run lists them, the live path
 * makes them (re-deciding each from a fresh read, since others may write between). No writes: unchanged.
 * Every publish that writes also records the artifact in the run's ledger file.
 */
export interface WritePlan {
  createBranch: boolean;
  commitFile: boolean;
  pull: PullWrite;
}

export function pullWrite(open: OpenPull | null, wanted: WantedState): PullWrite {
  if (open === null) return { kind: 'open' };
  const current = open.title === wanted.prTitle && (open.body ?? '') === wanted.prBody;
  return current ? { kind: 'none' } : { kind: 'update', number: open.number };
}

export function planWrites(
  observed: { headOid: string | null; fileOid: string | null; openPull: OpenPull | null },
  wanted: WantedState,
): WritePlan {
  return {
    createBranch: observed.headOid === null,
    commitFile: observed.fileOid !== wanted.fileOid,
    pull: pullWrite(observed.openPull, wanted),
  };
}

export function hasWrites(plan: WritePlan): boolean {
  return plan.createBranch || plan.commitFile || plan.pull.kind !== 'none';
}

/** The requests a plan makes, as the dry run shows them. */
export function describeWrites(
  plan: WritePlan,
  where: { repository: RepositoryName; branch: string; base: string; path: string },
): string[] {
  const repo = `/repos/${where.repository.owner}/${where.repository.repo}`;
  const writes: string[] = [];
  if (plan.createBranch) writes.push(`POST ${repo}/git/refs (create ${where.branch} at ${where.base})`);
  if (plan.commitFile) writes.push(`POST /graphql createCommitOnBranch (${where.path} on ${where.branch})`);
  if (plan.pull.kind === 'open') writes.push(`POST ${repo}/pulls (${where.branch} → ${where.base})`);
  if (plan.pull.kind === 'update') writes.push(`PATCH ${repo}/pulls/${plan.pull.number}`);
  writes.push('POST /graphql createCommitOnBranch (ledger: artifact record)');
  return writes;
}

/**
 * Pull requests from the bot branch into the base by REST, every page: what the lane read falls back
 * to past one page of them, and the read-back after a creation GitHub refused as a duplicate.
 */
async function readPullsByRest(
  github: GitHubClient,
  repository: RepositoryName,
  lane: { branch: string; base: string },
): Promise<PullState> {
  const { branch, base } = lane;
  const state: PullState = { open: null, closedUnmerged: null };
  // `head` as `owner:branch`: only this repository's own branch (a fork's head has its owner's name).
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
}

/**
 * The branch state a lane read shows: `invalid-input` if the base is missing, if either head holds a
 * ledger (whatever the inputs name it, a branch holding a ledger root is never written, never a base),
 * or if something other than a regular file is at the published path on the bot branch.
 */
function branchState(lane: LaneState, branch: string): BranchState {
  const { base, baseHead, head } = lane;
  if (baseHead === null) throw new WritError('invalid-input', `the base branch '${base}' does not exist`);
  for (const [name, commit] of [
    [base, baseHead],
    [branch, head],
  ] as const) {
    if (commit?.holdsLedgerRoot === true) {
      throw new WritError(
        'invalid-input',
        `'${name}' holds a Writ ledger (${LEDGER_ROOT_PATH}); publish-artifact never writes a ledger or proposes into one`,
      );
    }
  }
  if (head === null) return { baseOid: baseHead.oid, headOid: null, fileOid: null, fileText: '' };
  return headState(baseHead.oid, head, branch);
}

function headState(baseOid: string, head: LaneCommit, branch: string): BranchState {
  if (head.notAFile) throw new WritError('invalid-input', `the published path on '${branch}' is not a file`);
  return { baseOid, headOid: head.oid, fileOid: head.fileOid, fileText: head.fileText };
}

/** The pull request title (sanitized, else the default); `invalid-input` if any text to publish holds a secret. */
function publishableText(settings: PublishSettings): string {
  const prTitle = sanitizeTitle(settings.prTitle) || `docs: refresh ${settings.path}`;
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
  return prTitle;
}

/** Whether the ledger's one read can carry the lane's selection: the ledger is in the same repository. */
function sameRepository(a: RepositoryName, b: RepositoryName): boolean {
  return a.owner.toLowerCase() === b.owner.toLowerCase() && a.repo.toLowerCase() === b.repo.toLowerCase();
}

type PublishDeps = { github: GitHubClient; ledger: LedgerContext; logger: Logger };

/** What the gate's read left: the approved run, the ledger view it was proved on, and the lane. */
interface GatedLane {
  approvedRun: RunFile;
  /** The lease as the gate's ledger read found it: the first fence check's input. */
  view: Pick<LedgerView, 'lease'>;
  laneRequest: LaneRequest;
  laneState: LaneState;
}

/**
 * The approval gate, re-verified against the plan, with the lane (default branch, base, bot branch, its
 * file, its pull requests) read in the gate's own ledger read when the ledger is in the same repository,
 * else by a read of its own. The lane is looked at only once the gate has passed.
 */
async function readGatedLane(deps: PublishDeps, settings: PublishSettings): Promise<GatedLane> {
  const { repository, path, branch } = settings;
  const plan = loadPlanFile(settings.planFile, settings.planRoots);
  const laneRequest: LaneRequest = { repository, branch, base: settings.base, path };
  const { run: approvedRun, view } = await verifyApprovalGateView(
    deps,
    {
      repository,
      runId: settings.runId,
      planDigest: digest(plan),
      commandPrefix: settings.commandPrefix,
      allowedRoles: settings.allowedRoles,
    },
    sameRepository(deps.ledger.store.location, repository) ? { alongside: laneSelection(laneRequest) } : {},
  );
  const laneState =
    view.alongside === undefined
      ? await readLane(deps.github, laneRequest)
      : parseLane(view.alongside, laneRequest);
  return { approvedRun, view, laneRequest, laneState };
}

/** `artifact-pr-closed` when the bot's pull request was closed unmerged and a human decides (`report`). */
function refuseClosedPull(pulls: PullState, settings: PublishSettings): void {
  if (pulls.open !== null || pulls.closedUnmerged === null || settings.onClosedPr !== 'report') return;
  throw new WritError(
    'artifact-pr-closed',
    `pull request #${pulls.closedUnmerged.number} (${pulls.closedUnmerged.html_url}) for '${settings.branch}' was closed without merging; a human decides: reopen it, or set on-closed-pr: open-new`,
    { details: { 'pr-url': pulls.closedUnmerged.html_url } },
  );
}

/** The artifact record of what was published, as the ledger holds it (without the epoch). */
interface ArtifactRecord {
  commit_oid: string;
  pr_number: number;
  content_digest: string;
}

/** The run's ledger file records what was published (fenced by the ledger's own transition). */
async function recordArtifact(
  deps: PublishDeps,
  settings: PublishSettings,
  record: ArtifactRecord,
): Promise<PublishResult['recorded']> {
  return recordedBy(
    await recordArtifactPublish(deps.ledger, {
      runId: settings.runId,
      artifact: { ...record, epoch: settings.epoch },
      holder: { run_id: settings.runId, ...settings.holder },
    }),
  );
}

/**
 * Nothing to write: the branch holds the bytes and the open pull request the text. Published, but maybe
 * never recorded: an earlier run died between its pull request and its ledger record (the recovery
 * kill-point campaign found it). The record is written once, fenced as ever (never in a dry run).
 */
async function recordUnchanged(
  deps: PublishDeps,
  settings: PublishSettings,
  published: { approvedRun: RunFile; headOid: string; open: OpenPull },
): Promise<Pick<PublishResult, 'outcome' | 'commitOid' | 'prNumber' | 'prUrl' | 'writes' | 'recorded'>> {
  const { number, html_url } = published.open;
  const record: ArtifactRecord = {
    commit_oid: published.headOid,
    pr_number: number,
    content_digest: contentDigest(settings.content),
  };
  const recorded = published.approvedRun.artifact ?? null;
  const unrecorded =
    recorded?.commit_oid !== record.commit_oid ||
    recorded.pr_number !== record.pr_number ||
    recorded.content_digest !== record.content_digest;
  const writing = unrecorded && !settings.dryRun;
  return {
    recorded: writing ? await recordArtifact(deps, settings, record) : null,
    outcome: 'unchanged',
    commitOid: published.headOid,
    prNumber: number,
    prUrl: html_url,
    writes: writing ? ['record artifact in the ledger'] : [],
  };
}

export async function publishArtifact(deps: PublishDeps, settings: PublishSettings): Promise<PublishResult> {
  const { repository, path, branch } = settings;
  const ledgerBranches = [deps.ledger.store.location.branch, DEFAULT_LEDGER_BRANCH];
  const prTitle = publishableText(settings);
  const { approvedRun, view, laneRequest, laneState } = await readGatedLane(deps, settings);
  const base = laneState.base;
  const lane = checkLane({ branch, base, defaultBranch: laneState.defaultBranch, ledgerBranches });
  // Fenced like every other write: checked before the first one (on the gate's read: the lease and the
  // run at the head whose provenance it proved), again before each later kind of write, and once more
  // by the ledger's own artifact transition.
  const holder: Holder = { run_id: settings.runId, ...settings.holder };
  checkArtifactFence(view, approvedRun, settings.epoch, holder);
  const fence = async (): Promise<void> => {
    const fresh = await readRun(deps.ledger, settings.runId);
    if (fresh.run === null) throw new WritError('run-not-found', `the ledger holds no run ${settings.runId}`);
    checkArtifactFence(fresh, fresh.run, settings.epoch, holder);
  };
  const wanted: WantedState = { fileOid: blobOid(settings.content), prTitle, prBody: settings.prBody };

  const state = branchState(laneState, branch);
  const pulls = laneState.pulls ?? (await readPullsByRest(deps.github, repository, { branch, base }));
  const diff = lineDiff(state.fileText, settings.content.toString('utf8'));
  refuseClosedPull(pulls, settings);
  const writePlan = planWrites({ ...state, openPull: pulls.open }, wanted);
  const result = { branch, base, diff };
  if (!hasWrites(writePlan) && state.headOid !== null && pulls.open !== null) {
    const unchanged = { approvedRun, headOid: state.headOid, open: pulls.open };
    return { ...result, ...(await recordUnchanged(deps, settings, unchanged)) };
  }
  if (settings.dryRun) {
    return {
      ...result,
      recorded: null,
      outcome: 'dry-run',
      commitOid: state.headOid ?? '',
      prNumber: pulls.open?.number ?? null,
      prUrl: pulls.open?.html_url ?? '',
      writes: describeWrites(writePlan, { repository, branch, base, path }),
    };
  }
  const written = await makeWrites(
    { deps, settings, lane, laneRequest, fence, wanted, base, writes: [] },
    { state, headHoldsBase: laneState.headHoldsBase },
    { baseHead: laneState.baseHead, open: pulls.open },
  );
  return { ...result, outcome: writePlan.createBranch ? 'created' : 'updated', ...written };
}

/** What every live write step works with; `writes` collects the write requests made, in order. */
interface WriteContext {
  deps: PublishDeps;
  settings: PublishSettings;
  lane: LaneGuard;
  laneRequest: LaneRequest;
  /** Re-reads the run and checks the fence: before each later kind of write. */
  fence: () => Promise<void>;
  wanted: WantedState;
  base: string;
  writes: string[];
}

/** The bot branch as last written or read back: what the next write step starts from. */
interface BranchCursor {
  state: BranchState;
  headHoldsBase: boolean;
}

/** Reads the lane back after a write without a definite answer (or one that may have moved the file). */
async function readBack(ctx: WriteContext, cursor: BranchCursor): Promise<void> {
  const fresh = await readLane(ctx.deps.github, ctx.laneRequest);
  cursor.state = branchState(fresh, ctx.settings.branch);
  cursor.headHoldsBase = fresh.headHoldsBase;
}

/**
 * The live path: the plan's writes in order: the branch, the base merged in, the file by
 * compare-and-set commits, the pull request, and last the ledger's record of what was published. A
 * write GitHub answered is taken at its answer (a created ref is at the base's head; a committed file
 * is the bytes sent, at the commit GitHub returned); one without a definite answer, or one refused
 * because another got there first, is read back before anything else is written.
 */
async function makeWrites(
  ctx: WriteContext,
  cursor: BranchCursor,
  read: { baseHead: LaneCommit | null; open: OpenPull | null },
): Promise<Pick<PublishResult, 'commitOid' | 'prNumber' | 'prUrl' | 'writes' | 'recorded'>> {
  if (cursor.state.headOid === null) await createBranch(ctx, cursor, read.baseHead);
  if (cursor.state.headOid !== null && !cursor.headHoldsBase) await mergeBase(ctx, cursor);
  await commitFile(ctx, cursor);
  const commitOid = cursor.state.headOid ?? '';
  const pull = await ensurePull(ctx, read.open);
  // The run's ledger file records what was published, so recovery can tell.
  const recorded = await recordArtifact(ctx.deps, ctx.settings, {
    commit_oid: commitOid,
    pr_number: pull.number,
    content_digest: contentDigest(ctx.settings.content),
  });
  return { commitOid, prNumber: pull.number, prUrl: pull.html_url, writes: ctx.writes, recorded };
}

/** 1. The branch exists, created from the base only if absent (one that appeared concurrently is used). */
async function createBranch(
  ctx: WriteContext,
  cursor: BranchCursor,
  baseHead: LaneCommit | null,
): Promise<void> {
  const { github, logger } = ctx.deps;
  const { repository, branch } = ctx.settings;
  ctx.writes.push('create branch');
  let created = false;
  try {
    await github.rest.git.createRef({
      ...repository,
      ref: `refs/heads/${ctx.lane.target(branch)}`,
      sha: cursor.state.baseOid,
    });
    created = true;
  } catch (error: unknown) {
    if (httpStatus(error) !== 422) throw error;
    logger.info(`branch ${branch} appeared concurrently; using it`);
  }
  if (created && baseHead !== null) {
    // GitHub created it at the base's head: the branch is that commit, its file the base's.
    cursor.state = headState(cursor.state.baseOid, baseHead, branch);
    cursor.headHoldsBase = true;
  } else {
    await readBack(ctx, cursor);
  }
}

/** 2. The base has moved on: merge it in (never a reset), so the PR stays open and human commits survive. */
async function mergeBase(ctx: WriteContext, cursor: BranchCursor): Promise<void> {
  const { repository, branch, runId } = ctx.settings;
  const { base } = ctx;
  await ctx.fence();
  ctx.writes.push(`merge ${base} into ${branch}`);
  try {
    await ctx.deps.github.rest.repos.merge({
      ...repository,
      base: ctx.lane.target(branch),
      head: cursor.state.baseOid,
      commit_message: `Merge ${base} into ${branch} (writ run ${runId})`,
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
  // The merge may have changed the published file: read the branch back.
  await readBack(ctx, cursor);
}

/**
 * 3. The file, by compare-and-set commits only (the one loop, github/cas-loop.ts): a moved head is
 * re-read, never overwritten; a lost answer is read back and counts only if the file is the bytes sent.
 */
async function commitFile(ctx: WriteContext, cursor: BranchCursor): Promise<void> {
  const { deps, settings, wanted } = ctx;
  const { github, logger } = deps;
  const { repository, path, branch } = settings;
  if (cursor.state.fileOid !== wanted.fileOid && ctx.writes.length > 0) await ctx.fence();
  const published = (): boolean => cursor.state.fileOid === wanted.fileOid;
  await runCasLoop<true, string>(
    { ...deps.ledger, maxAttempts: settings.maxAttempts ?? deps.ledger.maxAttempts },
    {
      decide: async (attempt) => {
        if (attempt > 1) await readBack(ctx, cursor);
        if (published()) return { kind: 'done', value: true };
        if (cursor.state.headOid === null)
          throw new WritError('invalid-input', `the branch '${branch}' disappeared`);
        return { kind: 'commit', commit: cursor.state.headOid };
      },
      commit: async (expectedHeadOid, attempt) => {
        ctx.writes.push(`commit ${path}`);
        const outcome = await commitOnBranch(
          github,
          {
            repository: `${repository.owner}/${repository.repo}`,
            branch: ctx.lane.target(branch),
            expectedHeadOid,
            headline: Array.from(wanted.prTitle).slice(0, 200).join(''),
            body: `Published by Writ for run ${settings.runId}.\n\nWrit-Run: ${settings.runId}`,
            additions: [{ path, contents: settings.content }],
          },
          'artifact',
        );
        if (outcome.kind === 'committed') {
          // The commit GitHub answered with holds exactly the bytes sent at the path.
          cursor.state = { ...cursor.state, headOid: outcome.oid, fileOid: wanted.fileOid };
          return { kind: 'done', value: true };
        }
        // STALE_DATA, a 5xx or a lost response: it may have landed (even our own retried request).
        logger.info(
          `artifact commit attempt ${attempt} on ${branch}: ${outcome.kind === 'stale' ? 'head moved' : `no definite answer (${outcome.reason})`}; re-reading`,
        );
        return { kind: 'again' };
      },
      landed: async () => {
        await readBack(ctx, cursor);
        return published() ? true : null;
      },
      exhausted: (attempts) => casExhausted('artifact', `The artifact commit on '${branch}'`, attempts),
    },
  );
}

/**
 * 4. Exactly one open pull request, found before created; a concurrent creation is found, not duplicated.
 * The branch writes before it do not open, close or edit a pull request: the lane read still holds.
 */
async function ensurePull(ctx: WriteContext, open: OpenPull | null): Promise<OpenPull> {
  const { github } = ctx.deps;
  const { repository, branch } = ctx.settings;
  const { wanted, base } = ctx;
  let pull = open;
  let write = pullWrite(pull, wanted);
  if (write.kind !== 'none') await ctx.fence();
  if (pull === null) {
    ctx.writes.push('open pull request');
    try {
      const { data } = await github.rest.pulls.create({
        ...repository,
        head: ctx.lane.target(branch),
        base,
        title: wanted.prTitle,
        body: wanted.prBody,
      });
      pull = { number: data.number, html_url: data.html_url, title: data.title, body: data.body };
    } catch (error: unknown) {
      if (httpStatus(error) !== 422 || !/already exists/i.test(errorMessage(error))) throw error;
      pull = (await readPullsByRest(github, repository, { branch, base })).open;
      if (pull === null) throw error;
    }
    write = pullWrite(pull, wanted);
  }
  if (write.kind === 'update') {
    ctx.writes.push(`update pull request #${pull.number}`);
    await github.rest.pulls.update({
      ...repository,
      pull_number: pull.number,
      title: wanted.prTitle,
      body: wanted.prBody,
    });
  }
  return pull;
}
