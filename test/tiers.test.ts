/**
 * The two test tiers (jest.config.js): every unit suite is in process, with no emulator and no child
 * process of its own, judged by what it imports; and the campaign sizes come from one module, each with
 * its environment override.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { E2E_SUITES, TIERS } from '../jest.config.js';
import { CAMPAIGN_DEFAULTS, campaignSizes, describeCampaigns, sizeOf } from './support/campaigns.mjs';
import { repoRoot } from './support/run-action.js';

function suites(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : suites(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
const all = [...suites('packages'), ...suites('test')].sort();
const isE2e = (path: string): boolean =>
  E2E_SUITES.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry));
const unit = all.filter((path) => !isE2e(path));

const isFile = (path: string): boolean =>
  existsSync(join(repoRoot, path)) && statSync(join(repoRoot, path)).isFile();

/** The repository modules a file imports, transitively (relative and @writ/ imports; TypeScript sources). */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const specifiers = text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?['"]([^'"]+)['"]/g);
  for (const [, specifier = ''] of specifiers) {
    const writ = /^@writ\/([a-z-]+)\/(.*)\.js$/.exec(specifier);
    let target: string | undefined;
    if (writ) target = `packages/${writ[1]}/src/${writ[2]}.ts`;
    else if (specifier.startsWith('.')) {
      const path = relative(repoRoot, resolve(dirname(join(repoRoot, file)), specifier));
      target = [path.replace(/\.js$/, '.ts'), path].find((candidate) =>
        existsSync(join(repoRoot, candidate)),
      );
    }
    if (target !== undefined && isFile(target)) closure(target, seen);
  }
  return seen;
}

describe('the test tiers', () => {
  it('are two jest projects, and every suite is in exactly one', () => {
    expect(TIERS.map((project) => project.displayName)).toEqual(['unit', 'e2e']);
    for (const entry of E2E_SUITES)
      expect([entry, all.some((path) => path.startsWith(entry))]).toEqual([entry, true]);
    expect(unit.length).toBeGreaterThan(30);
    expect(all.length - unit.length).toBeGreaterThan(30);
  });

  it.each(unit)('%s (unit) imports neither the emulator nor child_process', (suite) => {
    const reached = [...closure(suite)];
    expect(reached.filter((path) => path.startsWith('packages/github-emulator/'))).toEqual([]);
    // The suite itself starts no process (a module it imports may name child_process for its own use).
    expect(readFileSync(join(repoRoot, suite), 'utf8')).not.toMatch(/from ['"](node:)?child_process['"]/);
  });

  it('names an e2e suite by what it starts: the emulator or a process', () => {
    // A check of the check: suites known to start each.
    expect(
      [...closure('packages/core/test/stages/persist.test.ts')].some((path) =>
        path.startsWith('packages/github-emulator/'),
      ),
    ).toBe(true);
    expect(readFileSync(join(repoRoot, 'test/readme-command.test.ts'), 'utf8')).toMatch(
      /node:child_(process)/,
    );
  });
});

describe('the campaign sizes', () => {
  it('default to the sizes in test/support/campaigns.mjs, and say so once per run', () => {
    const sizes = campaignSizes({});
    for (const [name, [, fallback]] of Object.entries(CAMPAIGN_DEFAULTS)) {
      expect(sizes[name as keyof typeof sizes]).toBe(fallback);
    }
    expect(describeCampaigns({})).toContain('recoveryKillPoints 16 [WRIT_RECOVERY_KILL_POINTS]');
  });

  it('take an override from their environment variable, and refuse one that is not a positive integer', () => {
    expect(sizeOf('ledgerRaceTrials', { WRIT_RACE_TRIALS: '200' })).toBe(200);
    expect(describeCampaigns({ WRIT_RACE_TRIALS: '200' })).toContain(
      'ledgerRaceTrials 200 (set) [WRIT_RACE_TRIALS]',
    );
    for (const bad of ['0', '-3', '2.5', 'many', ' 7']) {
      expect(() => sizeOf('ledgerRaceTrials', { WRIT_RACE_TRIALS: bad })).toThrow(
        `WRIT_RACE_TRIALS must be a positive integer (campaign size), not ${JSON.stringify(bad)}`,
      );
    }
  });

  it('are read by the suites that run the campaigns, from that module only', () => {
    for (const [name, [variable, , , suite]] of Object.entries(CAMPAIGN_DEFAULTS)) {
      const text = readFileSync(join(repoRoot, suite), 'utf8');
      expect([suite, text.includes(`CAMPAIGNS.${name}`)]).toEqual([suite, true]);
      expect([suite, text.includes(`process.env.${variable}`)]).toEqual([suite, false]);
    }
  });
});
