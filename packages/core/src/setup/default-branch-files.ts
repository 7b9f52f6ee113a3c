/**
 * The owner's files as the default branch holds them (`.writ/policy.json`, the probe evidence), read
 * through the contents API the same way by persist's gate and by the preview that states the gate.
 */
import { WritError, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { RepositoryName } from '../ledger/paths.js';
import type { ProbeEvidence } from '../probe/evidence.js';
import { evidenceProblems } from '../probe/evidence.js';

/** The server clock of a response (its `Date` header), NaN when absent. */
export function serverDate(headers: unknown): number {
  const date = (headers as Record<string, unknown> | undefined)?.date;
  return typeof date === 'string' ? Date.parse(date) : Number.NaN;
}

/** A file on the default branch through the contents API: its text, or null when it does not exist. */
export async function readDefaultBranchFile(
  github: GitHubClient,
  repository: RepositoryName,
  ref: string,
  path: string,
): Promise<{ text: string | null; date: number | null }> {
  try {
    const response = await github.rest.repos.getContent({ ...repository, path, ref });
    const data = response.data as { type?: string; content?: string; encoding?: string };
    const date = serverDate(response.headers);
    if (Array.isArray(response.data) || data.type !== 'file' || typeof data.content !== 'string') {
      throw new WritError('invalid-input', `${path} on the default branch is not a file`);
    }
    return {
      text: Buffer.from(data.content, 'base64').toString('utf8'),
      date: Number.isFinite(date) ? date : null,
    };
  } catch (error: unknown) {
    if (httpStatus(error) === 404) return { text: null, date: null };
    if (error instanceof WritError) throw error;
    throw new WritError(
      'github-request-failed',
      `reading ${path} from the default branch failed${httpStatus(error) === undefined ? '' : ` with HTTP ${httpStatus(error)}`}; the gate stays closed`,
      { cause: error },
    );
  }
}

/** The probe evidence file's text parsed and checked against its schema; `why` says what is wrong. */
export function readEvidence(text: string | null): {
  evidence: ProbeEvidence | undefined;
  why: string | null;
} {
  if (text === null) return { evidence: undefined, why: null };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { evidence: undefined, why: 'the probe evidence is not JSON' };
  }
  const problems = evidenceProblems(value);
  if (problems.length > 0)
    return { evidence: undefined, why: `the probe evidence is invalid (${problems.join('; ')})` };
  return { evidence: value as ProbeEvidence, why: null };
}
