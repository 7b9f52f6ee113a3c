/**
 * Rulesets (bypass actors' visibility, active rules over REST and GraphQL, enforcement, update and delete)
 * and collaborator permission.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import {
  client,
  expectConformance,
  COMMIT_MUTATION,
  commitInput,
  graphqlRaw,
  setup,
} from './support/helpers.js';

let world: World;
let rulesetId: number;
beforeAll(async () => {
  world = await setup();
  const admin = world.emulator.admin;
  await client(world.emulator, 'app-token').rest.git.createRef({
    owner: 'alice',
    repo: 'repo',
    ref: 'refs/heads/bot/writ-ledger',
    sha: world.head,
  });
  rulesetId = admin.addRuleset('alice', 'repo', {
    name: 'ledger',
    target: 'branch',
    enforcement: 'active',
    bypass_actors: [{ actor_id: world.appId, actor_type: 'Integration', bypass_mode: 'always' }],
    conditions: { ref_name: { include: ['refs/heads/bot/writ-ledger'], exclude: [] } },
    rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }, { type: 'update' }],
  }).id;
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

async function ledgerHead(): Promise<string> {
  const { data } = await client(world.emulator, 'alice-pat').rest.git.getRef({
    owner: 'alice',
    repo: 'repo',
    ref: 'heads/bot/writ-ledger',
  });
  return data.object.sha;
}

describe('rulesets', () => {
  it('shows bypass_actors to an admin and hides them from a non-admin', async () => {
    const { data: asAdmin } = await client(world.emulator, 'alice-pat').request(
      'GET /repos/{owner}/{repo}/rulesets/{ruleset_id}',
      {
        owner: 'alice',
        repo: 'repo',
        ruleset_id: rulesetId,
      },
    );
    expect(asAdmin.bypass_actors).toEqual([
      { actor_id: world.appId, actor_type: 'Integration', bypass_mode: 'always' },
    ]);
    expect(asAdmin.rules?.map((rule) => rule.type)).toEqual(['deletion', 'non_fast_forward', 'update']);
    expect(asAdmin.current_user_can_bypass).toBe('never');
    const { data: asApp } = await client(world.emulator, 'app-token').request(
      'GET /repos/{owner}/{repo}/rulesets/{ruleset_id}',
      {
        owner: 'alice',
        repo: 'repo',
        ruleset_id: rulesetId,
      },
    );
    expect(asApp).not.toHaveProperty('bypass_actors');
    expect(asApp.current_user_can_bypass).toBe('always');
    const { data: list } = await client(world.emulator, 'bob-pat').request(
      'GET /repos/{owner}/{repo}/rulesets',
      { owner: 'alice', repo: 'repo' },
    );
    expect(list.map((entry) => entry.name)).toEqual(['ledger']);
    expect(list[0]).not.toHaveProperty('bypass_actors');
  });

  it('shows bypass_actors to an installation with administration write, never with administration read', async () => {
    // OpenAPI repository-ruleset: "the bypass_actors property is only returned if the user making the
    // API request has write access to the ruleset" (github-api-facts.md §5).
    const admin = world.emulator.admin;
    admin.createToken({
      token: 'app-admin-read',
      kind: 'installation',
      app: 'writ-ledger',
      permissions: { contents: 'write', administration: 'read' },
    });
    admin.createToken({
      token: 'app-admin-write',
      kind: 'installation',
      app: 'writ-ledger',
      permissions: { contents: 'write', administration: 'write' },
    });
    const get = async (token: string) =>
      (
        await client(world.emulator, token).request('GET /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
          owner: 'alice',
          repo: 'repo',
          ruleset_id: rulesetId,
        })
      ).data;
    const read = await get('app-admin-read');
    expect(read).not.toHaveProperty('bypass_actors');
    expect(read.rules?.map((rule) => rule.type)).toEqual(['deletion', 'non_fast_forward', 'update']);
    expect((await get('app-admin-write')).bypass_actors).toEqual([
      { actor_id: world.appId, actor_type: 'Integration', bypass_mode: 'always' },
    ]);
  });

  it('lists the active rules for a branch', async () => {
    const { data } = await client(world.emulator, 'carol-pat').request(
      'GET /repos/{owner}/{repo}/rules/branches/{branch}',
      {
        owner: 'alice',
        repo: 'repo',
        branch: 'bot/writ-ledger',
      },
    );
    expect(data.map((rule) => rule.type)).toEqual(['deletion', 'non_fast_forward', 'update']);
    expect(data[0]).toMatchObject({
      ruleset_id: rulesetId,
      ruleset_source_type: 'Repository',
      ruleset_source: 'alice/repo',
    });
    const { data: none } = await client(world.emulator, 'carol-pat').request(
      'GET /repos/{owner}/{repo}/rules/branches/{branch}',
      {
        owner: 'alice',
        repo: 'repo',
        branch: 'main',
      },
    );
    expect(none).toEqual([]);
  });

  it('lists the same active rules on GraphQL as Ref.rules, with each rule’s ruleset', async () => {
    const query = `query($owner: String!, $name: String!, $ref: String!) {
      repository(owner: $owner, name: $name) {
        ref(qualifiedName: $ref) {
          rules(first: 100) { pageInfo { hasNextPage } nodes { type repositoryRuleset { databaseId } } }
        }
      }
    }`;
    const rulesOf = async (ref: string) => {
      const { body } = await graphqlRaw(world.emulator, 'carol-pat', query, {
        owner: 'alice',
        name: 'repo',
        ref,
      });
      expect(body.errors).toBeUndefined();
      return (body.data as { repository: { ref: { rules: unknown } } }).repository.ref.rules;
    };
    expect(await rulesOf('refs/heads/bot/writ-ledger')).toEqual({
      pageInfo: { hasNextPage: false },
      nodes: ['DELETION', 'NON_FAST_FORWARD', 'UPDATE'].map((type) => ({
        type,
        repositoryRuleset: { databaseId: rulesetId },
      })),
    });
    expect(await rulesOf('refs/heads/main')).toEqual({ pageInfo: { hasNextPage: false }, nodes: [] });
  });

  it('lets the bypassing app commit but refuses an admin PAT and GITHUB_TOKEN', async () => {
    const current = await ledgerHead();
    const response = await graphqlRaw(
      world.emulator,
      'alice-pat',
      COMMIT_MUTATION,
      commitInput(current, 'a.json', '{}', 'bot/writ-ledger'),
    );
    expect(response.body.data).toEqual({ createCommitOnBranch: null });
    expect(String((response.body.errors as { message: string }[])[0]?.message)).toMatch(
      /^Repository rule violations found/,
    );
    const viaActions = await graphqlRaw(
      world.emulator,
      'gh-token',
      COMMIT_MUTATION,
      commitInput(current, 'a.json', '{}', 'bot/writ-ledger'),
    );
    expect(viaActions.body.data).toEqual({ createCommitOnBranch: null });
    expect(await ledgerHead()).toBe(current);
    const ok = await graphqlRaw(
      world.emulator,
      'app-token',
      COMMIT_MUTATION,
      commitInput(current, 'a.json', '{}', 'bot/writ-ledger'),
    );
    expect(ok.body.errors).toBeUndefined();
    expect(await ledgerHead()).not.toBe(current);
  });

  it('refuses deletion and force-push through REST with a repository rule violation', async () => {
    const pat = client(world.emulator, 'alice-pat');
    await expect(
      pat.rest.git.deleteRef({ owner: 'alice', repo: 'repo', ref: 'heads/bot/writ-ledger' }),
    ).rejects.toMatchObject({
      status: 422,
      response: { data: { message: expect.stringContaining('Repository rule violations found') } },
    });
    await expect(
      pat.rest.git.updateRef({
        owner: 'alice',
        repo: 'repo',
        ref: 'heads/bot/writ-ledger',
        sha: world.head,
        force: true,
      }),
    ).rejects.toMatchObject({
      status: 422,
      response: { data: { message: expect.stringContaining('Cannot force-push') } },
    });
  });

  it('ignores rulesets in evaluate mode', async () => {
    world.emulator.admin.addRuleset('alice', 'repo', {
      name: 'eval',
      enforcement: 'evaluate',
      conditions: { ref_name: { include: ['~ALL'], exclude: [] } },
      rules: [{ type: 'update' }],
    });
    const octokit = client(world.emulator, 'alice-pat');
    const { data: base } = await octokit.rest.git.getCommit({
      owner: 'alice',
      repo: 'repo',
      commit_sha: world.head,
    });
    const { data: next } = await octokit.rest.git.createCommit({
      owner: 'alice',
      repo: 'repo',
      message: 'm',
      tree: base.tree.sha,
      parents: [world.head],
    });
    const { data } = await octokit.rest.git.updateRef({
      owner: 'alice',
      repo: 'repo',
      ref: 'heads/main',
      sha: next.sha,
    });
    expect(data.object.sha).toBe(next.sha);
  });
});

describe('ruleset update and delete (repos/update-repo-ruleset, repos/delete-repo-ruleset)', () => {
  it('lets an admin replace the named fields (updated_at moves) and delete it (204, then 404)', async () => {
    const admin = world.emulator.admin;
    const created = admin.addRuleset('alice', 'repo', {
      name: 'scratch',
      target: 'branch',
      enforcement: 'active',
      conditions: { ref_name: { include: ['refs/heads/scratch'], exclude: [] } },
      rules: [{ type: 'deletion' }],
    });
    const { created_at: createdAt, updated_at: updatedAt } = created;
    admin.clock({ advance_ms: 2000 });
    const owner = client(world.emulator, 'alice-pat');
    const { status, data } = await owner.request('PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
      owner: 'alice',
      repo: 'repo',
      ruleset_id: created.id,
      enforcement: 'evaluate',
      rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }],
    });
    expect(status).toBe(200);
    expect(data.enforcement).toBe('evaluate');
    expect(data.name).toBe('scratch');
    expect(data.rules?.map((rule) => rule.type)).toEqual(['deletion', 'non_fast_forward']);
    expect(data.conditions).toEqual({ ref_name: { include: ['refs/heads/scratch'], exclude: [] } });
    expect(Date.parse(data.updated_at ?? '')).toBeGreaterThan(Date.parse(updatedAt));
    expect(data.created_at).toBe(createdAt);
    // Not an admin, and an installation without administration write: refused, nothing changed.
    for (const token of ['bob-pat', 'app-token']) {
      const refused = await client(world.emulator, token)
        .request('DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
          owner: 'alice',
          repo: 'repo',
          ruleset_id: created.id,
        })
        .then(
          () => 0,
          (error: unknown) => (error as { status: number }).status,
        );
      expect([403, 404]).toContain(refused);
    }
    const deleted = await owner.request('DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
      owner: 'alice',
      repo: 'repo',
      ruleset_id: created.id,
    });
    expect(deleted.status).toBe(204);
    const gone = await owner
      .request('GET /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
        owner: 'alice',
        repo: 'repo',
        ruleset_id: created.id,
      })
      .then(
        () => 0,
        (error: unknown) => (error as { status: number }).status,
      );
    expect(gone).toBe(404);
  });

  it('answers 422 for an enforcement GitHub does not know, and 404 for a ruleset that does not exist', async () => {
    const owner = client(world.emulator, 'alice-pat');
    const status = (promise: Promise<unknown>): Promise<number> =>
      promise.then(
        () => 0,
        (error: unknown) => (error as { status: number }).status,
      );
    expect(
      await status(
        owner.request('PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
          owner: 'alice',
          repo: 'repo',
          ruleset_id: rulesetId,
          enforcement: 'paused' as never,
        }),
      ),
    ).toBe(422);
    expect(
      await status(
        owner.request('DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
          owner: 'alice',
          repo: 'repo',
          ruleset_id: 999_999,
        }),
      ),
    ).toBe(404);
  });
});

describe('collaborator permission', () => {
  it('maps maintain to write, triage to read, and reports bots as none', async () => {
    const octokit = client(world.emulator, 'app-token');
    const get = (username: string) =>
      octokit.rest.repos
        .getCollaboratorPermissionLevel({ owner: 'alice', repo: 'repo', username })
        .then((r) => r.data);
    expect(await get('alice')).toMatchObject({
      permission: 'admin',
      role_name: 'admin',
      user: { login: 'alice', type: 'User' },
    });
    expect(await get('bob')).toMatchObject({ permission: 'write', role_name: 'maintain' });
    expect(await get('carol')).toMatchObject({ permission: 'read', role_name: 'triage' });
    expect(await get('writ-ledger[bot]')).toMatchObject({ permission: 'none', user: { type: 'Bot' } });
    await expect(get('nobody')).rejects.toMatchObject({ status: 404 });
  });

  it('reports a custom role by name, with the legacy permission of its base role', async () => {
    world.emulator.admin.setCollaborator('alice', 'repo', 'carol', 'release-manager', 'write');
    try {
      const { data } = await client(world.emulator, 'app-token').rest.repos.getCollaboratorPermissionLevel({
        owner: 'alice',
        repo: 'repo',
        username: 'carol',
      });
      expect(data).toMatchObject({
        permission: 'write',
        role_name: 'release-manager',
        user: { role_name: 'release-manager' },
      });
      expect(() => world.emulator.admin.setCollaborator('alice', 'repo', 'carol', 'release-manager')).toThrow(
        /base_role/,
      );
    } finally {
      world.emulator.admin.setCollaborator('alice', 'repo', 'carol', 'triage');
    }
  });

  it('answers 403 Resource not accessible by integration for a write without the permission', async () => {
    world.emulator.admin.createToken({
      token: 'read-only',
      kind: 'installation',
      app: 'writ-ledger',
      permissions: { contents: 'read' },
    });
    const octokit = client(world.emulator, 'read-only');
    await expect(
      octokit.rest.git.createRef({ owner: 'alice', repo: 'repo', ref: 'refs/heads/nope', sha: world.head }),
    ).rejects.toMatchObject({
      status: 403,
      response: { data: { message: 'Resource not accessible by integration' } },
    });
    const { data } = await octokit.rest.repos.get({ owner: 'alice', repo: 'repo' });
    expect(data.full_name).toBe('alice/repo');
  });
});
