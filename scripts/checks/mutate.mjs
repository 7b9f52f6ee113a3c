#!/usr/bin/env node
// npm run mutate: StrykerJS on the code that decides safety (stryker.config.mjs), then the score per
// folder with its mutant and survivor counts, the surviving mutants (file:line, mutator, replacement),
// and exit 1 when a folder is under its bar. Stryker works on a copy (.stryker-tmp/sandbox-*), never on
// the working tree. Incremental: reports/stryker-incremental.json (committed) holds every mutant's last
// result, so a run re-tests only the mutants whose code or covering tests changed since.
//
//   npm run mutate                                  the whole scope
//   npm run mutate -- --mutate 'packages/core/src/claim/**/*.ts'   a part; the other results are kept
//   npm run mutate -- --ci                          CI (.ci/run): the same, without the HTML report,
//                                                   and only when the committed file covers every folder
//   npm run mutate -- --report-only                 print the scores of the incremental file, no run
//
// Other arguments go to `stryker run` as they are (e.g. --force to re-test every mutant).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const INCREMENTAL_FILE = 'reports/stryker-incremental.json';

/** The folders scored, each with its bar (mutation score, %); a file counts toward the first that prefixes it. */
export const FOLDERS = [
  { name: 'ledger/', prefix: 'packages/core/src/ledger/', bar: 80 },
  { name: 'approval/', prefix: 'packages/core/src/approval/', bar: 80 },
  { name: 'idempotency/', prefix: 'packages/core/src/idempotency/', bar: 80 },
  { name: 'persist/', prefix: 'packages/core/src/persist/', bar: 80 },
  { name: 'claim/', prefix: 'packages/core/src/claim/', bar: 80 },
  { name: 'github/client.ts', prefix: 'packages/core/src/github/client.ts', bar: 80 },
];

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function folderOf(path) {
  return FOLDERS.find((folder) => path.startsWith(folder.prefix));
}

/**
 * The incremental report after a run: the run's own results, and the earlier results of files in scope
 * that this run did not mutate (a `--mutate` part), so parts add up to the whole.
 */
export function mergeReports(before, after, exists = (path) => existsSync(join(root, path))) {
  if (before === null) return after;
  const files = {};
  for (const [path, file] of Object.entries(before.files ?? {})) {
    if (folderOf(path) !== undefined && exists(path)) files[path] = file;
  }
  Object.assign(files, after.files);
  const testFiles = {};
  for (const [path, file] of Object.entries(before.testFiles ?? {})) {
    if (exists(path)) testFiles[path] = file;
  }
  Object.assign(testFiles, after.testFiles ?? {});
  return { ...after, files, testFiles };
}

/** Per folder: mutants, killed, timeout, survived, no coverage, other (compile errors, ignored), score. */
export function scores(report) {
  const rows = FOLDERS.map((folder) => ({
    ...folder,
    mutants: 0,
    killed: 0,
    timeout: 0,
    survived: 0,
    noCoverage: 0,
    other: 0,
    score: null,
  }));
  const undetected = [];
  for (const [path, file] of Object.entries(report.files ?? {})) {
    const folder = folderOf(path);
    if (folder === undefined) continue;
    const row = rows.find((candidate) => candidate.name === folder.name);
    for (const mutant of file.mutants) {
      row.mutants += 1;
      if (mutant.status === 'Killed') row.killed += 1;
      else if (mutant.status === 'Timeout') row.timeout += 1;
      else if (mutant.status === 'Survived') row.survived += 1;
      else if (mutant.status === 'NoCoverage') row.noCoverage += 1;
      else row.other += 1;
      if (UNDETECTED.has(mutant.status)) {
        undetected.push({
          path,
          line: mutant.location.start.line,
          column: mutant.location.start.column,
          status: mutant.status,
          mutator: mutant.mutatorName,
          replacement: mutant.replacement ?? '',
        });
      }
    }
  }
  for (const row of rows) {
    const valid = row.killed + row.timeout + row.survived + row.noCoverage;
    row.score = valid === 0 ? null : (100 * (row.killed + row.timeout)) / valid;
  }
  undetected.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  return { rows, undetected };
}

function oneLine(text, max = 80) {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The printed table and survivor list, and the folders under their bar (or never measured). */
export function render({ rows, undetected }) {
  const lines = [];
  lines.push('folder            mutants  killed  timeout  survived  no-cov  score   bar');
  const failing = [];
  for (const row of rows) {
    const score = row.score === null ? '   —  ' : `${row.score.toFixed(1).padStart(5)}%`;
    const below = row.score === null || row.score < row.bar;
    if (below) failing.push(row.name);
    lines.push(
      `${row.name.padEnd(17)} ${String(row.mutants).padStart(7)} ${String(row.killed).padStart(7)} ${String(row.timeout).padStart(8)} ${String(row.survived).padStart(9)} ${String(row.noCoverage).padStart(7)}  ${score} ${String(row.bar).padStart(4)}%${below ? '  UNDER' : ''}`,
    );
  }
  if (undetected.length > 0) {
    lines.push('', `undetected mutants (${undetected.length}):`);
    for (const mutant of undetected) {
      const where = `${mutant.path.replace('packages/core/src/', '')}:${mutant.line}:${mutant.column}`;
      const label = mutant.status === 'NoCoverage' ? ' (no test covers it)' : '';
      lines.push(`  ${where} ${mutant.mutator}${label} → ${oneLine(mutant.replacement)}`);
    }
  }
  return { text: lines.join('\n'), failing };
}

function readJson(path) {
  return existsSync(join(root, path)) ? JSON.parse(readFileSync(join(root, path), 'utf8')) : null;
}

function main(argv) {
  const ci = argv.includes('--ci');
  const reportOnly = argv.includes('--report-only');
  const passThrough = argv.filter((arg) => arg !== '--ci' && arg !== '--report-only');
  // Stryker's own --incrementalFile (another file, e.g. for a part run beside another) is honoured here.
  const named = argv.indexOf('--incrementalFile');
  const incrementalFile = named >= 0 && argv[named + 1] !== undefined ? argv[named + 1] : INCREMENTAL_FILE;
  const before = readJson(incrementalFile);
  if (ci && !reportOnly) {
    // CI re-tests only what changed; a folder with no results at all would be a full run of it (hours
    // on two cores), so CI refuses that and names the folders to run locally and commit first.
    const missing = scores(before ?? { files: {} }).rows.filter((row) => row.mutants === 0);
    if (missing.length > 0) {
      console.error(
        `mutate --ci: ${incrementalFile} has no results for ${missing.map((row) => row.name).join(', ')}; run \`npm run mutate\` locally and commit the file first`,
      );
      return 1;
    }
  }
  if (!reportOnly) {
    const reporters = ci
      ? ['clear-text', 'progress-append-only', 'json']
      : ['clear-text', 'progress', 'json', 'html'];
    const started = Date.now();
    const run = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
        'run',
        'stryker.config.mjs',
        '--reporters',
        reporters.join(','),
        ...passThrough,
      ],
      { cwd: root, stdio: 'inherit' },
    );
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`mutate: stryker exited ${run.status ?? run.signal} after ${seconds} s`);
    if (run.status !== 0) return 1;
    const after = readJson(incrementalFile);
    if (after === null) {
      console.error(`mutate: Stryker wrote no ${incrementalFile}`);
      return 1;
    }
    const merged = mergeReports(before, after);
    mkdirSync(join(root, dirname(incrementalFile)), { recursive: true });
    writeFileSync(join(root, incrementalFile), `${JSON.stringify(merged, null, 2)}\n`);
  }
  const report = readJson(incrementalFile);
  if (report === null) {
    console.error(`mutate: no ${incrementalFile}; run \`npm run mutate\` first`);
    return 1;
  }
  const { text, failing } = render(scores(report));
  console.log(text);
  if (failing.length > 0) {
    console.error(`mutate: under the bar (or not measured): ${failing.join(', ')}`);
    return 1;
  }
  console.log('mutate: every folder at or above its bar');
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
