// Preloaded into a stage's bundle (NODE_OPTIONS=--import) by the transport tests: appends to
// $WRIT_TEST_FETCH_LOG one `<method> <origin><path>` line for every request undici creates (the undici
// of @actions/github that the bundle carries, seen on undici's diagnostics channel, which Node's own
// fetch shares; a proxy tunnel's CONNECT is logged as `CONNECT <origin>`), and one `fetch <method>
// <url>` line for every call of the global `fetch`, which is not Writ's transport.
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const log = (line) => appendFileSync(process.env.WRIT_TEST_FETCH_LOG, `${line}\n`);
subscribe('undici:request:create', ({ request }) =>
  log(
    request.method === 'CONNECT'
      ? `CONNECT ${request.origin}`
      : `${request.method} ${request.origin}${request.path}`,
  ),
);
const platform = globalThis.fetch;
globalThis.fetch = (resource, init) => {
  log(`fetch ${init?.method ?? 'GET'} ${resource instanceof Request ? resource.url : String(resource)}`);
  return platform(resource, init);
};
