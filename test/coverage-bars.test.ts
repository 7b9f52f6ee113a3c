/**
 * The coverage bar is read from one file, coverage-bars.json: jest's coverageThreshold is that file's
 * bars, each bar is at or below the measure it records, and the coverage table in docs/checks.md is generated
 * from it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import config from '../jest.config.js';
import {
  COVERAGE_DOC,
  readBars,
  renderCoverageDoc,
  withCoverageTable,
} from '../scripts/checks/coverage-table.mjs';
import { repoRoot } from './support/run-action.js';

const file = readBars();
const doc = readFileSync(join(repoRoot, COVERAGE_DOC), 'utf8');

describe('coverage-bars.json', () => {
  it("is jest's coverageThreshold, key for key", () => {
    expect(config.coverageThreshold).toEqual(
      Object.fromEntries(
        Object.entries(file.bars).map(([key, { lines, branches }]) => [key, { lines, branches }]),
      ),
    );
  });

  it('holds each bar at or below the measure it records', () => {
    for (const [key, bar] of Object.entries(file.bars)) {
      // A bar without a recorded measure is held by jest alone (`node scripts/checks/coverage-table.mjs --record`).
      const measured = bar.measured ?? { lines: 100, branches: 100 };
      expect([key, bar.lines <= measured.lines]).toEqual([key, true]);
      expect([key, bar.branches <= measured.branches]).toEqual([key, true]);
    }
  });

  it(`gives the coverage table in ${COVERAGE_DOC} (npm run build writes it; check-dist fails on drift)`, async () => {
    expect(COVERAGE_DOC).toBe('docs/checks.md');
    expect(await renderCoverageDoc(doc, file)).toBe(doc);
    for (const [key, bar] of Object.entries(file.bars)) {
      const name = key === 'global' ? '(root modules)' : key.replace('./packages/core/src/', '');
      expect(doc).toMatch(new RegExp(`\\| \`${name.replace(/[.*()]/g, '\\$&')}\` +\\| ${bar.lines} % `));
    }
    // A bar changed in the file and not in the document is drift.
    const raised = structuredClone(file);
    const first = Object.values(raised.bars)[0];
    if (first !== undefined) first.lines -= 1;
    expect(withCoverageTable(doc, raised)).not.toBe(doc);
  });
});
