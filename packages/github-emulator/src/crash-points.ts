/**
 * Crash points: the process that sent a request dies at that exact request, after GitHub applied it
 * ("the write landed, the runner died before it heard back"). Tests and the demo inject a crash this
 * way, from outside the process, so nothing in a stage's shipped code knows about crashes.
 *
 * Pass `onRequest` to the emulator (EmulatorOptions.onRequest), `attach` the emulator's admin, and
 * `arm` a crash point for one process: the first request it matches is applied and its answer dropped
 * (an `apply-then-drop` fault on that one request) while `kill` ends the process (SIGKILL); any request
 * after it, until `disarm`, is dropped before it is applied (a killed process sends nothing more).
 */
import type { Admin } from './admin.js';
import type { RequestLogEntry } from './state.js';

/** Which request a crash point fires at: its log entry and its parsed JSON body. */
export type RequestMatch = (entry: RequestLogEntry, body: unknown) => boolean;

interface Armed {
  match: RequestMatch;
  kill: () => void;
  fired: boolean;
}

export class CrashPoints {
  private admin: Admin | null = null;
  private armed: Armed | null = null;

  /** The emulator's `onRequest`: fires an armed crash point at its request. */
  readonly onRequest = (entry: RequestLogEntry, body: unknown): void => {
    const armed = this.armed;
    if (armed === null) return;
    const admin = this.admin;
    if (admin === null) throw new Error('crash points: arm() before attach()');
    if (armed.fired) {
      admin.addFault({ match: {}, fault: { type: 'drop-before-apply' }, times: 1 });
      return;
    }
    if (!armed.match(entry, body)) return;
    armed.fired = true;
    admin.addFault({ match: {}, fault: { type: 'apply-then-drop' }, times: 1 });
    armed.kill();
  };

  /** The admin of the emulator this `onRequest` was given to (it adds the faults). */
  attach(admin: Admin): void {
    this.admin = admin;
  }

  /** Kills with `kill` at the first request `match` accepts, once that request is applied. */
  arm(match: RequestMatch, kill: () => void): void {
    this.armed = { match, kill, fired: false };
  }

  /** Disarms the crash point; true when it fired. */
  disarm(): boolean {
    const fired = this.armed?.fired === true;
    this.armed = null;
    return fired;
  }
}

/** A request by method and path (its query left out). */
export function requestTo(method: string, path: RegExp): RequestMatch {
  return (entry) => entry.method === method && path.test(entry.path.replace(/\?.*$/, ''));
}
