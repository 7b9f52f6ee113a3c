// Paired cold-start timing of Writ's network stages beside actions/github-script's committed bundle
// (../shared/peers/github-script, see its README) and bare node, in one run, in a clean runner-like
// environment (PATH and the runner's variables only):
//   load           wall time of a run that makes no request (Writ: refused on its first input check
//                  after loading; github-script: `return 1`; bare node: `node -e 0`);
//   first request  from spawn to the first request arriving at a loopback server (Writ: a real run
//                  of the stage; github-script: `github.rest.repos.get(context.repo)`; bare node: one
//                  `fetch`), which answers 401 so each run ends there.
// The subjects run interleaved, round-robin, so drift on a shared machine falls on all of them alike;
// each figure is a median, each ratio that median over bare node's. Run:
//   npx tsx scripts/bench/measure-startup.ts [runs] [--json] [--compare <dist dir>] [--stages a,b] [--best]
// --best reports each subject's fastest run instead of its median: on a machine shared with other work
// the noise only ever adds time, so the minimum is the steadier figure of what a subject costs.
// --compare pairs each stage with its bundle in another build (a before/after in one run).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT, bundlePath } from '../../packages/cli/src/run-stage.js';

export const PEER = resolve(REPO_ROOT, '../shared/peers/github-script');
const MAX_RUNS = 41;

interface Subject {
  name: string;
  args: string[];
  /** Environment of the load run and of the first-request run (`url` is the loopback server). */
  load: () => Record<string, string>;
  request: (url: string) => Record<string, string>;
}

export interface StartupRow {
  subject: string;
  load_ms: number;
  first_request_ms: number | null;
  load_ratio: number;
  first_request_ratio: number | null;
}

const work = mkdtempSync(join(tmpdir(), 'writ-startup-'));

function runnerEnv(
  name: string,
  eventName = 'workflow_dispatch',
  event: unknown = {},
): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_EVENT_NAME: eventName,
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_RUN_ID: '7',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKSPACE: REPO_ROOT,
    RUNNER_TEMP: work,
  };
  for (const file of ['GITHUB_OUTPUT', 'GITHUB_STATE', 'GITHUB_STEP_SUMMARY']) {
    env[file] = join(work, `${name}-${file}`);
    writeFileSync(env[file], '');
  }
  env.GITHUB_EVENT_PATH = join(work, `${name}-event.json`);
  writeFileSync(env.GITHUB_EVENT_PATH, JSON.stringify(event));
  return env;
}

/** The runner's INPUT_* variables: every action.yml default, then `inputs`. */
function inputEnv(actionYml: string, inputs: Record<string, string>): Record<string, string> {
  const action = parse(readFileSync(actionYml, 'utf8')) as { inputs?: Record<string, { default?: string }> };
  const env: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs ?? {}))
    env[`INPUT_${name.toUpperCase()}`] = /\$\{\{/.test(input.default ?? '') ? '' : (input.default ?? '');
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return env;
}

const TOKEN = `ghs_${'b'.repeat(36)}`;
const LEDGER = { token: TOKEN, 'ledger-app-slug': 'writ', 'ledger-app-id': '1', 'dry-run': 'false' };
const PLAN = join(REPO_ROOT, 'examples/release-plan.json');
const content = join(work, 'page.md');
writeFileSync(content, 'page\n');
/** Inputs with which each network stage goes to the network at once. */
const STAGE_INPUTS: Record<string, { inputs: Record<string, string>; eventName?: string; event?: unknown }> =
  {
    'consume-approval': {
      inputs: { ...LEDGER, 'plan-file': PLAN },
      eventName: 'issue_comment',
      event: { action: 'created', comment: { id: 1 }, issue: { number: 1 } },
    },
    'claim-checkpoint': {
      inputs: { ...LEDGER, operation: 'claim', 'run-id': 'run-0123456789abcdef', epoch: '1', 'step-id': 's' },
    },
    'publish-artifact': {
      inputs: {
        ...LEDGER,
        'run-id': 'run-0123456789abcdef',
        epoch: '1',
        'plan-file': PLAN,
        path: 'docs/x.md',
        'content-file': content,
      },
    },
    persist: { inputs: { ...LEDGER, 'run-id': 'run-0123456789abcdef', epoch: '1', 'plan-file': PLAN } },
    preview: { inputs: { ...LEDGER, 'plan-file': PLAN } },
  };

/** A stage's bundle as a subject; `dir` names another build of it (e.g. main's dist/) to pair with. */
function writSubject(stage: string, dir?: string): Subject {
  const spec = STAGE_INPUTS[stage] ?? { inputs: {} };
  const yml = join(REPO_ROOT, 'actions', stage, 'action.yml');
  return {
    name: dir === undefined ? `writ ${stage}` : `writ ${stage} (${dir})`,
    args: [dir === undefined ? bundlePath(stage) : join(resolve(dir), stage, 'index.js')],
    // No inputs at all: the bundle loads, then refuses its first required input.
    load: () => ({ ...runnerEnv(stage) }),
    request: (url) => ({
      ...runnerEnv(stage, spec.eventName, spec.event),
      ...inputEnv(yml, spec.inputs),
      GITHUB_API_URL: url,
    }),
  };
}

function peerSubject(): Subject {
  const yml = join(PEER, 'action.yml');
  const common = { 'github-token': TOKEN, 'result-encoding': 'json', retries: '0', debug: 'false' };
  return {
    name: 'github-script (committed bundle)',
    args: [join(PEER, 'index.js')],
    load: () => ({ ...runnerEnv('peer'), ...inputEnv(yml, { ...common, script: 'return 1' }) }),
    request: (url) => ({
      ...runnerEnv('peer'),
      ...inputEnv(yml, { ...common, script: 'await github.rest.repos.get(context.repo)' }),
      GITHUB_API_URL: url,
    }),
  };
}

const BARE: Subject = {
  name: 'bare node',
  args: [],
  load: () => ({ PATH: process.env.PATH ?? '' }),
  request: (url) => ({ PATH: process.env.PATH ?? '', BENCH_URL: url }),
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export async function measureStartup(
  runs: number,
  stages: string[],
  compareDir?: string,
  statistic: 'median' | 'best' = 'median',
): Promise<StartupRow[]> {
  const pick = statistic === 'best' ? (values: number[]) => Math.min(...values) : median;
  const count = Math.max(1, Math.min(MAX_RUNS, runs));
  let firstArrival: bigint | null = null;
  const server = createServer((req, res) => {
    firstArrival ??= process.hrtime.bigint();
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const subjects = [
    BARE,
    ...(existsSync(join(PEER, 'index.js')) ? [peerSubject()] : []),
    ...stages.flatMap((stage) =>
      compareDir === undefined ? [writSubject(stage)] : [writSubject(stage, compareDir), writSubject(stage)],
    ),
  ];
  const run = async (
    args: string[],
    env: Record<string, string>,
  ): Promise<{ total: number; first: number | null }> => {
    firstArrival = null;
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: 'ignore', cwd: REPO_ROOT });
    await new Promise((done) => child.on('close', done));
    const end = process.hrtime.bigint();
    const arrival = firstArrival as bigint | null;
    return {
      total: Number(end - start) / 1e6,
      first: arrival === null ? null : Number(arrival - start) / 1e6,
    };
  };
  const bareRequest = ['-e', 'fetch(process.env.BENCH_URL).then((r) => r.text()).catch(() => undefined)'];
  const loads = new Map<string, number[]>();
  const firsts = new Map<string, (number | null)[]>();
  try {
    // One warm-up round fills the file cache; then `count` rounds, each subject in turn.
    for (let round = -1; round < count; round++) {
      for (const subject of subjects) {
        const load = await run(subject.args.length ? subject.args : ['-e', '0'], subject.load());
        const first = await run(subject.args.length ? subject.args : bareRequest, subject.request(url));
        if (round < 0) continue;
        loads.set(subject.name, [...(loads.get(subject.name) ?? []), load.total]);
        firsts.set(subject.name, [...(firsts.get(subject.name) ?? []), first.first]);
      }
    }
  } finally {
    await new Promise((done) => server.close(done));
  }
  const bareLoad = pick(loads.get(BARE.name) ?? [1]);
  return subjects.map((subject) => {
    const load = pick(loads.get(subject.name) ?? []);
    const seen = (firsts.get(subject.name) ?? []).filter((v): v is number => v !== null);
    // A subject that never reached the network in some run has no first-request figure.
    const first = seen.length === count ? pick(seen) : null;
    return {
      subject: subject.name,
      load_ms: Number(load.toFixed(1)),
      first_request_ms: first === null ? null : Number(first.toFixed(1)),
      load_ratio: Number((load / bareLoad).toFixed(2)),
      first_request_ratio: first === null ? null : Number((first / bareLoad).toFixed(2)),
    };
  });
}

export function renderStartup(rows: StartupRow[], runs: number, statistic = 'medians'): string {
  const lines = [
    `cold start, ${runs} paired rounds (subjects interleaved), ${statistic}; ratios over bare \`node -e 0\``,
    '| subject | load (ms) | load ratio | first request (ms) | first-request ratio |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.subject} | ${r.load_ms} | ${r.load_ratio}× | ${r.first_request_ms ?? '–'} | ${r.first_request_ratio === null ? '–' : `${r.first_request_ratio}×`} |`,
    );
  }
  return lines.join('\n');
}

export const NETWORK_STAGES = [
  'claim-checkpoint',
  'consume-approval',
  'persist',
  'publish-artifact',
  'preview',
];

if (process.argv[1]?.endsWith('measure-startup.ts')) {
  const runs = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 11);
  const option = (name: string): string | undefined => {
    const at = process.argv.indexOf(name);
    return at < 0 ? undefined : process.argv[at + 1];
  };
  const stages = option('--stages')?.split(',') ?? NETWORK_STAGES;
  const best = process.argv.includes('--best');
  const rows = await measureStartup(runs, stages, option('--compare'), best ? 'best' : 'median');
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows, null, 2));
  else console.log(renderStartup(rows, Math.min(MAX_RUNS, runs), best ? 'fastest run' : 'medians'));
}
