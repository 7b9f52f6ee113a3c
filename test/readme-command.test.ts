/**
 * README's "Using Writ in your repository" gives a `writ` command that works copied as is. Its lines are
 * read from README.md (never restated here) and run by a real shell from inside a scratch repository
 * whose remote is a GitHub URL, with a fresh HOME, no network and no token. The two once-per-machine
 * lines (a clone from GitHub, `npm ci`) need the network: the test stands in for what they leave behind,
 * `~/writ` as a clone of Writ with its dependencies installed (this working tree), and checks that they
 * clone the repository the pins name, into that folder.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { OFFLINE_GIT_ENV } from './support/offline-git.mjs';
import { repoRoot } from './support/run-action.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const section = readme.slice(
  readme.indexOf('## Using Writ in your repository'),
  readme.indexOf('\n## ', readme.indexOf('## Using Writ in your repository') + 3),
);
const shellBlocks = (text: string): string[][] =>
  [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    (match[1] ?? '').split('\n').filter((line) => line.trim() !== ''),
  );
const [install = [], use = []] = shellBlocks(section);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe("README's writ command", () => {
  it('never names a package a registry could answer: every command line runs the clone', () => {
    for (const line of shellBlocks(readme).flat()) {
      expect(line).not.toMatch(/^\s*(npx|pnpm dlx|yarn dlx|bunx)\b|npm (exec|x|i|install)\b.*\bwrit\b/);
    }
    expect(section).toContain('`npx writ`');
    // The clone is of the repository every pin names (init's default --writ-repo), into ~/writ.
    const pinned = /Writ's repository the actions come from \(default: ([\w.-]+\/[\w.-]+)\)/.exec(
      readFileSync(join(repoRoot, 'packages/cli/src/help.ts'), 'utf8'),
    )?.[1];
    expect(install).toEqual([
      `git clone https://github.com/${pinned ?? '?'}.git ~/writ`,
      expect.stringMatching(/^\(cd ~\/writ && npm ci\b[^)]*\)$/),
    ]);
    expect(use[0]).toMatch(/^writ\(\) \{ node ~\/writ\/packages\/cli\/bin\/writ\.js "\$@"; \}/);
  });

  it('runs with Git kept off the network (every suite, through the global setup)', () => {
    // print-campaigns.mjs sets OFFLINE_GIT_ENV before the workers start; a question to a real remote
    // fails at once instead of reaching the internet.
    for (const [name, value] of Object.entries(OFFLINE_GIT_ENV)) expect(process.env[name]).toBe(value);
    const asked = spawnSync('git', ['ls-remote', 'https://github.com/acme/widgets.git'], {
      encoding: 'utf8',
    });
    expect(asked.status).not.toBe(0);
    expect(asked.stderr).toMatch(/transport 'https' not allowed/);
  });

  it.each(['sh', 'bash'])(
    "runs as written under %s from a subdirectory of the user's repository, offline",
    (shell) => {
      const home = mkdtempSync(join(tmpdir(), 'writ-readme-home-'));
      const user = mkdtempSync(join(tmpdir(), 'writ-readme-repo-'));
      dirs.push(home, user);
      // What the once-per-machine lines leave behind: ~/writ, a clone with its dependencies installed.
      symlinkSync(repoRoot, join(home, 'writ'));
      git(user, 'init', '-q', '-b', 'main');
      git(user, 'remote', 'add', 'origin', 'https://github.com/acme/widgets.git');
      // The user's own TypeScript settings must not steer writ's imports.
      writeFileSync(
        join(user, 'tsconfig.json'),
        '{"compilerOptions":{"baseUrl":".","paths":{"yaml":["./evil.ts"],"@writ/*":["./evil.ts"]}}}\n',
      );
      writeFileSync(join(user, 'evil.ts'), "throw new Error('the user tsconfig steered writ');\n");
      mkdirSync(join(user, 'src/deep'), { recursive: true });
      const run = spawnSync(shell, ['-e', '-c', use.join('\n')], {
        cwd: join(user, 'src/deep'),
        encoding: 'utf8',
        env: {
          HOME: home,
          PATH: process.env.PATH ?? '',
          // A stale PWD, as a parent that changed directory without updating it leaves.
          PWD: repoRoot,
          // Offline: init's question to https://github.com/acme/widgets for its default branch fails
          // at once (the test checks the README's command works without the network).
          ...OFFLINE_GIT_ENV,
        },
      });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(
        'writ init --github (dry run: nothing written): acme/widgets on github.com',
      );
      expect(run.stdout).toContain('would create .github/workflows/writ-preview.yml');
      const head = git(repoRoot, 'rev-parse', 'HEAD');
      const tags = git(repoRoot, 'tag', '--points-at', head)
        .split('\n')
        .filter((tag) => /^v\d+\.\d+\.\d+$/.test(tag));
      const preview = readFileSync(join(user, '.github/workflows/writ-preview.yml'), 'utf8');
      const comment = /actions\/preview@([0-9a-f]{40}) # (\S+)\n/.exec(preview);
      expect(comment?.[1]).toBe(head);
      expect(tags.length === 0 ? [head.slice(0, 7)] : tags).toContain(comment?.[2]);
      expect(JSON.parse(readFileSync(join(user, '.writ/manifest.json'), 'utf8')).writ.ref).toBe(head);
    },
  );
});
