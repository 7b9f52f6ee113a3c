// Preloaded into a stage's bundle (NODE_OPTIONS=--import) by the transport tests: appends to
// $WRIT_TEST_FETCH_LOG one `<method> <url>` line for every request the bundle sends through the
// platform's HTTP client (node:http and node:https, seen on their diagnostics channel), and one
// `fetch <method> <url>` line for every call of the global `fetch`. Requests through any other transport
// (the undici bundled behind a proxy, which opens its own sockets) leave no line.
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const log = (line) => appendFileSync(process.env.WRIT_TEST_FETCH_LOG, `${line}\n`);
// A proxy tunnel's own CONNECT is a node:http request too, logged as `CONNECT <host:port>`.
subscribe('http.client.request.start', ({ request }) =>
  log(
    request.method === 'CONNECT'
      ? `CONNECT ${request.path}`
      : `${request.method} ${request.protocol}//${request.getHeader('host')}${request.path}`,
  ),
);
const platform = globalThis.fetch;
globalThis.fetch = (resource, init) => {
  log(`fetch ${init?.method ?? 'GET'} ${resource instanceof Request ? resource.url : String(resource)}`);
  return platform(resource, init);
};
