// The client's own cost per request, on loopback: sequential REST GETs and GraphQL queries against a
// server that answers at once, through Writ's client (GitHub's timings and the loopback timings),
// through a bare Octokit with no plugins, and (first, in the same run) through getOctokit with its
// undici fetch and the two plugins as github-script sets them up. What is left over the bare client is
// the plugins' scheduling (Bottleneck's timers) and, for Writ's client, its limits (transport.ts).
// Run: npx tsx scripts/bench/measure-client-overhead.ts [count]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getOctokit } from '@actions/github';
import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck/light.js';
import { createGitHubClient, loopbackTimings } from '@writ/core/github/client.js';

const COUNT = Number(process.argv[2] ?? 40);

export interface Overhead {
  client: string;
  rest_ms: number;
  graphql_ms: number | null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

type Requester = (route: string, params?: Record<string, unknown>) => Promise<unknown>;

async function perRequest(request: Requester): Promise<{ rest: number; graphql: number }> {
  const rest: number[] = [];
  const graphql: number[] = [];
  await request('GET /repos/{owner}/{repo}', { owner: 'o', repo: 'r' }); // warm the connection
  for (let i = 0; i < COUNT; i++) {
    let start = process.hrtime.bigint();
    await request('GET /repos/{owner}/{repo}', { owner: 'o', repo: 'r' });
    rest.push(Number(process.hrtime.bigint() - start) / 1e6);
    start = process.hrtime.bigint();
    await request('POST /graphql', { query: 'query { viewer { login } }' });
    graphql.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { rest: median(rest), graphql: median(graphql) };
}

export async function measureClientOverhead(): Promise<Overhead[]> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(req.url === '/graphql' ? '{"data":{"viewer":{"login":"x"}}}' : '{"id":1}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const token = `ghs_${'t'.repeat(36)}`;
  const rows: Overhead[] = [];
  try {
    const bare = new Octokit({ baseUrl });
    // getOctokit with its own undici fetch and the two plugins, loopback spacing: the toolkit's client
    // with none of Writ's additions.
    const before = getOctokit(
      token,
      {
        baseUrl,
        retry: { retries: 3, doNotRetry: [400, 401, 403, 404, 409, 410, 422, 429, 451] },
        throttle: {
          id: 'bench-before',
          onRateLimit: () => false,
          onSecondaryRateLimit: () => false,
          write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
          notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
        },
      },
      retry,
      throttling,
    );
    const was = await perRequest((route, params) => before.request(route, params));
    rows.push({
      client: 'getOctokit with its undici fetch and the two plugins, loopback spacing',
      rest_ms: Number(was.rest.toFixed(2)),
      graphql_ms: Number(was.graphql.toFixed(2)),
    });
    const loopback = createGitHubClient(token, { baseUrl, ...loopbackTimings(), throttleId: 'bench-l' });
    const github = createGitHubClient(token, { baseUrl, throttleId: 'bench-g' });
    const subjects: [string, Requester, boolean][] = [
      ['bare @octokit/core, no plugins', (route, params) => bare.request(route, params), true],
      ["Writ's client, loopback timings", (route, params) => loopback.request(route, params), true],
      // GitHub's timings pace every write a second apart (github/pacer.ts): reads only, REST here.
      [
        "Writ's client, GitHub timings",
        (route, params) => (route.startsWith('POST') ? Promise.resolve() : github.request(route, params)),
        false,
      ],
    ];
    for (const [name, request, graphql] of subjects) {
      const times = await perRequest(request);
      rows.push({
        client: name,
        rest_ms: Number(times.rest.toFixed(2)),
        graphql_ms: graphql ? Number(times.graphql.toFixed(2)) : null,
      });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return rows;
}

if (process.argv[1]?.endsWith('measure-client-overhead.ts')) {
  const rows = await measureClientOverhead();
  console.log(`client overhead per request on loopback, median of ${COUNT} sequential requests (ms)`);
  console.log('| client | REST GET | GraphQL query |');
  console.log('|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.client} | ${r.rest_ms} | ${r.graphql_ms ?? '– (spaced 1 s)'} |`);
}
