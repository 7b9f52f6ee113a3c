#!/usr/bin/env node
// npm run bench: for every bundle in dist/, its size and the cold-start wall time of a trivial run,
// against bare `node -e 0` measured in the same invocation (interleaved), as a ratio of medians.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(join(tmpdir(), 'writ-bench-'));

/** Inputs for a trivial run of each stage (stages not listed run with their defaults). */
const TRIVIAL_INPUTS = {
  preview: { 'plan-file': join(root, 'examples/roadmap-plan.json') },
};

/** All JavaScript a stage can load: its bundle plus the chunks it imports on demand. */
function stageBytes(stage) {
  return readdirSync(join(root, 'dist', stage))
    .filter((name) => name.endsWith('.js'))
    .reduce((sum, name) => sum + statSync(join(root, 'dist', stage, name)).size, 0);
}

function runnerEnv(stage) {
  const env = { PATH: process.env.PATH, RUNNER_TEMP: work, GITHUB_EVENT_NAME: 'workflow_dispatch' };
  for (const name of ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_STATE']) {
    const file = join(work, `${stage}-${name}`);
    writeFileSync(file, '');
    env[name] = file;
  }
  const event = join(work, 'event.json');
  writeFileSync(event, '{}');
  env.GITHUB_EVENT_PATH = event;
  for (const [name, value] of Object.entries(TRIVIAL_INPUTS[stage] ?? {}))
    env[`INPUT_${name.toUpperCase()}`] = value;
  return env;
}

function time(args, env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { ms, status: result.status };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const stages = readdirSync(join(root, 'dist'))
  .filter((name) => statSync(join(root, 'dist', name)).isDirectory())
  .sort();
/**
 * Two environments, each with its own `node -e 0` baseline measured interleaved with the bundle:
 * `clean` (only PATH and the runner's variables, as on a hosted runner) and `inherited` (this shell's
 * environment; here it sets NODE_EXTRA_CA_CERTS, which makes every Node start-up load extra CA
 * certificates, so both sides are slower and the ratio is lower).
 */
const ENVIRONMENTS = {
  clean: (stage) => runnerEnv(stage),
  inherited: (stage) => ({ ...process.env, ...runnerEnv(stage) }),
};

const rows = [];
for (const stage of stages) {
  const bundle = join(root, 'dist', stage, 'index.js');
  const row = { stage, bytes: statSync(bundle).size, bytes_with_chunks: stageBytes(stage), runs: RUNS };
  for (const [name, makeEnv] of Object.entries(ENVIRONMENTS)) {
    const env = makeEnv(stage);
    const bareEnv = name === 'clean' ? { PATH: process.env.PATH } : process.env;
    time([bundle], env); // warm the file cache once
    time(['-e', '0'], bareEnv);
    const bare = [];
    const cold = [];
    for (let i = 0; i < RUNS; i++) {
      bare.push(time(['-e', '0'], bareEnv).ms);
      const run = time([bundle], env);
      cold.push(run.ms);
      row.exit_status = run.status;
    }
    const bareMs = Number(median(bare).toFixed(1));
    const coldMs = Number(median(cold).toFixed(1));
    row[name] = {
      node_e0_median_ms: bareMs,
      bundle_median_ms: coldMs,
      ratio: Number((coldMs / bareMs).toFixed(2)),
    };
  }
  rows.push(row);
}

console.log(`node ${process.version}, ${RUNS} interleaved runs each, medians (ms)`);
console.log(
  '| bundle | bytes | with lazy chunks | clean: node -e 0 | clean: run | clean ratio | inherited: node -e 0 | inherited: run | inherited ratio |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| dist/${r.stage}/index.js | ${r.bytes} | ${r.bytes_with_chunks} | ` +
      `${r.clean.node_e0_median_ms} | ${r.clean.bundle_median_ms} | ${r.clean.ratio} | ` +
      `${r.inherited.node_e0_median_ms} | ${r.inherited.bundle_median_ms} | ${r.inherited.ratio} |`,
  );
}
const out = join(root, 'bench/results');
mkdirSync(out, { recursive: true });
const file = join(out, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ node: process.version, runs: RUNS, rows }, null, 2)}\n`);
console.log(`\nwrote ${file}`);

/** Runs one of the scripts/bench/measure-*.ts reports (TypeScript, through tsx) and prints what it prints. */
function report(title, script, args = []) {
  console.log(`\n${title}`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(root, 'scripts/bench', script), ...args],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  process.stdout.write(result.stdout);
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    process.exitCode = 1;
  }
}

// Cold start beside actions/github-script's committed bundle and bare node, paired and interleaved, at
// load and at the first request (scripts/bench/measure-startup.ts; BENCH_RUNS rounds, at most 41).
report('cold start: Writ network stages, github-script, bare node', 'measure-startup.ts', [String(RUNS)]);
// The client's own cost per request on loopback (scripts/bench/measure-client-overhead.ts).
report('client overhead', 'measure-client-overhead.ts');
// Per stage: requests and writes against the floor issue 16 claims (scripts/bench/measure-stage-requests.ts).
report(
  'requests and writes per stage (the dist/ bundles, against the emulator)',
  'measure-stage-requests.ts',
);
// The status comment's marker scan by thread length (scripts/bench/measure-scan-requests.ts).
report('scans', 'measure-scan-requests.ts');

// Requests and writes: what persist costs per step kind and for a roadmap-shaped plan at claim-window
// 1 and 10, counted on the emulator's request log (scripts/bench/measure-persist-requests.ts).
console.log('\npersist: requests, plan writes and ledger commits (in-process, against the emulator)');
const persistCost = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'scripts/bench/measure-persist-requests.ts')],
  { cwd: root, encoding: 'utf8' },
);
process.stdout.write(persistCost.stdout);
if (persistCost.status !== 0) {
  process.stderr.write(persistCost.stderr);
  process.exitCode = 1;
}

// Conditional reads: requests and core rate limit spent with the client's conditionalReads off and on,
// for an unchanged listing polled 10 times and for the roadmap-shaped persist run
// (scripts/bench/measure-conditional-reads.ts).
console.log(
  '\nconditional reads: requests, 304s and core rate limit spent (in-process, against the emulator)',
);
const conditionalCost = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'scripts/bench/measure-conditional-reads.ts')],
  { cwd: root, encoding: 'utf8' },
);
process.stdout.write(conditionalCost.stdout);
if (conditionalCost.status !== 0) {
  process.stderr.write(conditionalCost.stderr);
  process.exitCode = 1;
}

// persist at scale: 50, 200 and 1,000-step plans at the action's defaults with GitHub's secondary limits
// on, paced on the emulator's clock: requests, content-creating requests per step, ledger commits,
// emulator-clock time beside the floor GitHub's limits set, invocations to completion
// (scripts/bench/measure-persist-scale.ts).
report('persist at scale (the emulator with secondary limits, its clock)', 'measure-persist-scale.ts');
