/**
 * Deployment environments: seeded through the admin API in the body shape of GitHub's
 * `PUT …/environments/{name}`, read back through GitHub's two GET endpoints (every answer validated
 * against the `environment` schema of GitHub's description by the conformance check), with the access
 * GitHub documents: `actions: read` for an installation, read access for a PAT.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import { client, expectConformance, setup } from './support/helpers.js';

let world: World;
let aliceId: number;
beforeAll(async () => {
  world = await setup();
  const admin = world.emulator.admin;
  aliceId = world.emulator.world.account('alice')?.id ?? 0;
  admin.createToken({
    token: 'no-actions',
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'read', issues: 'write' },
  });
  admin.setEnvironment('alice', 'repo', 'writ', {
    wait_timer: 5,
    prevent_self_review: true,
    reviewers: [{ type: 'User', id: aliceId }],
    deployment_branch_policy: { protected_branches: true, custom_branch_policies: false },
  });
  admin.setEnvironment('alice', 'repo', 'staging', {});
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

interface ProtectionRule {
  type: string;
  wait_timer?: number;
  prevent_self_review?: boolean;
  reviewers?: { type: string; reviewer: { login: string } }[];
}

describe('environments', () => {
  it('shows an environment with its required reviewers, wait timer and branch policy to an app with actions: read', async () => {
    const { data } = await client(world.emulator, 'app-token').request(
      'GET /repos/{owner}/{repo}/environments/{environment_name}',
      { owner: 'alice', repo: 'repo', environment_name: 'writ' },
    );
    expect(data.name).toBe('writ');
    expect(data.url).toBe(`${world.emulator.url}/repos/alice/repo/environments/writ`);
    const rules = (data.protection_rules ?? []) as ProtectionRule[];
    expect(rules.map((rule) => rule.type)).toEqual(['wait_timer', 'required_reviewers', 'branch_policy']);
    expect(rules[0]?.wait_timer).toBe(5);
    expect(rules[1]).toMatchObject({
      prevent_self_review: true,
      reviewers: [{ type: 'User', reviewer: { login: 'alice' } }],
    });
    expect(data.deployment_branch_policy).toEqual({
      protected_branches: true,
      custom_branch_policies: false,
    });
  });

  it('lists no protection rule and a null branch policy for an environment without protection', async () => {
    const { data } = await client(world.emulator, 'bob-pat').request(
      'GET /repos/{owner}/{repo}/environments/{environment_name}',
      // GitHub compares environment names without case.
      { owner: 'alice', repo: 'repo', environment_name: 'STAGING' },
    );
    expect(data.name).toBe('staging');
    expect(data.protection_rules).toEqual([]);
    expect(data.deployment_branch_policy).toBeNull();
  });

  it('lists the environments with their count, paginated', async () => {
    const github = client(world.emulator, 'alice-pat');
    const { data } = await github.request('GET /repos/{owner}/{repo}/environments', {
      owner: 'alice',
      repo: 'repo',
    });
    expect(data.total_count).toBe(2);
    expect(data.environments?.map((entry) => entry.name)).toEqual(['staging', 'writ']);
    const page = await github.request('GET /repos/{owner}/{repo}/environments', {
      owner: 'alice',
      repo: 'repo',
      per_page: 1,
      page: 2,
    });
    expect(page.data.environments?.map((entry) => entry.name)).toEqual(['writ']);
    expect(page.data.total_count).toBe(2);
  });

  it('answers 404 for a missing environment and 403 to an app without actions: read', async () => {
    const github = client(world.emulator, 'app-token');
    await expect(
      github.request('GET /repos/{owner}/{repo}/environments/{environment_name}', {
        owner: 'alice',
        repo: 'repo',
        environment_name: 'production',
      }),
    ).rejects.toMatchObject({ status: 404 });
    const narrow = client(world.emulator, 'no-actions');
    await expect(
      narrow.request('GET /repos/{owner}/{repo}/environments/{environment_name}', {
        owner: 'alice',
        repo: 'repo',
        environment_name: 'writ',
      }),
    ).rejects.toMatchObject({
      status: 403,
      response: { headers: { 'x-accepted-github-permissions': 'actions=read' } },
    });
    await expect(
      narrow.request('GET /repos/{owner}/{repo}/environments', { owner: 'alice', repo: 'repo' }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('replaces an environment in place (same id) and deletes it; refuses an invalid seed', async () => {
    const admin = world.emulator.admin;
    const before = admin.setEnvironment('alice', 'repo', 'temp', { wait_timer: 1 });
    const after = admin.setEnvironment('alice', 'repo', 'Temp', {
      reviewers: [{ type: 'User', id: aliceId }],
    });
    expect(after?.id).toBe(before?.id);
    expect(after?.name).toBe('temp');
    expect(admin.setEnvironment('alice', 'repo', 'temp', null)).toBeNull();
    await expect(
      client(world.emulator, 'alice-pat').request(
        'GET /repos/{owner}/{repo}/environments/{environment_name}',
        { owner: 'alice', repo: 'repo', environment_name: 'temp' },
      ),
    ).rejects.toMatchObject({ status: 404 });
    for (const spec of [
      { wait_timer: -1 },
      { wait_timer: 'soon' },
      { reviewers: [{ type: 'Team', id: 1 }] },
      { reviewers: [{ type: 'User', id: 987654321 }] },
      { reviewers: 'alice' },
      { deployment_branch_policy: { protected_branches: true, custom_branch_policies: true } },
      { deployment_branch_policy: 'main' },
    ]) {
      expect(() => admin.setEnvironment('alice', 'repo', 'bad', spec)).toThrow(/./);
    }
    expect(() => admin.setEnvironment('alice', 'repo', 'a/b', {})).toThrow('invalid environment name');
  });

  it('is seeded over the HTTP admin API too', async () => {
    const response = await fetch(`${world.emulator.adminUrl}/repos/alice/repo/environments/production`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
      }),
    });
    expect(response.status).toBe(200);
    const { data } = await client(world.emulator, 'alice-pat').request(
      'GET /repos/{owner}/{repo}/environments/{environment_name}',
      { owner: 'alice', repo: 'repo', environment_name: 'production' },
    );
    expect((data.protection_rules as ProtectionRule[]).map((rule) => rule.type)).toEqual(['branch_policy']);
    const refused = await fetch(`${world.emulator.adminUrl}/repos/alice/repo/environments/production`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wait_timer: 999999 }),
    });
    expect(refused.status).toBe(400);
    const removed = await fetch(`${world.emulator.adminUrl}/repos/alice/repo/environments/production`, {
      method: 'DELETE',
    });
    expect(removed.status).toBe(200);
  });
});
