#!/usr/bin/env node
// npm run model: checks the ledger protocol's SPIN model (model/writ.pml) exhaustively within its bound:
// the real model must satisfy every assertion and liveness property, and each negative control (a switch
// that re-introduces one real bug) must yield a counterexample. Prints states explored, depth and each
// control's counterexample length; exits 1 if the real model fails, a control passes, or
// model/relation.pml is not what model/relation.json generates.
//   --write   regenerate model/relation.pml from model/relation.json first
//   --deep    two crashes per execution instead of one (about 4x the states; not run by CI)
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MODEL_DIR, RELATION_PML_PATH, loadRelation, relationPromela } from './model-relation.mjs';

const args = new Set(process.argv.slice(2));
const root = join(MODEL_DIR, '..');
const work = join(root, '.tmp', 'model');

/** Every check: the scenario, the -D switches, the pan search, and what must come out. */
const CHECKS = [
  { name: 'protocol: safety (every assertion)', defines: [], search: 'safety', expect: 'pass' },
  { name: 'protocol: liveness run_ends', defines: [], search: 'ltl', ltl: 'run_ends', expect: 'pass' },
  {
    name: 'approval: safety (every assertion)',
    defines: ['SCENARIO_APPROVAL'],
    search: 'safety',
    expect: 'pass',
  },
  {
    name: 'approval: liveness approval_not_lost',
    defines: ['SCENARIO_APPROVAL'],
    search: 'ltl',
    ltl: 'approval_not_lost',
    expect: 'pass',
  },
  {
    name: 'approval: liveness second_approval_not_lost',
    defines: ['SCENARIO_APPROVAL'],
    search: 'ltl',
    ltl: 'second_approval_not_lost',
    expect: 'pass',
  },
  {
    name: 'control: takeover without compare-and-set',
    defines: ['NC_TAKEOVER_NO_CAS'],
    search: 'bfs',
    expect: 'fail',
  },
  {
    name: "control: lease judged on the runner's clock",
    defines: ['NC_RUNNER_CLOCK'],
    search: 'bfs',
    expect: 'fail',
  },
  {
    name: 'control: retry of a write without read-back',
    defines: ['NC_RETRY_WITHOUT_READBACK'],
    search: 'bfs',
    expect: 'fail',
  },
  {
    name: 'control: one ruleset (the app can force-push)',
    defines: ['NC_ONE_RULESET', 'SCENARIO_APPROVAL'],
    search: 'bfs',
    expect: 'fail',
  },
  {
    name: 'control: checkpoint without the epoch check',
    defines: ['NC_CHECKPOINT_NO_EPOCH'],
    search: 'bfs',
    expect: 'fail',
  },
];

function runSync(command, argv, cwd) {
  const result = spawnSync(command, argv, { cwd, encoding: 'utf8' });
  if (result.error !== undefined) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function run(command, argv, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

function requireTool(tool) {
  if (runSync('sh', ['-c', `command -v ${tool}`], root).status !== 0) {
    console.error(
      `npm run model needs ${tool}: apt-get install -y --no-install-recommends spin gcc libc6-dev`,
    );
    process.exit(1);
  }
}

function checkGenerated() {
  const expected = relationPromela(loadRelation());
  if (args.has('--write')) {
    writeFileSync(RELATION_PML_PATH, expected);
    console.log('wrote model/relation.pml');
  }
  const actual = existsSync(RELATION_PML_PATH) ? readFileSync(RELATION_PML_PATH, 'utf8') : '';
  if (actual !== expected) {
    console.error('model/relation.pml is not what model/relation.json generates: npm run model -- --write');
    process.exit(1);
  }
}

/** Runs one check in its own folder; returns its figures. */
async function check(entry, index) {
  const dir = join(work, String(index));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const file of ['writ.pml', 'relation.pml']) cpSync(join(MODEL_DIR, file), join(dir, file));
  const defines = [...entry.defines, ...(args.has('--deep') ? ['MAXCRASH=2'] : [])];
  const started = Date.now();
  const generated = await run('spin', [...defines.map((d) => `-D${d}`), '-a', 'writ.pml'], dir);
  if (generated.status !== 0) throw new Error(`spin -a failed for ${entry.name}:\n${generated.output}`);
  const cflags =
    entry.search === 'ltl'
      ? ['-DNFAIR=3']
      : entry.search === 'bfs'
        ? ['-DNOCLAIM', '-DSAFETY', '-DBFS']
        : ['-DNOCLAIM', '-DSAFETY'];
  // -O2 pays for itself only on the millions of states of the protocol scenario's full searches.
  const optimise = entry.search !== 'bfs' && !entry.defines.includes('SCENARIO_APPROVAL') ? '-O2' : '-O0';
  const compiled = await run('gcc', [optimise, '-w', ...cflags, '-o', 'pan', 'pan.c'], dir);
  if (compiled.status !== 0) throw new Error(`gcc failed for ${entry.name}:\n${compiled.output}`);
  const panArgs =
    entry.search === 'ltl' ? ['-a', '-f', '-N', entry.ltl, '-m400000', '-w26'] : ['-m400000', '-w26'];
  const searched = await run('./pan', panArgs, dir);
  const out = searched.output;
  const errors = Number(/errors: (\d+)/.exec(out)?.[1] ?? NaN);
  const states = Number(/([\d.e+]+) states, stored/.exec(out)?.[1] ?? NaN);
  const depth = Number(/depth reached (\d+)/.exec(out)?.[1] ?? NaN);
  const complete = !/Search not completed/.test(out) || errors > 0;
  const violation = /pan:1: (.*?) \(at depth (\d+)\)/.exec(out);
  const acceptance = /pan:1: (acceptance cycle|non-progress cycle).*/.exec(out);
  if (Number.isNaN(errors)) throw new Error(`pan printed no result for ${entry.name}:\n${out}`);
  return {
    ...entry,
    errors,
    states,
    depth,
    complete,
    violation: violation?.[1] ?? acceptance?.[1] ?? null,
    counterexample: violation === null ? (acceptance === null ? null : depth) : Number(violation[2]),
    seconds: (Date.now() - started) / 1000,
  };
}

requireTool('spin');
requireTool('gcc');
checkGenerated();
const started = Date.now();
let failed = 0;
console.log(`SPIN on model/writ.pml${args.has('--deep') ? ' (deep: two crashes per execution)' : ''}`);
// Two searches at a time (two cores); results print in the table's order.
const results = new Array(CHECKS.length);
let next = 0;
async function worker() {
  while (next < CHECKS.length) {
    const index = next++;
    results[index] = await check(CHECKS[index], index);
  }
}
await Promise.all([worker(), worker()]);
for (const r of results) {
  const ok = r.expect === 'pass' ? r.errors === 0 && r.complete : r.errors > 0;
  if (!ok) failed += 1;
  const figures = `${String(r.states).padStart(9)} states, depth ${String(r.depth).padStart(3)}, ${r.seconds.toFixed(1).padStart(5)} s`;
  const verdict =
    r.expect === 'pass'
      ? r.errors === 0
        ? r.complete
          ? 'holds'
          : 'INCOMPLETE SEARCH'
        : `FAILS: ${r.violation ?? 'error'}`
      : r.errors > 0
        ? `counterexample of ${r.counterexample} steps: ${r.violation}`
        : 'CONTROL PASSED (the model cannot see this bug)';
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(48)} ${figures}  ${verdict}`);
}
console.log(
  `model check: ${((Date.now() - started) / 1000).toFixed(1)} s, ${failed === 0 ? 'all as required' : `${failed} not as required`}`,
);
process.exit(failed === 0 ? 0 : 1);
