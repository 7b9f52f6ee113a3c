#!/usr/bin/env node
// npm run bench: for every bundle in dist/, its size and the cold-start wall time of a trivial run,
// against bare `node -e 0` measured in the same invocation (interleaved), as a ratio of medians.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const work = mkdtempSync(join(tmpdir(), 'writ-bench-'));

/** Inputs for a trivial run of each stage (stages not listed run with their defaults). */
const TRIVIAL_INPUTS = {
  preview: { 'plan-file': join(root, 'examples/roadmap-plan.json') },
};

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
const rows = [];
for (const stage of stages) {
  const bundle = join(root, 'dist', stage, 'index.js');
  const env = runnerEnv(stage);
  time([bundle], env); // warm the file cache once
  time(['-e', '0'], {});
  const bare = [];
  const cold = [];
  let status;
  for (let i = 0; i < RUNS; i++) {
    bare.push(time(['-e', '0'], { PATH: process.env.PATH }).ms);
    const run = time([bundle], env);
    cold.push(run.ms);
    status = run.status;
  }
  const row = {
    stage,
    bytes: statSync(bundle).size,
    runs: RUNS,
    exit_status: status,
    node_e0_median_ms: Number(median(bare).toFixed(1)),
    bundle_median_ms: Number(median(cold).toFixed(1)),
  };
  row.ratio = Number((row.bundle_median_ms / row.node_e0_median_ms).toFixed(2));
  rows.push(row);
}

console.log(`node ${process.version}, ${RUNS} interleaved runs each, medians`);
console.log('| bundle | bytes | under 1 MB | node -e 0 (ms) | trivial run (ms) | ratio | ≤ 2.0 |');
console.log('|---|---:|---|---:|---:|---:|---|');
for (const r of rows) {
  console.log(
    `| dist/${r.stage}/index.js | ${r.bytes} | ${r.bytes < 1_000_000 ? 'yes' : 'NO'} | ${r.node_e0_median_ms} | ${r.bundle_median_ms} | ${r.ratio} | ${r.ratio <= 2 ? 'yes' : 'NO'} |`,
  );
}
const out = join(root, 'bench/results');
mkdirSync(out, { recursive: true });
const file = join(out, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ node: process.version, runs: RUNS, rows }, null, 2)}\n`);
console.log(`\nwrote ${file}`);
