// What the stage bundles resolve `undici` to (scripts/bundle/tsconfig.json's `paths`, which ncc's
// resolver applies; tsc, tsx and jest never see it). @actions/github and @actions/http-client import
// undici at their top level, and it was about 400 KB of every bundle, parsed at every start-up, though
// no Writ request goes through it: the client carries every request on the platform's HTTP client,
// direct or through @actions/http-client's tunnel agent behind a proxy
// (packages/core/src/github/transport.ts, wire.ts). What the two read of undici stays, inert:
// @actions/github builds a ProxyAgent at import when a proxy applies (the default `request` Writ's
// client replaces), and its default fetch is never called. Any use of either fails, naming this file.
'use strict';

function unbundled(what) {
  return new Error(
    `${what}: undici is not in this bundle (scripts/bundle/no-undici.cjs); Writ's requests go through node:http (packages/core/src/github/wire.ts)`,
  );
}

class ProxyAgent {
  dispatch() {
    throw unbundled('ProxyAgent.dispatch');
  }
  close() {
    return Promise.resolve();
  }
  destroy() {
    return Promise.resolve();
  }
}

function fetch() {
  return Promise.reject(unbundled('fetch'));
}

module.exports = { ProxyAgent, fetch };
