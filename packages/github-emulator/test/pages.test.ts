/**
 * GitHub Pages: a repository's site seeded through the admin API in the body shape of GitHub's
 * `POST …/pages`, read back through `GET /repos/{owner}/{repo}/pages` (every answer validated against
 * the `page` schema of GitHub's description by the conformance check): `build_type` `workflow` or
 * `legacy`, 404 when Pages is not enabled, and the access GitHub documents (`pages: read` for an app on
 * a private repository; a public repository's site is readable without it).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { World } from './support/helpers.js';
import { client, expectConformance, setup } from './support/helpers.js';

let world: World;
beforeAll(async () => {
  world = await setup();
  const admin = world.emulator.admin;
  admin.createRepo({ owner: 'alice', name: 'secret', private: true, files: { 'README.md': 'x\n' } });
  admin.createToken({
    token: 'pages-app',
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'read', pages: 'read' },
  });
  admin.createToken({
    token: 'no-pages-app',
    kind: 'installation',
    app: 'writ-ledger',
    permissions: { contents: 'read' },
  });
});
afterAll(async () => {
  await world.emulator.close();
  expectConformance();
});

const get = (token: string, repo: string) =>
  client(world.emulator, token).request('GET /repos/{owner}/{repo}/pages', { owner: 'alice', repo });

describe('GitHub Pages site', () => {
  it('answers 404 while Pages is not enabled', async () => {
    await expect(get('alice-pat', 'repo')).rejects.toMatchObject({
      status: 404,
      response: { data: { message: 'Not Found' } },
    });
  });

  it('shows the build type a seed sets: workflow (Source: GitHub Actions) or legacy (a branch)', async () => {
    const admin = world.emulator.admin;
    expect(admin.setPages('alice', 'secret', { build_type: 'workflow' })).toMatchObject({
      build_type: 'workflow',
    });
    const { data } = await get('pages-app', 'secret');
    expect(data).toMatchObject({
      url: `${world.emulator.url}/repos/alice/secret/pages`,
      build_type: 'workflow',
      public: false,
      status: 'built',
    });
    admin.setPages('alice', 'secret', { source: { branch: 'main', path: '/docs' } });
    const legacy = await get('alice-pat', 'secret');
    expect(legacy.data).toMatchObject({ build_type: 'legacy', source: { branch: 'main', path: '/docs' } });
    expect(admin.setPages('alice', 'secret', null)).toBeNull();
    await expect(get('alice-pat', 'secret')).rejects.toMatchObject({ status: 404 });
  });

  it('needs pages: read of an app on a private repository, not on a public one', async () => {
    const admin = world.emulator.admin;
    admin.setPages('alice', 'secret', { build_type: 'workflow' });
    admin.setPages('alice', 'repo', { build_type: 'workflow' });
    await expect(get('no-pages-app', 'secret')).rejects.toMatchObject({
      status: 403,
      response: { headers: { 'x-accepted-github-permissions': 'pages=read' } },
    });
    expect((await get('no-pages-app', 'repo')).data.public).toBe(true);
    // A user without access to the private repository does not see it at all.
    await expect(get('bob-pat', 'secret')).rejects.toMatchObject({ status: 404 });
  });

  it('is seeded over the HTTP admin API too, and refuses an invalid seed', async () => {
    const url = `${world.emulator.adminUrl}/repos/alice/repo/pages`;
    const put = (body: unknown) =>
      fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put({ build_type: 'legacy' })).status).toBe(200);
    expect((await get('alice-pat', 'repo')).data.build_type).toBe('legacy');
    for (const body of [{ build_type: 'jekyll' }, { source: { branch: 'main', path: '/site' } }]) {
      expect((await put(body)).status).toBe(400);
    }
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(200);
    await expect(get('alice-pat', 'repo')).rejects.toMatchObject({ status: 404 });
  });
});
