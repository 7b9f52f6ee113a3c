/**
 * `writ tower --github [--out DIR]`: builds the Pages control tower (index.html and tower.json) from the
 * repository's ledger over the API, as the recovery workflow does with `tower-dir`, so a maintainer can
 * preview it locally (open DIR/index.html in a browser). Reads only.
 */
import { resolve } from 'node:path';
import { createLedgerContext } from '@writ/core/ledger/ledger.js';
import { DEFAULT_LEDGER_BRANCH } from '@writ/core/ledger/types.js';
import { readServerUrl } from '@writ/core/stages/context.js';
import { MAX_TIMELINE_COMMITS } from '@writ/core/tower/snapshot.js';
import { buildTowerSite, writeTowerSite } from '@writ/core/tower/site.js';
import { Problems, parseOptionsInto } from '../args.js';
import type { CliEnv, CliIo } from '../cli-io.js';
import { githubFromEnv } from '../github-env.js';
import { TOWER_HELP } from '../help.js';
import type { RepositoryTarget } from '../repository.js';
import { REPOSITORY_OPTIONS, repositoryTarget } from '../repository.js';

const OPTIONS = {
  github: { type: 'boolean' },
  ...REPOSITORY_OPTIONS,
  branch: { type: 'string' },
  out: { type: 'string' },
  commits: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/**
 * The web origin the timeline's permalinks point at: GITHUB_SERVER_URL when set, else the one the API
 * URL belongs to (api.github.com → github.com, api.<x>.ghe.com → <x>.ghe.com, GHES <origin>/api/v3 →
 * <origin>).
 */
export function serverUrlOf(env: CliEnv, target: RepositoryTarget): string {
  if (env.GITHUB_SERVER_URL !== undefined && env.GITHUB_SERVER_URL !== '') {
    return readServerUrl(env.GITHUB_SERVER_URL);
  }
  const api =
    env.GITHUB_API_URL !== undefined && env.GITHUB_API_URL !== '' ? env.GITHUB_API_URL : target.apiUrl;
  const url = new URL(api ?? 'https://api.github.com');
  if (url.hostname === 'api.github.com') return 'https://github.com';
  if (/^api\.[a-z0-9-]+\.ghe\.com$/.test(url.hostname)) return `https://${url.hostname.slice(4)}`;
  // GHES behind another port: a durable link names no port (status-comment/evidence-link.ts).
  return `https://${url.hostname}`;
}

export async function runTowerCommand(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const problems = new Problems('writ tower');
  const { values } = parseOptionsInto(args, OPTIONS, problems);
  if (values.help === true) {
    io.stdout(TOWER_HELP);
    return 0;
  }
  if (values.github !== true) problems.add('writ tower needs --github');
  const target = problems.check(() => repositoryTarget(values, env));
  const commits = values.commits === undefined ? undefined : Number(values.commits);
  if (
    commits !== undefined &&
    (!/^[1-9][0-9]{0,3}$/.test(values.commits ?? '') || commits > MAX_TIMELINE_COMMITS)
  ) {
    problems.add(`invalid --commits: expected an integer from 1 to ${MAX_TIMELINE_COMMITS}`);
  }
  problems.done();
  if (target === undefined) throw new Error('unreachable');
  const github = githubFromEnv(env, target);
  const ledger = createLedgerContext(
    { github },
    { repository: target.repository, branch: values.branch ?? DEFAULT_LEDGER_BRANCH },
  );
  const serverUrl = serverUrlOf(env, target);
  const site = await buildTowerSite(
    { ledger, clock: { now: () => Date.now() } },
    { serverUrl, ...(commits === undefined ? {} : { maxCommits: commits }) },
  );
  const out = resolve(env.PWD ?? process.cwd(), values.out ?? 'writ-tower');
  const paths = writeTowerSite(out, site);
  const { data } = site;
  if (values.json === true) {
    io.stdout(`${JSON.stringify({ result: 'written', files: paths, tower: data }, null, 2)}\n`);
  } else {
    io.stdout(
      [
        `Control tower of ${target.repository} (ledger head ${data.health.ledger_head}):`,
        `  ${data.runs.length} run(s), ${data.active.length} active, ${data.debt.length} verification debt item(s), ${data.failures.length} failure code(s), ${data.timeline.length} commit(s) in the timeline`,
        ...paths.map((path) => `  wrote ${path}`),
        `Open ${paths[0] ?? ''} in a browser (it loads nothing from the network). It has no authority over any run.`,
        '',
      ].join('\n'),
    );
  }
  return 0;
}
