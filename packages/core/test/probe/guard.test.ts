import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { validateEvidenceFile, writeEvidenceFile } from '../../src/probe/evidence-file.js';
import type { GuardSettings } from '../../src/probe/guard.js';
import { guardSandbox, validateAllowlistFile } from '../../src/probe/guard.js';
import type { ProbeWorld } from './support.js';
import { CURRENT, SANDBOX, probeWorld } from './support.js';

let world: ProbeWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function why(
  w: ProbeWorld,
  extra: Partial<GuardSettings> = {},
  sandboxGithub = w.sandbox,
): Promise<string> {
  try {
    await guardSandbox(
      { repositoryGithub: w.repository, sandboxGithub },
      {
        sandbox: SANDBOX,
        confirmSandbox: SANDBOX,
        current: CURRENT,
        allowlistFile: '.writ/probe-allowlist.json',
        ...extra,
      },
    );
    return 'passed';
  } catch (error: unknown) {
    if (!(error instanceof WritError)) throw error;
    expect(error.code).toBe('probe-repository-refused');
    return String(error.details.why);
  }
}

describe('the probe guard', () => {
  it('passes a confirmed, allow-listed sandbox and names each refusal', async () => {
    world = await probeWorld({ allowlist: [SANDBOX.toUpperCase()] });
    expect(await why(world)).toBe('passed');
    expect(await why(world, { confirmSandbox: ' acme/sandbox' })).toBe('unconfirmed');
    expect(await why(world, { sandbox: 'Acme/Widgets', confirmSandbox: 'Acme/Widgets' })).toBe(
      'current-repository',
    );
    expect(await why(world, { allowlistFile: '.writ/missing.json' })).toBe('allowlist-missing');
    expect(await why(world, { allowlistFile: 'README.md' })).toBe('allowlist-invalid');
    expect(await why(world, { allowlistFile: '.writ' })).toBe('allowlist-missing');
    expect(await why(world, { sandbox: 'acme/other', confirmSandbox: 'acme/other' })).toBe(
      'not-allow-listed',
    );
    // The sandbox token reaches nothing but the sandbox; a repository-token that cannot read the running one.
    expect(await why(world, {}, world.repository)).toBe('sandbox-unreadable');
    const blind = await guardSandbox(
      { repositoryGithub: world.sandbox, sandboxGithub: world.sandbox },
      {
        sandbox: SANDBOX,
        confirmSandbox: SANDBOX,
        current: CURRENT,
        allowlistFile: '.writ/probe-allowlist.json',
      },
    ).catch((error: unknown) => (error as WritError).details.why);
    expect(blind).toBe('allowlist-unreadable');
  });

  it('refuses an allow-list that lists the running repository in any case', async () => {
    world = await probeWorld({ allowlist: [SANDBOX, 'ACME/WIDGETS'] });
    expect(await why(world)).toBe('allowlist-names-current');
  });

  it('takes only repository-relative allow-list and evidence paths', () => {
    expect(validateAllowlistFile('.writ/probe-allowlist.json')).toBe('.writ/probe-allowlist.json');
    for (const bad of ['/etc/passwd', '../x.json', 'a//b', 'a/../b', '']) {
      expect(() => validateAllowlistFile(bad)).toThrow(/allowlist-file/);
    }
    for (const bad of ['/tmp/x', '../x', 'a//b', ''])
      expect(() => validateEvidenceFile(bad)).toThrow(/evidence-file/);
  });

  it('writes evidence inside the workspace only, never through a symlink', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'writ-evidence-ws-'));
    const path = writeEvidenceFile(workspace, '.writ/probe-evidence.json', '{}\n');
    expect(readFileSync(path, 'utf8')).toBe('{}\n');
    const outside = mkdtempSync(join(tmpdir(), 'writ-evidence-out-'));
    symlinkSync(outside, join(workspace, 'out'));
    expect(() => writeEvidenceFile(workspace, 'out/e.json', '{}')).toThrow(/output-write-failed|leads out/);
    writeFileSync(join(outside, 'target.json'), 'keep');
    symlinkSync(join(outside, 'target.json'), join(workspace, 'link.json'));
    expect(() => writeEvidenceFile(workspace, 'link.json', '{}')).toThrow(/not a regular file/);
    expect(readFileSync(join(outside, 'target.json'), 'utf8')).toBe('keep');
  });
});
