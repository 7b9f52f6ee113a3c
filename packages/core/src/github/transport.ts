/**
 * Which way a client's requests go. Always through the platform's HTTP client (node:http and
 * node:https behind the part of `fetch` Octokit calls, wire.ts): never through the undici that
 * @actions/github and @actions/http-client bundle (the stage bundles leave it out,
 * scripts/bundle/no-undici.cjs), nor the one inside Node's global `fetch`, which costs about 20 ms to
 * start. Where a proxy applies to a request's URL, it goes through @actions/http-client's own agent for
 * that proxy, the one its HttpClient uses (a CONNECT tunnel); where none does, direct.
 *
 * "Applies" is decided by @actions/http-client's own rule, the one @actions/github's fetch follows:
 * `https_proxy`/`HTTPS_PROXY` for an https URL, `http_proxy`/`HTTP_PROXY` for http, the
 * `no_proxy`/`NO_PROXY` exceptions (host, `.suffix`, `host:port`, `*`), loopback never proxied, and a
 * proxy URL without a host treated as none (`getAgentDispatcher`'s `proxyUrl && proxyUrl.hostname`).
 */
import type { Agent } from 'node:http';
import { HttpClient } from '@actions/http-client';
import { getProxyUrl } from '@actions/http-client/lib/proxy';
import { wireFetch } from './wire.js';

/** The `fetch` Octokit's request layer calls, as `fetch(url, init)`. */
export type Fetch = typeof globalThis.fetch;

/** The proxy @actions/http-client would send a request to `url` through, or undefined for none. */
export function proxyFor(url: string): URL | undefined {
  const proxy = getProxyUrl(new URL(url));
  return proxy !== undefined && proxy.hostname !== '' ? proxy : undefined;
}

/**
 * The agent for each request: none (Node's global agent) where no proxy applies to its URL, and
 * where one does, @actions/http-client's own for that proxy (a `tunnel` agent: CONNECT through an
 * http or https proxy, credentials from the proxy URL), one per scheme and proxy.
 */
export function proxyAgents(): (url: URL) => Agent | undefined {
  const agents = new Map<string, Agent>();
  return (url) => {
    const proxy = proxyFor(url.href);
    if (proxy === undefined) return undefined;
    const key = `${url.protocol} ${proxy.href}`;
    let agent = agents.get(key);
    if (agent === undefined) {
      agent = new HttpClient('writ').getAgent(url.href);
      agents.set(key, agent);
    }
    return agent;
  };
}

/**
 * The `fetch` a client's requests go through (`request.fetch`): the platform's HTTP client (wire.ts),
 * direct or through the proxy that applies. `transport` replaces it where a test records the calls.
 */
export function clientFetch(transport?: Fetch): Fetch {
  return transport ?? (wireFetch({ agentFor: proxyAgents() }) as unknown as Fetch);
}
