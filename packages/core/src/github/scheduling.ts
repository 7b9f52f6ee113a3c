/**
 * Bottleneck (under both plugin-retry and plugin-throttling) hands every job through its local
 * datastore, which yields to the event loop before each step with `setTimeout(resolve, 0)`, then
 * dispatches the job with `setTimeout(run, wait)`: at least a millisecond each in Node even when
 * `wait` is 0, several a job, and a request passes through three or four limiters (retry's own,
 * throttling's retry limiter, the write queue for GraphQL and writes, the global queue). Measured by
 * scripts/measure-client-overhead.ts on loopback: 15–20 ms a request against about 1 ms for a bare
 * client; with the prompt yields, 6–8 ms; with the prompt dispatch as well, under 1 ms.
 *
 * The yield is there so a local limiter behaves like a clustered one (an await between steps), not to
 * wait: spacing (`minTime`), concurrency and reservoirs are computed from timestamps into the `wait`
 * each job is dispatched after. So the yield is made with `setImmediate`, which still lets I/O and
 * other tasks run between steps, without the 1 ms floor, and a job whose `wait` is 0 is dispatched the
 * same way; a job owed any wait keeps the limiter's own timer, so every limit is kept as it was.
 * Bottleneck 2.19.5 is its last release; the datastore class is reached through an instance because
 * the package does not export it, and a changed shape leaves the library as it was.
 */
import Bottleneck from 'bottleneck/light.js';

interface LocalDatastore {
  yieldLoop(this: { Promise: PromiseConstructor }, t?: number): Promise<void>;
}

/** What `_run` touches of a queued job. */
interface ScheduledJob {
  options: { id: string; expiration?: number | null };
  doRun(): void;
  doExecute(
    limiter: unknown,
    clearGlobalState: () => boolean,
    run: (wait: number) => unknown,
    free: unknown,
  ): unknown;
  doExpire(clearGlobalState: () => boolean, run: (wait: number) => unknown, free: unknown): unknown;
}

/** The limiter's dispatch of a job it has registered, and what that reads of the limiter. */
interface Dispatching {
  _limiter: unknown;
  _scheduled: Record<string, { timeout: unknown; expiration: unknown; job: ScheduledJob }>;
  _clearGlobalState(index: string): boolean;
  _free(index: string, job: ScheduledJob, ...rest: unknown[]): unknown;
  _run: (this: Dispatching, index: string, job: ScheduledJob, wait: number) => unknown;
  jobStatus(id: string): string | null;
}

const patched = new WeakSet<object>();

/** The zero-length yield through setImmediate; a real wait keeps its timer. */
function promptYields(datastore: Partial<LocalDatastore> & object): void {
  const original = datastore.yieldLoop as LocalDatastore['yieldLoop'];
  datastore.yieldLoop = function yieldLoop(this: { Promise: PromiseConstructor }, t = 0) {
    if (t > 0) return original.call(this, t);
    return new this.Promise<void>((resolve) => setImmediate(resolve));
  };
}

/**
 * A job due now (`wait` 0, no spacing owed) dispatched through setImmediate; a job that must wait keeps
 * the limiter's own timer. The body is `_run`'s own (Bottleneck 2.19.5), with the timer swapped. The one
 * caller that cancels a dispatch, `stop({ dropWaitingJobs: true })` (which neither plugin calls), clears
 * it with `clearTimeout`, which cannot clear an immediate, so a dropped job is recognised by its status,
 * which dropping removes, and left alone.
 */
function promptDispatch(limiter: Dispatching): void {
  const original = limiter._run;
  limiter._run = function run(index, job, wait) {
    if (wait > 0) return original.call(this, index, job, wait);
    job.doRun();
    const clearGlobalState = this._clearGlobalState.bind(this, index);
    const again = this._run.bind(this, index, job);
    const free = this._free.bind(this, index, job);
    return (this._scheduled[index] = {
      timeout: setImmediate(() => {
        if (this.jobStatus(job.options.id) === null) return;
        void job.doExecute(this._limiter, clearGlobalState, again, free);
      }),
      expiration:
        job.options.expiration == null
          ? undefined
          : setTimeout(() => job.doExpire(clearGlobalState, again, free), job.options.expiration),
      job,
    });
  };
}

/**
 * Makes the local yields and the due dispatches of `Limiter` (Bottleneck, unless a test passes another)
 * prompt, once per process. Returns whether it could: false, and the library left as it was, if its
 * shape has changed.
 */
export function promptScheduling(Limiter: new () => unknown = Bottleneck): boolean {
  const limiter = Limiter.prototype as Partial<Dispatching> & object;
  if (patched.has(limiter)) return true;
  const store = (new Limiter() as { _store?: unknown })._store;
  const datastore = (typeof store === 'object' && store !== null ? Object.getPrototypeOf(store) : null) as
    (Partial<LocalDatastore> & object) | null;
  if (datastore === null || typeof datastore.yieldLoop !== 'function') return false;
  if (
    typeof limiter._run !== 'function' ||
    limiter._run.length !== 3 ||
    typeof limiter._clearGlobalState !== 'function' ||
    typeof limiter._free !== 'function' ||
    typeof limiter.jobStatus !== 'function'
  )
    return false;
  promptYields(datastore);
  promptDispatch(limiter as Dispatching);
  patched.add(limiter);
  return true;
}
