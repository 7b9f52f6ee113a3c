/**
 * The one compare-and-set commit primitive (`createCommitOnBranch` with `expectedHeadOid`) and the one
 * rule for "did it happen?", shared by every writer: the ledger's transitions, the artifact publisher,
 * the status comment, and what follows.
 *
 *  - A definite 4xx (or a GraphQL error other than STALE_DATA) is a refusal: nothing happened.
 *  - STALE_DATA: the head was not the expected one when GitHub looked (possibly our own retried request
 *    landing first); the caller re-reads, never overwrites.
 *  - Anything else (a 5xx after the client's retries, a dropped connection, no status at all, an
 *    answer without a commit) may have landed: the caller reads back before anything is retried.
 *
 * It is the one write the client may retry (`CAS_WRITE`, write-retry.ts): a retry that lands on our
 * own first attempt is a STALE_DATA, and every caller reads the branch back (cas-loop.ts).
 */
import type { ErrorCode } from '../errors.js';
import { WritError, errorMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from './client.js';
import { CAS_WRITE } from './write-retry.js';

/** What a failed write tells: `refused` (GitHub said no; nothing happened) or `unknown` (read back). */
export function writeOutcome(error: unknown): 'refused' | 'unknown' {
  const status = httpStatus(error);
  return status !== undefined && status >= 400 && status < 500 ? 'refused' : 'unknown';
}

/** Which branch a commit is for; it names the codes and messages of its failures. */
export type BranchRole = 'ledger' | 'artifact';

const EXHAUSTED: Record<BranchRole, ErrorCode> = {
  ledger: 'ledger-cas-exhausted',
  artifact: 'artifact-cas-exhausted',
};

/** The failure of a compare-and-set loop that lost every bounded attempt, coded for the branch's role. */
export function casExhausted(role: BranchRole, what: string, attempts: number): WritError {
  return new WritError(EXHAUSTED[role], `${what} lost all ${attempts} attempts to concurrent writers`, {
    details: { attempts },
  });
}

export interface BranchCommit {
  /** `owner/repo`. */
  repository: string;
  branch: string;
  expectedHeadOid: string;
  headline: string;
  body: string;
  additions: readonly { path: string; contents: string | Buffer }[];
}

export type BranchCommitOutcome =
  /** The server answered with the new commit (and its clock, from the `Date` header). */
  | { kind: 'committed'; oid: string; serverTime: number | null }
  /** STALE_DATA: re-read and re-evaluate. */
  | { kind: 'stale' }
  /** No usable answer: it may have landed; read back before any retry. */
  | { kind: 'unknown'; reason: string };

const COMMIT_MUTATION = `mutation WritCommitOnBranch($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** One `createCommitOnBranch` with `expectedHeadOid`; a definite refusal throws `github-request-failed`. */
export async function commitOnBranch(
  github: GitHubClient,
  commit: BranchCommit,
  role: BranchRole,
): Promise<BranchCommitOutcome> {
  let response;
  try {
    response = await github.request('POST /graphql', {
      request: CAS_WRITE,
      query: COMMIT_MUTATION,
      variables: {
        input: {
          branch: { repositoryNameWithOwner: commit.repository, branchName: commit.branch },
          expectedHeadOid: commit.expectedHeadOid,
          message: { headline: commit.headline, body: commit.body },
          fileChanges: {
            additions: commit.additions.map((file) => ({
              path: file.path,
              contents: Buffer.from(file.contents).toString('base64'),
            })),
          },
        },
      },
    });
  } catch (error: unknown) {
    if (writeOutcome(error) === 'unknown') {
      const status = httpStatus(error);
      return { kind: 'unknown', reason: status === undefined ? 'no response' : `HTTP ${status}` };
    }
    throw new WritError(
      'github-request-failed',
      `createCommitOnBranch on the ${role} branch was refused with HTTP ${httpStatus(error) ?? '?'}: ${errorMessage(error)}`,
      { cause: error },
    );
  }
  const body = record(response.data);
  const errors = Array.isArray(body.errors) ? (body.errors as { type?: string }[]) : [];
  if (errors.some((error) => error.type === 'STALE_DATA')) return { kind: 'stale' };
  if (errors.length > 0) {
    throw new WritError(
      'github-request-failed',
      `createCommitOnBranch on the ${role} branch returned GraphQL errors (${errors.map((e) => e.type ?? 'error').join(', ')})`,
    );
  }
  const oid = record(record(record(body.data).createCommitOnBranch).commit).oid;
  if (typeof oid !== 'string')
    return { kind: 'unknown', reason: 'createCommitOnBranch answered without a commit' };
  const date = (response.headers as Record<string, unknown>).date;
  const serverTime = typeof date === 'string' ? Date.parse(date) : Number.NaN;
  return { kind: 'committed', oid, serverTime: Number.isFinite(serverTime) ? serverTime : null };
}
