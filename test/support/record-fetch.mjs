// Preloaded into a stage's bundle (NODE_OPTIONS=--import) by the transport tests: wraps the platform's
// `fetch` so every request a bundle sends through it is appended to $WRIT_TEST_FETCH_LOG, one
// `<method> <url>` line each. Requests through any other transport (undici bundled behind a proxy)
// leave no line.
import { appendFileSync } from 'node:fs';

const platform = globalThis.fetch;
globalThis.fetch = (resource, init) => {
  const url = resource instanceof Request ? resource.url : String(resource);
  appendFileSync(process.env.WRIT_TEST_FETCH_LOG, `${init?.method ?? 'GET'} ${url}\n`);
  return platform(resource, init);
};
