/**
 * The one outlet rule for what Writ sends to GitHub's REST API: every string of a write's parameters
 * (a title, a body, a description, a label name…) passes through `redactSecrets`, the rule
 * `containsSecret` refuses by, before it leaves. So a token-shaped string or a registered secret is
 * never written to an issue, a comment, a milestone, a label or a pull request, whichever call site
 * sends it. Defence in depth: plan validation already refuses a plan carrying one
 * (plan/text-rules.ts), and the status comment is redacted as it is built. GraphQL requests (ledger
 * and artifact commits, whose writers check their own bytes) are left alone.
 */
import type { Octokit } from '@octokit/core';
import { redactSecrets } from '../redact.js';

/** Request options that are not parameters sent to GitHub. */
const NOT_PARAMETERS = new Set(['method', 'url', 'baseUrl', 'headers', 'request', 'mediaType']);

function redacted(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map(redacted);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redacted(v)]),
    );
  }
  return value;
}

export function redactOutbound(octokit: Octokit): Record<string, never> {
  octokit.hook.before('request', (options) => {
    const method = options.method.toUpperCase();
    if (method === 'GET' || method === 'HEAD' || options.url.endsWith('/graphql')) return;
    const parameters = options as unknown as Record<string, unknown>;
    for (const [name, value] of Object.entries(parameters)) {
      if (!NOT_PARAMETERS.has(name)) parameters[name] = redacted(value);
    }
  });
  return {};
}
