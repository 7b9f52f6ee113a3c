/**
 * The probe's one classifier. `positive` only when the stale write was refused with an attributable
 * stale-state or uniqueness conflict *and* a read-back shows the resource unchanged; an applied stale
 * write is `negative`, and so is a refusal whose read-back shows it applied (GitHub has been seen
 * answering 412 yet writing); anything that proves nothing either way (the control write failed,
 * 401/403, a validation 422, a rate limit, 5xx, no response, an unreadable read-back) is
 * `inconclusive`, which never opens anything.
 */
import type { Answer } from './api.js';
import type { Classification, ProbeAttempt, ReadBack } from './evidence.js';

export interface AttemptObservation {
  surface: string;
  /** The fresh control write (null when the surface has none); it must succeed. */
  control: Answer | null;
  /** A write that had to succeed before the stale replay (the external edit); null when none. */
  setup?: Answer | null;
  /** The stale write; null when it was never sent (the control or the setup failed). */
  stale: Answer | null;
  readBack: ReadBack;
  /** Server time of the stale write's answer (else the last answer seen). */
  at: string;
  /** Whether a refusal is the conflict this surface is expected to report (412, STALE_DATA, …). */
  attributable(answer: Answer): boolean;
}

/** The refusals every REST precondition and GraphQL compare-and-set can attribute to stale state. */
export function staleStateRefusal(answer: Answer): boolean {
  return answer.status === 412 || answer.status === 409 || answer.errorCode === 'stale_data';
}

/** A uniqueness conflict: 422 `already_exists` (a duplicate title, marker or ref). */
export function uniquenessRefusal(answer: Answer): boolean {
  return answer.status === 422 && answer.errorCode === 'already_exists';
}

function succeeded(answer: Answer): boolean {
  return answer.status !== null && answer.status >= 200 && answer.status < 300 && answer.errorCode === null;
}

function outcome(
  observation: AttemptObservation,
  classification: Classification,
  reason: string,
): ProbeAttempt {
  const stale = observation.stale;
  return {
    surface: observation.surface,
    classification,
    control_status: observation.control?.status ?? null,
    status: stale?.status ?? null,
    error_code: stale?.errorCode ?? null,
    read_back: observation.readBack,
    reason,
    at: observation.at,
  };
}

export function classifyAttempt(observation: AttemptObservation): ProbeAttempt {
  const { control, stale, readBack } = observation;
  if (control !== null && !succeeded(control)) return outcome(observation, 'inconclusive', 'control-failed');
  if (observation.setup != null && !succeeded(observation.setup)) {
    return outcome(observation, 'inconclusive', 'external-write-failed');
  }
  if (stale === null) return outcome(observation, 'inconclusive', 'not-sent');
  if (stale.status === null) return outcome(observation, 'inconclusive', 'transport');
  if (stale.rateLimited) return outcome(observation, 'inconclusive', 'rate-limited');
  if (stale.status === 401 || stale.status === 403 || stale.errorCode === 'forbidden') {
    return outcome(observation, 'inconclusive', 'forbidden');
  }
  if (stale.status >= 500) return outcome(observation, 'inconclusive', 'server-error');
  if (readBack === 'applied' || readBack === 'duplicate') {
    if (succeeded(stale))
      return outcome(observation, 'negative', readBack === 'applied' ? 'applied' : 'duplicate-created');
    if (stale.status === 412) return outcome(observation, 'negative', '412-applied');
    return outcome(observation, 'negative', 'refused-yet-applied');
  }
  if (readBack === 'unknown') return outcome(observation, 'inconclusive', 'read-back-failed');
  // The resource reads back unchanged.
  if (succeeded(stale)) return outcome(observation, 'inconclusive', 'accepted-unchanged');
  if (observation.attributable(stale)) return outcome(observation, 'positive', 'refused-unchanged');
  if (stale.status === 422 || stale.status === 400) return outcome(observation, 'inconclusive', 'validation');
  return outcome(observation, 'inconclusive', 'refused-unattributed');
}
