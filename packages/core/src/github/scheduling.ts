/**
 * Bottleneck (under both plugin-retry and plugin-throttling) hands every job through its local
 * datastore, which yields to the event loop before each step with `setTimeout(resolve, 0)`: at least a
 * millisecond each in Node, several a job, and a request passes through three or four limiters
 * (retry's own, throttling's retry limiter, the write queue for GraphQL and writes, the global queue).
 * Measured by scripts/measure-client-overhead.ts on loopback, 15–20 ms a request against under 1 ms
 * for a bare client; with this change, 6–8 ms. What is left is each job's dispatch timer
 * (`setTimeout(run, wait)`, a millisecond even when `wait` is 0), which carries the spacing and is left
 * alone.
 *
 * The yield is there so a local limiter behaves like a clustered one (an await between steps), not to
 * wait: spacing (`minTime`), concurrency and reservoirs are computed from timestamps and applied by the
 * limiter's own timer for the job, which this leaves alone. So the yield is made with `setImmediate`,
 * which still lets I/O and other tasks run between steps, without the 1 ms floor. Bottleneck 2.19.5 is
 * its last release; the datastore class is reached through an instance because the package does not
 * export it, and a changed shape leaves the library as it was.
 */
import Bottleneck from 'bottleneck/light.js';

interface LocalDatastore {
  yieldLoop(this: { Promise: PromiseConstructor }, t?: number): Promise<void>;
}

const patched = new WeakSet<object>();

/**
 * Makes the local yields of `Limiter` (Bottleneck, unless a test passes another) prompt, once per
 * process. Returns whether it could: false, and the library left as it was, if its shape has changed.
 */
export function promptScheduling(Limiter: new () => unknown = Bottleneck): boolean {
  const store = (new Limiter() as { _store?: unknown })._store;
  const datastore = (typeof store === 'object' && store !== null ? Object.getPrototypeOf(store) : null) as
    (Partial<LocalDatastore> & object) | null;
  if (datastore === null || typeof datastore.yieldLoop !== 'function') return false;
  if (patched.has(datastore)) return true;
  const original = datastore.yieldLoop;
  datastore.yieldLoop = function yieldLoop(this: { Promise: PromiseConstructor }, t = 0) {
    // A real wait keeps its timer; only the zero-length yield goes through setImmediate.
    if (t > 0) return original.call(this, t);
    return new this.Promise<void>((resolve) => setImmediate(resolve));
  };
  patched.add(datastore);
  return true;
}
