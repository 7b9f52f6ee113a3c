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

/** Runs the selected primitives in order, on one probe branch. */
export async function runPrimitives(
  api: ProbeApi,
  target: ProbeTarget,
  setup: PrimitiveSetup,
  ids: readonly PrimitiveId[],
): Promise<ProbePrimitive[]> {
  if (ids.length === 0) return [];
  const repo = { owner: target.owner, repo: target.repo };
  const branch = probeBranch(target.runId);
  const ref = `heads/${branch}`;
  const inconclusive = (id: PrimitiveId, answer: Answer | null): ProbePrimitive => ({
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
  });

  const head = await api.rest('GET /repos/{owner}/{repo}/git/ref/{ref}', {
    ...repo,
    ref: `heads/${setup.defaultBranch}`,
  });
  const base = ok(head) ? refSha(head) : null;
  const baseCommit =
    base === null
      ? null
      : await api.rest('GET /repos/{owner}/{repo}/git/commits/{commit_sha}', { ...repo, commit_sha: base });
  const treeValue = baseCommit !== null && ok(baseCommit) ? data(baseCommit).tree : undefined;
  const treeSha =
    typeof treeValue === 'object' &&
    treeValue !== null &&
    typeof (treeValue as { sha?: unknown }).sha === 'string'
      ? (treeValue as { sha: string }).sha
      : null;
  const commits: Record<string, string> = {};
  let failed: Answer | null = base === null ? head : treeSha === null ? baseCommit : null;
  // Each commit and its parent: c1 → c2 → c3 → c4 on the base, and a sibling of c1.
  const chain: [string, string][] = [
    ['c1', 'base'],
    ['c2', 'c1'],
    ['c3', 'c2'],
    ['c4', 'c3'],
    ['sibling', 'base'],
  ];
  if (base !== null) commits.base = base;
  for (const [name, parent] of chain) {
    if (failed !== null || treeSha === null) break;
    const made = await api.rest(
      'POST /repos/{owner}/{repo}/git/commits',
      { ...repo, message: `writ-probe ${target.runId} ${name}`, tree: treeSha, parents: [commits[parent]] },
      { write: true },
    );
    const oid = ok(made) ? sha(made) : null;
    if (oid === null) failed = made;
    else commits[name] = oid;
  }
  if (failed !== null) return ids.map((id) => inconclusive(id, failed));
  const c = commits as Record<'c1' | 'c2' | 'c3' | 'c4' | 'sibling', string>;

  const readRef = async (): Promise<string | null> => {
    const answer = await api.rest('GET /repos/{owner}/{repo}/git/ref/{ref}', { ...repo, ref });
    return ok(answer) ? refSha(answer) : null;
  };
  const verdict = (expected: string, staleTarget: string, actual: string | null): ReadBack =>
    actual === expected ? 'unchanged' : actual === staleTarget ? 'applied' : 'unknown';
  const results: ProbePrimitive[] = [];
  const record = (id: PrimitiveId, observation: Omit<AttemptObservation, 'surface'>): void => {
    const attempt = classifyAttempt({ surface: PRIMITIVE_SURFACES[id], ...observation });
    results.push({ id, classification: attempt.classification, attempts: [attempt] });
  };
  // The branch's tip as each primitive leaves it; a primitive whose control fails stops the chain.
  let tip: string | null = null;

  // create-ref-existing (always first: it creates the branch the others use).
  {
    const control = await api.rest(
      'POST /repos/{owner}/{repo}/git/refs',
      { ...repo, ref: `refs/${ref}`, sha: c.c1 },
      { write: true },
    );
    if (ok(control)) tip = c.c1;
    if (ids.includes('create-ref-existing')) {
      if (!ok(control))
        record('create-ref-existing', {
          control,
          stale: null,
          readBack: 'unknown',
          at: at(api),
          attributable: () => false,
        });
      else {
        const stale = await api.rest(
          'POST /repos/{owner}/{repo}/git/refs',
          { ...repo, ref: `refs/${ref}`, sha: c.c2 },
          { write: true },
        );
        const staleAt = at(api);
        record('create-ref-existing', {
          control,
          stale,
          readBack: verdict(c.c1, c.c2, await readRef()),
          at: staleAt,
          attributable: (answer) => answer.status === 422 && answer.errorCode === 'reference_already_exists',
        });
      }
    }
  }

  const step = async (
    id: PrimitiveId,
    from: string,
    to: string,
    staleTo: string,
    send: (after: string, before: string) => Promise<Answer>,
    attributable: (answer: Answer) => boolean,
  ): Promise<void> => {
    if (tip !== from) {
      if (ids.includes(id)) results.push(inconclusive(id, null));
      tip = null;
      return;
    }
    const control = await send(to, from);
    tip = ok(control) ? to : null;
    if (!ids.includes(id)) return;
    if (!ok(control)) {
      record(id, { control, stale: null, readBack: 'unknown', at: at(api), attributable });
      return;
    }
    // Replayed against the stale read: `from` is no longer the tip.
    const stale = await send(staleTo, from);
    const staleAt = at(api);
    record(id, {
      control,
      stale,
      readBack: verdict(to, staleTo, await readRef()),
      at: staleAt,
      attributable,
    });
  };

  // update-ref-non-fast-forward: c1 → c2 fast-forwards; then c2 → the sibling does not.
  await step(
    'update-ref-non-fast-forward',
    c.c1,
    c.c2,
    c.sibling,
    (after) =>
      api.rest(
        'PATCH /repos/{owner}/{repo}/git/refs/{ref}',
        { ...repo, ref, sha: after, force: false },
        { write: true },
      ),
    (answer) => answer.status === 422 && answer.errorCode === 'not_fast_forward',
  );

  // update-refs-stale-before-oid: c2 → c3 with beforeOid c2; then c3 → c4 (a fast-forward) with the stale c2.
  await step(
    'update-refs-stale-before-oid',
    c.c2,
    c.c3,
    c.c4,
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

  // stale-expected-head-oid: a commit on c3 with expectedHeadOid c3; then another with the stale c3.
  {
    const id: PrimitiveId = 'stale-expected-head-oid';
    const commit = (n: number) =>
      api.graphql(
        COMMIT,
        {
          input: {
            branch: { repositoryNameWithOwner: `${target.owner}/${target.repo}`, branchName: branch },
            expectedHeadOid: c.c3,
            message: { headline: `writ-probe ${target.runId} commit ${n}` },
            fileChanges: {
              additions: [
                {
                  path: `writ-probe/${target.runId}.txt`,
                  contents: Buffer.from(`${n}\n`).toString('base64'),
                },
              ],
            },
          },
        },
        { write: true },
      );
    if (ids.includes(id)) {
      if (tip !== c.c3) results.push(inconclusive(id, null));
      else {
        const control = await commit(1);
        const oid = rec(rec(rec(data(control).data).createCommitOnBranch).commit).oid;
        if (!ok(control) || typeof oid !== 'string') {
          record(id, {
            control,
            stale: null,
            readBack: 'unknown',
            at: at(api),
            attributable: staleStateRefusal,
          });
        } else {
          const stale = await commit(2);
          const staleAt = at(api);
          const now = await readRef();
          const readBack: ReadBack = now === oid ? 'unchanged' : now === null ? 'unknown' : 'applied';
          record(id, { control, stale, readBack, at: staleAt, attributable: staleStateRefusal });
        }
      }
    }
  }
  const order = new Map(ids.map((id, index) => [id, index]));
  return results.sort((x, y) => (order.get(x.id) ?? 0) - (order.get(y.id) ?? 0));
}
