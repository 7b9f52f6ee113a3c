#!/usr/bin/env node
// The CI evidence: what `.ci/run` prints at its end (each step's seconds and the total, the
// `tests: N passed, M failed` line, the coverage table against coverage-bars.json, `CI passed.`),
// read from its log and bound to the commit it ran on. ci.yml runs it after `.ci/run` (passing or not),
// writes the Markdown to the job summary and uploads both files as the `ci-evidence` artifact; the
// release workflow attaches the Markdown to the GitHub Release, and scripts/release/notes.mjs refuses
// evidence that is not passing or names another commit.
//
// Evidence reads as passing only when everything agrees: the step's outcome is `success`, the log ends
// with `CI passed.`, the tests line says at least one passed and none failed, the total is there, and
// every coverage row is at or above its bar. Anything missing or unreadable makes it FAILED, with the
// reasons, and the script exits 1.
//
// Nothing is copied from the log as free text: a line is kept only when it has the exact shape of a
// timing row, the tests line, or a coverage row, and the step names keep only a small set of characters,
// so no test output (a test name, a message) reaches the summary or the release.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const SHA = /^[0-9a-f]{40}$/;
const TESTS = /^tests: (\d+) passed, (\d+) failed$/;
const TIMING = /^\s*(\d+) s {2}(.+)$/;
const TOTAL = /^total: (\d+) s$/;
const CELL = String.raw`(\d+\.\d)% of (\d+), bar (\d+(?:\.\d+)?)%( BELOW)?`;
const COVERAGE_ROW = new RegExp(String.raw`^(\(root modules\)|[\w./*-]+)\s+${CELL}\s+${CELL}\s*$`);
const COVERAGE_HEADER = /^packages\/core\/src\/\s+lines\s+branches\s*$/;

/** A step name as .ci/run names it, kept to letters, digits, spaces and plain punctuation. */
const plain = (text) => text.replace(/[^A-Za-z0-9 .,:;'()/+-]/g, '').trim();

/** The last index of a line matching `pattern`, or -1. */
function lastIndex(lines, pattern) {
  for (let index = lines.length - 1; index >= 0; index -= 1) if (pattern.test(lines[index])) return index;
  return -1;
}

/** The coverage rows printed after the tests line, up to the end of that group. */
function coverageAfter(lines, testsAt) {
  const headerAt =
    testsAt < 0 ? -1 : lines.findIndex((line, at) => at > testsAt && COVERAGE_HEADER.test(line));
  if (headerAt < 0) return { rows: [], stray: 0 };
  const rows = [];
  let stray = 0;
  for (const line of lines.slice(headerAt + 1)) {
    if (line.startsWith('::endgroup::') || line.startsWith('--- ')) break;
    const match = COVERAGE_ROW.exec(line);
    if (match === null) stray += 1;
    else
      rows.push({
        key: match[1],
        lines: { measured: Number(match[2]), of: Number(match[3]), bar: Number(match[4]) },
        branches: { measured: Number(match[6]), of: Number(match[7]), bar: Number(match[8]) },
        below: match[5] !== undefined || match[9] !== undefined,
      });
  }
  return { rows, stray };
}

/** The timing rows after `--- seconds per step`, and the total. */
function timingsOf(lines) {
  const start = lastIndex(lines, /^--- seconds per step$/);
  if (start < 0) return { steps: [], total: undefined };
  const steps = [];
  let total;
  for (const line of lines.slice(start + 1)) {
    const timing = TIMING.exec(line);
    if (timing !== null) steps.push({ seconds: Number(timing[1]), name: plain(timing[2]) });
    const ended = TOTAL.exec(line);
    if (ended !== null) {
      total = Number(ended[1]);
      break;
    }
  }
  return { steps, total };
}

/**
 * The evidence in one `.ci/run` log: { sha, outcome, verdict: 'passed' | 'failed', reasons, tests,
 * coverage, steps, total }. `outcome` is the step's outcome as GitHub reports it (`success`, `failure`…).
 */
export function extractEvidence(log, { sha, outcome }) {
  if (!SHA.test(sha)) throw new Error('the commit must be a full 40-hex SHA');
  const lines = log.replace(/\r\n?/g, '\n').split('\n');
  const testsAt = lastIndex(lines, TESTS);
  const tests = testsAt < 0 ? undefined : TESTS.exec(lines[testsAt]);
  const coverage = coverageAfter(lines, testsAt);
  const { steps, total } = timingsOf(lines);
  const last = lines.filter((line) => line.trim() !== '').at(-1);
  const reasons = [];
  if (outcome !== 'success')
    reasons.push(`the .ci/run step's outcome is ${plain(String(outcome)) || 'unknown'}`);
  if (last !== 'CI passed.') reasons.push('the log does not end with "CI passed."');
  if (tests === undefined) reasons.push('no "tests: N passed, M failed" line');
  else if (Number(tests[2]) > 0) reasons.push(`${tests[2]} test(s) failed`);
  else if (Number(tests[1]) === 0) reasons.push('no test passed');
  if (coverage.rows.length === 0) reasons.push('no coverage table');
  if (coverage.stray > 0) reasons.push(`${coverage.stray} line(s) of the coverage table unreadable`);
  const below = coverage.rows.filter((row) => row.below).map((row) => plain(row.key));
  if (below.length > 0) reasons.push(`coverage below its bar: ${below.join(', ')}`);
  if (total === undefined) reasons.push('no total time');
  return {
    sha,
    outcome: plain(String(outcome)),
    verdict: reasons.length === 0 ? 'passed' : 'failed',
    reasons,
    tests: tests === undefined ? undefined : { passed: Number(tests[1]), failed: Number(tests[2]) },
    coverage: coverage.rows.map((row) => ({ ...row, key: plain(row.key) })),
    steps,
    total,
  };
}

const pct = (cell) => `${cell.measured.toFixed(1)} % of ${cell.of} (bar ${cell.bar} %)`;

/** The evidence as Markdown: the verdict and commit first, then the tests, the times, the coverage. */
export function renderEvidence(evidence) {
  const verdict = evidence.verdict === 'passed' ? 'PASSED' : 'FAILED';
  const tests =
    evidence.tests === undefined
      ? 'not reported'
      : `${evidence.tests.passed} passed, ${evidence.tests.failed} failed`;
  const out = [
    `### CI evidence: ${verdict}`,
    '',
    `- commit: \`${evidence.sha}\``,
    `- \`.ci/run\`: ${evidence.outcome}`,
    `- tests (the whole suite, on Node 24): ${tests}`,
    `- total: ${evidence.total === undefined ? 'not reported' : `${evidence.total} s`}`,
  ];
  if (evidence.reasons.length > 0) {
    out.push('', 'Why this is not passing evidence:', '', ...evidence.reasons.map((reason) => `- ${reason}`));
  }
  out.push('', '#### Seconds per step', '', '```text');
  out.push(...evidence.steps.map((step) => `${String(step.seconds).padStart(6)} s  ${step.name}`));
  out.push(
    '```',
    '',
    '#### Coverage of packages/core/src/ (each folder against its bar in coverage-bars.json)',
    '',
  );
  out.push('| folder | lines | branches |', '|---|---|---|');
  out.push(
    ...evidence.coverage.map(
      (row) =>
        `| \`${row.key}\`${row.below ? ' (below its bar)' : ''} | ${pct(row.lines)} | ${pct(row.branches)} |`,
    ),
  );
  return `${out.join('\n')}\n`;
}

function main() {
  const { values } = parseArgs({
    options: {
      log: { type: 'string' },
      sha: { type: 'string' },
      outcome: { type: 'string' },
      'out-dir': { type: 'string' },
    },
  });
  if (values.log === undefined || values.sha === undefined || values['out-dir'] === undefined) {
    console.error(
      'usage: ci-evidence.mjs --log <.ci/run log> --sha <commit> --outcome <outcome> --out-dir <dir>',
    );
    process.exit(2);
  }
  let log = '';
  try {
    log = readFileSync(values.log, 'utf8');
  } catch {
    // No log at all (the run never started): the evidence says so, as FAILED.
  }
  const evidence = extractEvidence(log, { sha: values.sha, outcome: values.outcome ?? 'unknown' });
  const markdown = renderEvidence(evidence);
  mkdirSync(values['out-dir'], { recursive: true });
  writeFileSync(join(values['out-dir'], 'ci-evidence.json'), `${JSON.stringify(evidence, null, 2)}\n`);
  writeFileSync(join(values['out-dir'], 'ci-evidence.md'), markdown);
  process.stdout.write(markdown);
  process.exitCode = evidence.verdict === 'passed' ? 0 : 1;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) main();
