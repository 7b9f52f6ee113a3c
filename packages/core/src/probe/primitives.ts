/**
 * The compare-and-set primitives Writ's ledger and artifact branch rely on, probed on one branch
 * `writ-probe-<run>` the probe creates from the default branch's head (and deletes in cleanup):
 *
 *  - `create-ref-existing`: `POST /git/refs` for a ref that exists → 422, the ref unmoved;
 *  - `update-ref-non-fast-forward`: `PATCH /git/refs` with `force: false` to a commit that does not
 *    descend from the tip → 422, the ref unmoved;
 *  - `update-refs-stale-before-oid`: GraphQL `updateRefs` with a stale `beforeOid` (a fast-forward
 *    otherwise) → refused, the ref unmoved;
 *  - `stale-expected-head-oid`: `createCommitOnBranch` with a stale `expectedHeadOid` → `STALE_DATA`,
 *    the head unmoved.
 *
 * Each has a fresh control write that must succeed first. The commits it makes are unreachable once
 * the branch is deleted.
 */
import type { Answer, ProbeApi } from './api.js';
import { ok } from './api.js';
import type { AttemptObservation } from './classify.js';
import { classifyAttempt, staleStateRefusal } from './classify.js';
import type { ProbeTarget } from './cases.js';
import type { PrimitiveId, ProbePrimitive, ReadBack } from './evidence.js';

export const PRIMITIVE_SURFACES: Record<PrimitiveId, string> = {
  'create-ref-existing': 'POST /repos/{owner}/{repo}/git/refs',
  'update-ref-non-fast-forward': 'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
  'update-refs-stale-before-oid': 'graphql updateRefs',
  'stale-expected-head-oid': 'graphql createCommitOnBranch',
};

export function probeBranch(runId: string): string {
  return `writ-probe-${runId}`;
}

const UPDATE_REFS = `mutation WritProbeUpdateRefs($input: UpdateRefsInput!) {
  updateRefs(input: $input) { clientMutationId }
}`;

const COMMIT = `mutation WritProbeCommit($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;

function rec(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function data(answer: Answer): Record<string, unknown> {
  return rec(answer.data);
}

function sha(answer: Answer): string | null {
  const value = data(answer).sha;
  return typeof value === 'string' ? value : null;
}

function refSha(answer: Answer): string | null {
  const object = data(answer).object;
  const value =
    typeof object === 'object' && object !== null ? (object as Record<string, unknown>).sha : undefined;
  return typeof value === 'string' ? value : null;
}

function at(api: ProbeApi): string {
  return api.now() ?? '1970-01-01T00:00:00Z';
}

export interface PrimitiveSetup {
  /** The repository's GraphQL node ID (for `updateRefs`). */
  repositoryNodeId: string;
  defaultBranch: string;
}

/** The commits the probe builds: c1 → c2 → c3 → c4 on the base, and a sibling of c1. */
type ProbeCommits = Record<'base' | 'c1' | 'c2' | 'c3' | 'c4' | 'sibling', string>;

/** A primitive that could not be tried: its setup (or the chain before it) failed. */
function inconclusive(api: ProbeApi, id: PrimitiveId, answer: Answer | null): ProbePrimitive {
  return {
    id,
    classification: 'inconclusive',
    attempts: [
      {
        surface: PRIMITIVE_SURFACES[id],
        classification: 'inconclusive',
        control_status: answer?.status ?? null,
        status: null,
        error_code: answer?.errorCode ?? null,
        read_back: 'unknown',
        reason: 'setup-failed',
        at: at(api),
      },
    ],
  };
}

/**
 * The probe's commits, all on the default branch head's tree, or the answer that failed to give the
 * head, its tree or one of them.
 */
async function makeCommits(
  api: ProbeApi,
  target: ProbeTarget,
  setup: PrimitiveSetup,
): Promise<{ commits: ProbeCommits } | { failed: Answer }> {
  const repo = { owner: target.owner, repo: target.repo };
  const head = await api.rest('GET /repos/{owner}/{repo}/git/ref/{ref}', {
    ...repo,
    ref: `heads/${setup.defaultBranch}`,
  });
  const base = ok(head) ? refSha(head) : null;
  if (base === null) return { failed: head };
  const baseCommit = await api.rest('GET /repos/{owner}/{repo}/git/commits/{commit_sha}', {
    ...repo,
    commit_sha: base,
  });
  const treeValue = ok(baseCommit) ? data(baseCommit).tree : undefined;
  const treeSha = rec(treeValue).sha;
  if (typeof treeSha !== 'string') return { failed: baseCommit };
  const commits: Record<string, string> = { base };
  // Each commit and its parent.
  const chain: [string, string][] = [
    ['c1', 'base'],
    ['c2', 'c1'],
    ['c3', 'c2'],
    ['c4', 'c3'],
    ['sibling', 'base'],
  ];
  for (const [name, parent] of chain) {
    const made = await api.rest(
      'POST /repos/{owner}/{repo}/git/commits',
      { ...repo, message: `writ-probe ${target.runId} ${name}`, tree: treeSha, parents: [commits[parent]] },
      { write: true },
    );
    const oid = ok(made) ? sha(made) : null;
    if (oid === null) return { failed: made };
    commits[name] = oid;
  }
  return { commits: commits as ProbeCommits };
}

/** One probe run on its branch: what the primitives share, and the results they record. */
interface PrimitiveRun {
  api: ProbeApi;
  repo: { owner: string; repo: string };
  /** `heads/writ-probe-<run>`. */
  ref: string;
  ids: readonly PrimitiveId[];
  c: ProbeCommits;
  /** The branch's tip as each primitive leaves it; a primitive whose control fails stops the chain (null). */
  tip: string | null;
  results: ProbePrimitive[];
}

async function readRef(run: PrimitiveRun): Promise<string | null> {
  const answer = await run.api.rest('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...run.repo, ref: run.ref });
  return ok(answer) ? refSha(answer) : null;
}

function verdict(expected: string, staleTarget: string, actual: string | null): ReadBack {
  return actual === expected ? 'unchanged' : actual === staleTarget ? 'applied' : 'unknown';
}

function record(run: PrimitiveRun, id: PrimitiveId, observation: Omit<AttemptObservation, 'surface'>): void {
  const attempt = classifyAttempt({ surface: PRIMITIVE_SURFACES[id], ...observation });
  run.results.push({ id, classification: attempt.classification, attempts: [attempt] });
}

/** create-ref-existing (always first: its control creates the branch the others use, at c1). */
async function probeCreateRef(run: PrimitiveRun): Promise<void> {
  const { api, repo, ref, c } = run;
  const id: PrimitiveId = 'create-ref-existing';
  const create = (sha: string): Promise<Answer> =>
    api.rest('POST /repos/{owner}/{repo}/git/refs', { ...repo, ref: `refs/${ref}`, sha }, { write: true });
  const control = await create(c.c1);
  if (ok(control)) run.tip = c.c1;
  if (!run.ids.includes(id)) return;
  if (!ok(control)) {
    record(run, id, { control, stale: null, readBack: 'unknown', at: at(api), attributable: () => false });
    return;
  }
  const stale = await create(c.c2);
  const staleAt = at(api);
  record(run, id, {
    control,
    stale,
    readBack: verdict(c.c1, c.c2, await readRef(run)),
    at: staleAt,
    attributable: (answer) => answer.status === 422 && answer.errorCode === 'reference_already_exists',
  });
}

/**
 * A ref-moving primitive: the control moves the tip `from` → `to`; the same request replayed against
 * the stale read (`from` is no longer the tip) towards `staleTo` must be refused, the ref unmoved.
 */
async function probeRefMove(
  run: PrimitiveRun,
  id: PrimitiveId,
  move: { from: string; to: string; staleTo: string },
  send: (after: string, before: string) => Promise<Answer>,
  attributable: (answer: Answer) => boolean,
): Promise<void> {
  const { api } = run;
  const { from, to, staleTo } = move;
  if (run.tip !== from) {
    if (run.ids.includes(id)) run.results.push(inconclusive(api, id, null));
    run.tip = null;
    return;
  }
  const control = await send(to, from);
  run.tip = ok(control) ? to : null;
  if (!run.ids.includes(id)) return;
  if (!ok(control)) {
    record(run, id, { control, stale: null, readBack: 'unknown', at: at(api), attributable });
    return;
  }
  const stale = await send(staleTo, from);
  const staleAt = at(api);
  record(run, id, {
    control,
    stale,
    readBack: verdict(to, staleTo, await readRef(run)),
    at: staleAt,
    attributable,
  });
}

/** stale-expected-head-oid: a commit on c3 with expectedHeadOid c3; then another with the stale c3. */
async function probeStaleExpectedHead(run: PrimitiveRun, target: ProbeTarget, branch: string): Promise<void> {
  const { api, c } = run;
  const id: PrimitiveId = 'stale-expected-head-oid';
  if (!run.ids.includes(id)) return;
  if (run.tip !== c.c3) {
    run.results.push(inconclusive(api, id, null));
    return;
  }
  const commit = (n: number): Promise<Answer> =>
    api.graphql(
      COMMIT,
      {
        input: {
          branch: { repositoryNameWithOwner: `${target.owner}/${target.repo}`, branchName: branch },
          expectedHeadOid: c.c3,
          message: { headline: `writ-probe ${target.runId} commit ${n}` },
          fileChanges: {
            additions: [
              { path: `writ-probe/${target.runId}.txt`, contents: Buffer.from(`${n}\n`).toString('base64') },
            ],
          },
        },
      },
      { write: true },
    );
  const control = await commit(1);
  const oid = rec(rec(rec(data(control).data).createCommitOnBranch).commit).oid;
  if (!ok(control) || typeof oid !== 'string') {
    record(run, id, {
      control,
      stale: null,
      readBack: 'unknown',
      at: at(api),
      attributable: staleStateRefusal,
    });
    return;
  }
  const stale = await commit(2);
  const staleAt = at(api);
  const now = await readRef(run);
  const readBack: ReadBack = now === oid ? 'unchanged' : now === null ? 'unknown' : 'applied';
  record(run, id, { control, stale, readBack, at: staleAt, attributable: staleStateRefusal });
}

/** Runs the selected primitives in order, on one probe branch. */
export async function runPrimitives(
  api: ProbeApi,
  target: ProbeTarget,
  setup: PrimitiveSetup,
  ids: readonly PrimitiveId[],
): Promise<ProbePrimitive[]> {
  if (ids.length === 0) return [];
  const made = await makeCommits(api, target, setup);
  if ('failed' in made) return ids.map((id) => inconclusive(api, id, made.failed));
  const branch = probeBranch(target.runId);
  const run: PrimitiveRun = {
    api,
    repo: { owner: target.owner, repo: target.repo },
    ref: `heads/${branch}`,
    ids,
    c: made.commits,
    tip: null,
    results: [],
  };
  const { c, repo, ref } = run;
  await probeCreateRef(run);
  // update-ref-non-fast-forward: c1 → c2 fast-forwards; then c2 → the sibling does not.
  await probeRefMove(
    run,
    'update-ref-non-fast-forward',
    { from: c.c1, to: c.c2, staleTo: c.sibling },
    (after) =>
      api.rest(
        'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
        { ...repo, ref, sha: after, force: false },
        { write: true },
      ),
    (answer) => answer.status === 422 && answer.errorCode === 'not_fast_forward',
  );
  // update-refs-stale-before-oid: c2 → c3 with beforeOid c2; then c3 → c4 (a fast-forward) with the stale c2.
  await probeRefMove(
    run,
    'update-refs-stale-before-oid',
    { from: c.c2, to: c.c3, staleTo: c.c4 },
    (after, before) =>
      api.graphql(
        UPDATE_REFS,
        {
          input: {
            repositoryId: setup.repositoryNodeId,
            refUpdates: [{ name: `refs/${ref}`, beforeOid: before, afterOid: after, force: false }],
          },
        },
        { write: true },
      ),
    staleStateRefusal,
  );
  await probeStaleExpectedHead(run, target, branch);
  const order = new Map(ids.map((id, index) => [id, index]));
  return run.results.sort((x, y) => (order.get(x.id) ?? 0) - (order.get(y.id) ?? 0));
}
