import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { validateEvidenceFile, writeEvidenceFile } from '../../src/probe/evidence-file.js';
import type { GuardSettings } from '../../src/probe/guard.js';
import { guardSandbox, validateAllowlistFile } from '../../src/probe/guard.js';
import type { ProbeWorld } from './support.js';
import { CURRENT, SANDBOX, probeClient, probeWorld } from './support.js';

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

/**
 * Issue 26, class 9: before any probe write, the guard shows that the sandbox token cannot see the
 * running repository: GitHub answers it 404 by name and by ID. Anything else is refused.
 */
describe('the sandbox token must not reach the running repository', () => {
  const BOTH = 'ghs_probeTokenReachingBoth000000000000000';

  function tokenReachingBoth(w: ProbeWorld, permissions: Record<string, 'read' | 'write'>) {
    w.emulator.admin.createToken({
      token: BOTH,
      kind: 'installation',
      app: 'writ-probe',
      repositories: [SANDBOX, CURRENT],
      permissions,
    });
    return probeClient(w.emulator, BOTH);
  }

  it.each([
    ['writes it', { contents: 'write', issues: 'write', administration: 'write' }],
    ['reads its contents', { contents: 'read' }],
    ['sees only its metadata', {}],
  ] as const)('refuses a sandbox token that %s', async (_what, permissions) => {
    world = await probeWorld();
    expect(await why(world, {}, tokenReachingBoth(world, permissions))).toBe('running-repository-visible');
  });

  it('refuses a person whose token only pulls the running repository', async () => {
    world = await probeWorld();
    const { admin } = world.emulator;
    admin.createUser({ login: 'puller' });
    admin.createToken({ token: 'ghp_pullerPersonalToken000000000000000', kind: 'pat', login: 'puller' });
    admin.setCollaborator('acme', 'widgets', 'puller', 'read');
    admin.setCollaborator('acme', 'sandbox', 'puller', 'admin');
    const puller = probeClient(world.emulator, 'ghp_pullerPersonalToken000000000000000');
    expect(await why(world, {}, puller)).toBe('running-repository-visible');
  });

  it('refuses when the running repository is public: any token can see it, its write cannot be proven absent', async () => {
    world = await probeWorld({ currentPrivate: false });
    expect(await why(world)).toBe('running-repository-visible');
  });

  it('refuses a token the running repository answers 404 by name but shows by ID (a renamed repository)', async () => {
    world = await probeWorld();
    const both = tokenReachingBoth(world, { contents: 'write' });
    // The allow-list read (repository-token) passes; the sandbox token's read by name answers 404.
    world.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/acme/widgets' },
      fault: { type: 'status', status: 404 },
      skip: 1,
      times: 1,
    });
    const refusal = await guardSandbox(
      { repositoryGithub: world.repository, sandboxGithub: both },
      {
        sandbox: SANDBOX,
        confirmSandbox: SANDBOX,
        current: CURRENT,
        allowlistFile: '.writ/probe-allowlist.json',
      },
    ).catch((error: unknown) => error as WritError);
    expect(refusal).toBeInstanceOf(WritError);
    expect((refusal as WritError).details.why).toBe('running-repository-visible');
    expect((refusal as WritError).message).toContain('by ID');
  });

  it.each([
    ['by name', '/repos/acme/widgets', 1],
    ['by ID', '/repositories/*', 0],
  ] as const)('refuses when the read %s fails with a 5xx: only a 404 proves it', async (_how, path, skip) => {
    world = await probeWorld();
    world.emulator.admin.addFault({
      match: { method: 'GET', path },
      fault: { type: 'status', status: 502 },
      skip,
    });
    expect(await why(world)).toBe('running-repository-unproven');
  });

  it('refuses when the read by name is forbidden (403 is not 404)', async () => {
    world = await probeWorld();
    world.emulator.admin.addFault({
      match: { method: 'GET', path: '/repos/acme/widgets' },
      fault: { type: 'status', status: 403 },
      skip: 1,
    });
    expect(await why(world)).toBe('running-repository-unproven');
  });

  it('passes the sandbox-only token on a private running repository after both 404s', async () => {
    world = await probeWorld();
    const seq = world.emulator.admin.requests().at(-1)?.seq ?? 0;
    expect(await why(world)).toBe('passed');
    const reads = world.emulator.admin
      .requests()
      .filter((r) => r.seq > seq && (r.path === '/repos/acme/widgets' || r.path.startsWith('/repositories/')))
      .map((r) => `${r.path.startsWith('/repositories/') ? 'by ID' : 'by name'} ${r.status}`);
    expect(reads).toEqual(expect.arrayContaining(['by name 404', 'by ID 404']));
  });
});
