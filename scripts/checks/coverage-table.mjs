#!/usr/bin/env node
// The coverage bar for packages/core lives in coverage-bars.json (jest.config.js reads it as
// coverageThreshold, so jest enforces it). This script prints each folder's measure against its bar,
// from the json-summary a `npm test -- --coverage` run writes to coverage/coverage-summary.json (.ci/run
// prints it after the tests), and exits non-zero when one is below. `--record` also writes the measures
// into coverage-bars.json (`measured`), which the coverage table in docs/checks.md shows beside each bar:
// that table is generated from the file (renderCoverageTable, written by `npm run build`, so check-dist
// fails when it drifts).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BARS_FILE = join(root, 'coverage-bars.json');
const METRICS = ['lines', 'branches'];
const PREFIX = './packages/core/src/';
/** The document that holds the coverage table, between TABLE_START and TABLE_END. */
export const COVERAGE_DOC = 'docs/checks.md';

export function readBars(path = BARS_FILE) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** A key is a folder (`…/`, everything under it) or `…/*.ts` (the files directly in that folder), as jest reads it. */
function covers(key, path) {
  if (!key.endsWith('/*.ts')) return path.startsWith(key);
  const folder = key.slice(0, -'*.ts'.length);
  return path.startsWith(folder) && path.endsWith('.ts') && !path.slice(folder.length).includes('/');
}

const pct = ([covered, total]) => (total === 0 ? 100 : (100 * covered) / total);

/**
 * Each key's measure, as jest compares it with the bar: a folder in aggregate, `global` the files no key
 * claims, and a `*.ts` key its lowest file. { key: { lines, branches, totals: { lines, branches } } }
 */
export function measure(summary, keys) {
  const folders = keys.filter((key) => key !== 'global');
  const sums = new Map([...folders, 'global'].map((key) => [key, { lines: [0, 0], branches: [0, 0] }]));
  const lowest = new Map();
  for (const [file, counts] of Object.entries(summary)) {
    if (file === 'total') continue;
    const path = `./${relative(root, file)}`;
    const key = folders.find((folder) => covers(folder, path)) ?? 'global';
    for (const metric of METRICS) {
      const sum = sums.get(key)[metric];
      sum[0] += counts[metric].covered;
      sum[1] += counts[metric].total;
      if (key.endsWith('/*.ts')) {
        const low = lowest.get(key) ?? { lines: 100, branches: 100 };
        low[metric] = Math.min(low[metric], pct([counts[metric].covered, counts[metric].total]));
        lowest.set(key, low);
      }
    }
  }
  return Object.fromEntries(
    [...sums].map(([key, sum]) => {
      const values = Object.fromEntries(
        METRICS.map((metric) => [metric, lowest.get(key)?.[metric] ?? pct(sum[metric])]),
      );
      return [key, { ...values, totals: { lines: sum.lines[1], branches: sum.branches[1] } }];
    }),
  );
}

const name = (key) => (key === 'global' ? '(root modules)' : key.replace(PREFIX, ''));
const fixed = (value) => (value === undefined ? '–' : `${Number(value).toFixed(1)} %`);
const cell = (text) => String(text).replace(/\|/g, '\\|');

export const TABLE_START =
  '<!-- coverage-bars: generated from coverage-bars.json by scripts/build/build.mjs -->';
export const TABLE_END = '<!-- /coverage-bars -->';

/** The coverage table: each key's bar and last recorded measure (lines, branches), and why. */
export function renderCoverageTable({ bars }) {
  const rows = Object.entries(bars).map(
    ([key, bar]) =>
      `| \`${name(key)}\` | ${bar.lines} % | ${fixed(bar.measured?.lines)} | ${bar.branches} % | ${fixed(bar.measured?.branches)} | ${cell(bar.why ?? '')} |`,
  );
  return [
    TABLE_START,
    '',
    '| `packages/core/src/` | lines bar | lines measured | branches bar | branches measured | what is left, or why |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    TABLE_END,
  ].join('\n');
}

/** COVERAGE_DOC's text with its coverage table regenerated (the text between the two markers). */
export function withCoverageTable(doc, bars) {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${COVERAGE_DOC} has no ${TABLE_START} … ${TABLE_END} block`);
  return `${doc.slice(0, start)}${renderCoverageTable(bars)}${doc.slice(end + TABLE_END.length)}`;
}

/** COVERAGE_DOC as `npm run build` writes it: the table regenerated, formatted as prettier --check wants it. */
export async function renderCoverageDoc(doc, bars) {
  const { format, resolveConfig } = await import('prettier');
  const path = join(root, COVERAGE_DOC);
  return format(withCoverageTable(doc, bars), { ...(await resolveConfig(path)), filepath: path });
}

function main() {
  const file = readBars();
  const summary = JSON.parse(readFileSync(join(root, 'coverage/coverage-summary.json'), 'utf8'));
  const measured = measure(summary, Object.keys(file.bars));
  let below = 0;
  console.log(`${'packages/core/src/'.padEnd(24)} ${METRICS.map((m) => m.padEnd(26)).join(' ')}`);
  for (const [key, bar] of Object.entries(file.bars)) {
    const cells = METRICS.map((metric) => {
      const value = measured[key][metric];
      if (value < bar[metric]) below += 1;
      const total = measured[key].totals[metric];
      return `${value.toFixed(1)}% of ${total}, bar ${bar[metric]}%${value < bar[metric] ? ' BELOW' : ''}`.padEnd(
        26,
      );
    });
    console.log(`${name(key).padEnd(24)} ${cells.join(' ')}`);
  }
  if (process.argv.includes('--record')) {
    for (const [key, bar] of Object.entries(file.bars)) {
      bar.measured = Object.fromEntries(
        METRICS.map((metric) => [metric, Math.floor(measured[key][metric] * 10) / 10]),
      );
    }
    writeFileSync(BARS_FILE, `${JSON.stringify(file, null, 2)}\n`);
    console.log(`recorded the measures in coverage-bars.json (run \`npm run build\` for ${COVERAGE_DOC})`);
  }
  process.exitCode = below > 0 ? 1 : 0;
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) main();
