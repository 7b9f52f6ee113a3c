/**
 * The step observer recovery runs with. `persist/observe.ts` (the persist stage) implements
 * `StepObserver` for every built-in step kind; until it is wired in, `unavailableObserver` answers
 * `unknown` (`observer-unavailable`) for every step, so every claimed step a crashed holder left goes to
 * `needs-reconciliation` for a human: never a guess, never a write.
 */
import type { StepObserver } from '../persist/observation.js';

export const OBSERVER_UNAVAILABLE = 'observer-unavailable';

export const unavailableObserver: StepObserver = () =>
  Promise.resolve({ state: 'unknown', reason: OBSERVER_UNAVAILABLE });
