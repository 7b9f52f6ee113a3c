/**
 * Ledger commit messages carry structured trailers naming the transition, run, epoch and a transition
 * ID. The provenance scan reads consumed run and comment IDs from them across the whole history, and a
 * writer whose response was lost finds its own commit again by its transition ID.
 */
import { isValidRunId } from '../plan/run-id.js';
import { parseRepository } from './paths.js';

export const TRANSITIONS = [
  'bootstrap',
  'propose',
  'consume',
  'claim',
  'checkpoint',
  'takeover',
  'release',
  'complete',
  'reconcile',
  'status',
  'artifact',
  // persist: several steps claimed, or checkpointed (and the run finished), in one commit.
  'claim-steps',
  'checkpoint-steps',
  'cancel',
  // The recovery sweep's freeze (ledger/freeze.ts): terminal, no transition follows it.
  'freeze',
] as const;
export type TransitionName = (typeof TRANSITIONS)[number];

export interface TransitionTrailers {
  transition: TransitionName;
  runId: string | null;
  /** The repository the run belongs to (`owner/repo`, its run file's directory); with the run only. */
  repository: string | null;
  epoch: number;
  transitionId: string;
  commentId: number | null;
}

function isRepository(value: string): boolean {
  try {
    parseRepository(value);
    return true;
  } catch {
    return false;
  }
}

export function formatMessage(trailers: TransitionTrailers): { headline: string; body: string } {
  const run = trailers.runId === null ? '' : ` ${trailers.runId}`;
  const lines = [
    `Writ-Transition: ${trailers.transition}`,
    ...(trailers.runId === null ? [] : [`Writ-Run: ${trailers.runId}`]),
    ...(trailers.repository === null ? [] : [`Writ-Repository: ${trailers.repository}`]),
    `Writ-Epoch: ${trailers.epoch}`,
    ...(trailers.commentId === null ? [] : [`Writ-Comment: ${trailers.commentId}`]),
    `Writ-Transition-Id: ${trailers.transitionId}`,
  ];
  return {
    headline: `writ ledger: ${trailers.transition}${run} (epoch ${trailers.epoch})`,
    body: lines.join('\n'),
  };
}

/** The full commit message as git stores it (headline, blank line, body). */
export function fullMessage(message: { headline: string; body: string }): string {
  return `${message.headline}\n\n${message.body}`;
}

/** Parses the trailers of a ledger commit message; null when it is not a well-formed Writ message. */
export function parseTrailers(message: string): TransitionTrailers | null {
  const values = new Map<string, string>();
  for (const line of message.split('\n')) {
    const match = /^(Writ-[A-Za-z-]+): (\S+)$/.exec(line.trimEnd());
    if (match?.[1] !== undefined && match[2] !== undefined) {
      if (values.has(match[1])) return null;
      values.set(match[1], match[2]);
    }
  }
  const transition = values.get('Writ-Transition');
  const epoch = Number(values.get('Writ-Epoch'));
  const transitionId = values.get('Writ-Transition-Id');
  const runId = values.get('Writ-Run') ?? null;
  const repository = values.get('Writ-Repository') ?? null;
  const comment = values.get('Writ-Comment');
  if (
    transition === undefined ||
    !(TRANSITIONS as readonly string[]).includes(transition) ||
    !Number.isSafeInteger(epoch) ||
    epoch < 0 ||
    transitionId === undefined ||
    (runId !== null && !isValidRunId(runId)) ||
    (repository !== null && (runId === null || !isRepository(repository))) ||
    (comment !== undefined && !/^[1-9][0-9]{0,15}$/.test(comment))
  ) {
    return null;
  }
  return {
    transition: transition as TransitionName,
    runId,
    repository,
    epoch,
    transitionId,
    commentId: comment === undefined ? null : Number(comment),
  };
}
