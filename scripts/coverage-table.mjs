#!/usr/bin/env node
// Prints packages/core's coverage per folder (lines and branches) against the bar in jest.config.js,
// from the json-summary a `npm test -- --coverage` run writes to coverage/coverage-summary.json.
// jest itself enforces the bar; this is the readable account of it (.ci/run prints it after the tests).
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import config from '../jest.config.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const summary = JSON.parse(readFileSync(join(root, 'coverage/coverage-summary.json'), 'utf8'));
const folders = Object.keys(config.coverageThreshold).filter((key) => key !== 'global');
const METRICS = ['lines', 'branches'];

/** A key is a folder (`…/`, everything under it) or `…/*.ts` (the files directly in that folder), as jest reads it. */
function covers(key, path) {
  if (!key.endsWith('/*.ts')) return path.startsWith(key);
  const folder = key.slice(0, -'*.ts'.length);
  return path.startsWith(folder) && path.endsWith('.ts') && !path.slice(folder.length).includes('/');
}

const rows = new Map([...folders, 'global'].map((key) => [key, { lines: [0, 0], branches: [0, 0] }]));
for (const [file, counts] of Object.entries(summary)) {
  if (file === 'total') continue;
  const path = `./${relative(root, file)}`;
  const row = rows.get(folders.find((folder) => covers(folder, path)) ?? 'global');
  for (const metric of METRICS) {
    row[metric][0] += counts[metric].covered;
    row[metric][1] += counts[metric].total;
  }
}

const pct = ([covered, total]) => (total === 0 ? 100 : (100 * covered) / total);
let below = 0;
console.log(`${'packages/core/src/'.padEnd(24)} ${METRICS.map((m) => m.padEnd(26)).join(' ')}`);
for (const [key, row] of rows) {
  const cells = METRICS.map((metric) => {
    const bar = config.coverageThreshold[key][metric] ?? 0;
    const value = pct(row[metric]);
    if (value < bar) below += 1;
    const total = row[metric][1];
    return `${value.toFixed(1)}% of ${total}, bar ${bar}%${value < bar ? ' BELOW' : ''}`.padEnd(26);
  });
  const name = key === 'global' ? '(root modules)' : key.replace('./packages/core/src/', '');
  console.log(`${name.padEnd(24)} ${cells.join(' ')}`);
}
process.exitCode = below > 0 ? 1 : 0;
