/**
 * Which `fetch` carries a client's requests. `@actions/github` builds its clients with its own `fetch`:
 * the undici it bundles, through @actions/http-client's proxy agent when a proxy applies to
 * GITHUB_API_URL and through undici's default agent when none does. Where no proxy applies to the
 * client's base URL, Writ passes the platform's own HTTP client instead (node:http and node:https behind
 * the part of `fetch` Octokit calls, wire.ts), so no request ever starts the bundled HTTP stack, nor
 * the one inside Node's global `fetch`, which costs about 20 ms to start. Where a proxy applies, the
 * client keeps @actions/github's proxy-aware `fetch` exactly as it comes.
 *
 * "Applies" is decided by @actions/http-client's own rule, the one @actions/github's fetch follows:
 * `https_proxy`/`HTTPS_PROXY` for an https URL, `http_proxy`/`HTTP_PROXY` for http, the
 * `no_proxy`/`NO_PROXY` exceptions (host, `.suffix`, `host:port`, `*`), loopback never proxied, and a
 * proxy URL without a host treated as none (`getAgentDispatcher`'s `proxyUrl && proxyUrl.hostname`).
 */
import { getProxyUrl } from '@actions/http-client/lib/proxy';
import { wireFetch } from './wire.js';

/** The `fetch` Octokit's request layer calls, as `fetch(url, init)`. */
export type Fetch = typeof globalThis.fetch;

/** The proxy @actions/http-client would send a request to `url` through, or undefined for none. */
export function proxyFor(url: string): URL | undefined {
  const proxy = getProxyUrl(new URL(url));
  return proxy !== undefined && proxy.hostname !== '' ? proxy : undefined;
}

/** The platform's HTTP client as the `fetch` Octokit calls (wire.ts: the part of fetch it uses). */
export function platformFetch(): Fetch {
  return wireFetch() as unknown as Fetch;
}

/**
 * The `fetch` to pass as `request.fetch` for a client of `baseUrl`: the platform's where no proxy
 * applies, undefined where one does (the client then keeps @actions/github's proxy-aware `fetch`).
 * `platform` is `platformFetch()` unless a test passes a recording one.
 */
export function directFetch(baseUrl: string, platform?: Fetch): Fetch | undefined {
  return proxyFor(baseUrl) === undefined ? (platform ?? platformFetch()) : undefined;
}
