/**
 * The release workflow, CI's, and Dependabot's configuration: actionlint-clean, every action pinned by
 * full SHA, least privilege (only the release job writes); CI runs .ci/run and keeps its evidence
 * (scripts/release/ci-evidence.mjs, run here on passing and failing logs); the release job attests the
 * seven bundles, tags the checked commit without ever moving a tag and creates the GitHub Release once
 * (its shell run here against a fake `gh` that answers as GitHub does and records every call); the
 * notes (scripts/release/notes.mjs, run here on this tree) name the tag, the SHA, the CHANGELOG section,
 * the evidence and each bundle's sha256sum.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { WRIT_VERSION } from '../packages/core/src/version.js';
import { lintWorkflow } from '../scripts/checks/lint-workflows.mjs';
import { extractEvidence, renderEvidence } from '../scripts/release/ci-evidence.mjs';
import {
  BUNDLES,
  changelogSection,
  checkEvidence,
  RELEASE_WORKFLOW,
  renderNotes,
} from '../scripts/release/notes.mjs';
import { repoRoot } from './support/run-action.js';

const path = '.github/workflows/release.yml';
const text = readFileSync(join(repoRoot, path), 'utf8');
const workflow = parse(text) as {
  permissions: unknown;
  jobs: Record<string, Job>;
};

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | boolean | number>;
  env?: Record<string, string>;
}
interface Job {
  permissions?: Record<string, string>;
  needs?: string | string[];
  uses?: string;
  steps?: Step[];
}

const dirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'writ-release-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const versionOf = (path: string): string =>
  (JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as { version: string }).version;

const releaseSteps = workflow.jobs.release?.steps ?? [];
const stepNamed = (job: Job | undefined, prefix: string): Step => {
  const step = job?.steps?.find((s) => s.name?.startsWith(prefix));
  if (step?.run === undefined) throw new Error(`no step '${prefix}…' with a run`);
  return step;
};

/** Runs one step's shell as the runner does (`bash -e`), with `env` only; its status and output. */
function runStep(
  step: Step,
  env: Record<string, string>,
  cwd = repoRoot,
): { status: number; out: string; err: string } {
  const result = spawnSync('bash', ['-e', '-c', step.run ?? ''], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { status: result.status ?? -1, out: result.stdout, err: result.stderr };
}

/** Runs the release workflow's own version check, as its step does, on this tree. */
function releaseVersionCheck(version: string, cwd = repoRoot): { status: number; out: string } {
  const { status, out } = runStep(
    stepNamed(workflow.jobs.check, 'The version is package.json'),
    { VERSION: version },
    cwd,
  );
  return { status, out };
}

const SHA = 'a'.repeat(40);
const OTHER = 'b'.repeat(40);
const PIN = /uses: [\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/;

describe('the release workflow', () => {
  it('passes actionlint', async () => {
    expect(await lintWorkflow(text, path)).toEqual([]);
  });

  it('pins every action by its full commit SHA with a version comment', () => {
    const uses = text.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    // ci.yml, a workflow of this repository at this commit, is the one exception.
    for (const line of uses.filter((use) => !use.endsWith('uses: ./.github/workflows/ci.yml'))) {
      expect(line).toMatch(PIN);
    }
  });

  it('grants nothing at the top; only the release job writes, with exactly contents, id-token and attestations', () => {
    expect(workflow.permissions).toEqual({});
    const writers = Object.entries(workflow.jobs)
      .filter(([, job]) => Object.values(job.permissions ?? {}).includes('write'))
      .map(([name, job]) => [name, job.permissions]);
    expect(writers).toEqual([['release', { contents: 'write', 'id-token': 'write', attestations: 'write' }]]);
    expect(workflow.jobs.check?.permissions).toEqual({ contents: 'read' });
    expect(workflow.jobs.ci?.permissions).toEqual({ contents: 'read' });
  });

  it("runs check, then CI's own checks (ci.yml, .ci/run), then the release, and no subset of CI's checks", () => {
    expect(Object.keys(workflow.jobs)).toEqual(['check', 'ci', 'release']);
    expect(workflow.jobs.ci).toMatchObject({
      needs: 'check',
      uses: './.github/workflows/ci.yml',
      permissions: { contents: 'read' },
    });
    expect(workflow.jobs.release?.needs).toEqual(['check', 'ci']);
    // No check of its own beside the version's and the ref's: the release runs what every pull request runs.
    const runs = [...(workflow.jobs.check?.steps ?? []), ...releaseSteps].map((step) => step.run ?? '');
    for (const command of ['npm ci', 'npm test', 'npm run check-dist', '.ci/run']) {
      expect(runs.some((run) => run.includes(command))).toBe(false);
    }
    // The version input reaches scripts only through the environment, never expanded into a script.
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps ?? []) expect(step.run ?? '').not.toMatch(/\$\{\{/);
    }
  });

  it('releases only from main (the ref the attestations name)', () => {
    const step = stepNamed(workflow.jobs.check, 'Released from main');
    expect(step.env).toEqual({ REF: '${{ github.ref }}' });
    expect(runStep(step, { REF: 'refs/heads/main' }).status).toBe(0);
    expect(runStep(step, { REF: 'refs/heads/feature' })).toMatchObject({
      status: 1,
      out: '::error::a release runs from refs/heads/main, not refs/heads/feature\n',
    });
  });

  it("accepts this tree's version: package.json, every workspace and WRIT_VERSION agree, CHANGELOG has its entry", () => {
    const version = versionOf('package.json');
    for (const workspace of ['core', 'cli', 'github-emulator']) {
      expect(versionOf(`packages/${workspace}/package.json`)).toBe(version);
    }
    expect(WRIT_VERSION).toBe(version);
    expect(releaseVersionCheck(version)).toEqual({ status: 0, out: '' });
    // The entry is the one the workflow's grep finds, dated.
    expect(readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8')).toMatch(
      new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'),
    );
  });

  it('refuses a version package.json does not name, or one CHANGELOG.md has no entry for', () => {
    const version = versionOf('package.json');
    const [major, minor] = version.split('.');
    const next = `${major}.${Number(minor) + 1}.0`;
    expect(releaseVersionCheck(next)).toEqual({
      status: 1,
      out: `::error::package.json says ${version}, not ${next}\n`,
    });
    const elsewhere = scratch();
    writeFileSync(join(elsewhere, 'package.json'), JSON.stringify({ version: next }));
    writeFileSync(join(elsewhere, 'CHANGELOG.md'), `# Changelog\n\n## [${version}] - 2026-12-03\n`);
    expect(releaseVersionCheck(next, elsewhere)).toEqual({
      status: 1,
      out: `::error::CHANGELOG.md has no '## [${next}]' entry\n`,
    });
    expect(releaseVersionCheck('v1')).toEqual({
      status: 1,
      out: '::error::version must be X.Y.Z (got an invalid value)\n',
    });
  });
});

describe('the release job', () => {
  it('checks out exactly the checked commit, without credentials, and then notes, attests, tags, releases', () => {
    expect(releaseSteps[0]).toEqual({
      uses: 'actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683',
      with: { ref: '${{ needs.check.outputs.sha }}', 'persist-credentials': false },
    });
    const order = releaseSteps.map((step) => step.name ?? step.uses?.split('@')[0]);
    expect(order).toEqual([
      'actions/checkout',
      'HEAD is the commit the check and CI ran on',
      'actions/setup-node',
      'actions/download-artifact',
      'The release notes, SHA256SUMS and the CI evidence file',
      'actions/attest-build-provenance',
      'Tag the checked commit v<version> (an existing tag is never moved)',
      'The GitHub Release for the tag (once; a re-run finds it)',
    ]);
    for (const step of releaseSteps.filter((s) => s.run !== undefined)) {
      if (step.env?.SHA !== undefined) expect(step.env.SHA).toBe('${{ needs.check.outputs.sha }}');
    }
    expect(releaseSteps[3]?.with).toEqual({ name: 'ci-evidence', path: '${{ runner.temp }}/ci-evidence' });
  });

  it('confirms HEAD is the checked commit, and fails on any other', () => {
    const repo = scratch();
    const git = (...args: string[]): string =>
      execFileSync('git', args, {
        cwd: repo,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'w',
          GIT_AUTHOR_EMAIL: 'w@example.com',
          GIT_COMMITTER_NAME: 'w',
          GIT_COMMITTER_EMAIL: 'w@example.com',
        },
      }).trim();
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'one');
    const head = git('rev-parse', 'HEAD');
    const step = stepNamed(workflow.jobs.release, 'HEAD is the commit');
    expect(runStep(step, { SHA: head }, repo).status).toBe(0);
    expect(runStep(step, { SHA: OTHER }, repo)).toMatchObject({
      status: 1,
      out: `::error::checked out ${head}, not the checked commit ${OTHER}\n`,
    });
  });

  it('attests exactly the seven stage bundles, each in dist/', () => {
    const attest = releaseSteps.find((step) => step.uses?.startsWith('actions/attest-build-provenance@'));
    expect(Object.keys(attest?.with ?? {})).toEqual(['subject-path']);
    const subjects = String(attest?.with?.['subject-path']).trim().split('\n');
    expect(subjects).toEqual(BUNDLES);
    expect(subjects).toHaveLength(7);
    const stages = readdirSync(join(repoRoot, 'dist'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `dist/${entry.name}/index.js`)
      .sort();
    expect(stages).toEqual(BUNDLES);
    for (const bundle of BUNDLES) expect(readFileSync(join(repoRoot, bundle)).length).toBeGreaterThan(0);
  });
});

/**
 * A stand-in for `gh` on PATH: it answers the calls the release job makes as GitHub and gh do (a missing
 * ref is `gh: Not Found (HTTP 404)` on stderr and exit 1; `--jq` is applied by the real jq), keeps the
 * tag and the releases in files, and records every call. `tag-create` and `release-create` choose what
 * a create does: `ok`, `exists` (refused), `lost` (done on GitHub, but the answer never arrives), or
 * `draft` (gh stopped after making the draft).
 */
const FAKE_GH = String.raw`#!/usr/bin/env bash
set -u
dir="$FAKE_GH_DIR"
printf '%s\n' "$*" >> "$dir/calls"
if [ "$1" = api ]; then
  shift
  jqexpr='.'; method=GET; path=''; sha=''
  while [ $# -gt 0 ]; do
    case "$1" in
      --jq) jqexpr="$2"; shift 2 ;;
      -X) method="$2"; shift 2 ;;
      -f) case "$2" in sha=*) sha="$(printf '%s' "$2" | sed 's/^sha=//')" ;; esac; shift 2 ;;
      --paginate|--silent) shift ;;
      *) path="$1"; shift ;;
    esac
  done
  case "$method $path" in
    "GET repos/acme/writ/git/ref/tags/"*)
      if [ -f "$dir/tag.json" ]; then jq -r "$jqexpr" "$dir/tag.json"; exit 0; fi
      echo 'gh: Not Found (HTTP 404)' >&2; exit 1 ;;
    "POST repos/acme/writ/git/refs")
      mode="$(cat "$dir/tag-create" 2>/dev/null || echo ok)"
      if [ "$mode" = exists ] || [ -f "$dir/tag.json" ]; then echo 'gh: Reference already exists (HTTP 422)' >&2; exit 1; fi
      printf '{"ref":"refs/tags/x","object":{"type":"commit","sha":"%s"}}' "$sha" > "$dir/tag.json"
      if [ "$mode" = lost ]; then echo 'gh: HTTP 502' >&2; exit 1; fi
      exit 0 ;;
    "GET repos/acme/writ/releases?per_page=100")
      jq -r "$jqexpr" "$dir/releases.json"; exit 0 ;;
  esac
  echo "fake gh: unexpected api call: $method $path" >&2; exit 3
fi
if [ "$1 $2" = "release create" ]; then
  tag="$3"; notes=''; verify=no; shift 3
  while [ $# -gt 0 ]; do
    case "$1" in
      --notes-file) notes="$2"; shift 2 ;;
      --repo|--title) shift 2 ;;
      --verify-tag) verify=yes; shift ;;
      *) [ -f "$1" ] || { echo "fake gh: no file $1" >&2; exit 3; }; shift ;;
    esac
  done
  if [ "$verify" = yes ] && [ ! -f "$dir/tag.json" ]; then
    echo "tag $tag doesn't exist in the repo acme/writ, aborting due to --verify-tag flag" >&2; exit 1
  fi
  mode="$(cat "$dir/release-create" 2>/dev/null || echo ok)"
  draft=false; [ "$mode" = draft ] && draft=true
  if [ "$mode" != exists ]; then
    jq --arg t "$tag" --rawfile b "$notes" --argjson d "$draft" '. + [{tag_name: $t, draft: $d, body: $b}]' \
      "$dir/releases.json" > "$dir/releases.next" && mv "$dir/releases.next" "$dir/releases.json"
  fi
  case "$mode" in ok) exit 0 ;; *) echo 'gh: HTTP 502' >&2; exit 1 ;; esac
fi
echo "fake gh: unexpected call: $*" >&2; exit 3
`;

interface World {
  tag?: string; // "commit <sha>" or "tag <sha>"
  tagCreate?: 'ok' | 'exists' | 'lost';
  releases?: { tag_name: string; draft: boolean; body: string }[];
  releaseCreate?: 'ok' | 'exists' | 'lost' | 'draft';
}

/** Runs a release-job step against the fake gh in `world`; its status, output, the calls and the state. */
function againstFakeGh(
  prefix: string,
  world: World,
): {
  status: number;
  out: string;
  err: string;
  calls: string[];
  tag?: string;
  releases: { tag_name: string; draft: boolean; body: string }[];
  summary: string;
} {
  const root = scratch();
  const bin = join(root, 'bin');
  const state = join(root, 'gh');
  const temp = join(root, 'runner-temp');
  mkdirSync(bin);
  mkdirSync(state);
  mkdirSync(join(temp, 'release'), { recursive: true });
  writeFileSync(join(bin, 'gh'), FAKE_GH);
  chmodSync(join(bin, 'gh'), 0o755);
  if (world.tag !== undefined) {
    const [type, sha] = world.tag.split(' ');
    writeFileSync(
      join(state, 'tag.json'),
      JSON.stringify({ ref: 'refs/tags/v1.2.3', object: { type, sha } }),
    );
  }
  if (world.tagCreate !== undefined) writeFileSync(join(state, 'tag-create'), world.tagCreate);
  if (world.releaseCreate !== undefined) writeFileSync(join(state, 'release-create'), world.releaseCreate);
  writeFileSync(join(state, 'releases.json'), JSON.stringify(world.releases ?? []));
  for (const file of ['notes.md', 'SHA256SUMS', 'ci-evidence.md']) {
    writeFileSync(
      join(temp, 'release', file),
      file === 'notes.md' ? `The notes name ${SHA}.\n` : `${file}\n`,
    );
  }
  const summary = join(root, 'summary.md');
  writeFileSync(summary, '');
  const result = runStep(stepNamed(workflow.jobs.release, prefix), {
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    FAKE_GH_DIR: state,
    RUNNER_TEMP: temp,
    GITHUB_STEP_SUMMARY: summary,
    GH_TOKEN: 'not-a-token',
    VERSION: '1.2.3',
    SHA,
    REPOSITORY: 'acme/writ',
  });
  const read = (name: string): string => {
    try {
      return readFileSync(join(state, name), 'utf8');
    } catch {
      return '';
    }
  };
  const tagFile = read('tag.json');
  const tagObject =
    tagFile === '' ? undefined : (JSON.parse(tagFile) as { object: { type: string; sha: string } });
  return {
    ...result,
    calls: read('calls').trim().split('\n').filter(Boolean),
    tag: tagObject === undefined ? undefined : `${tagObject.object.type} ${tagObject.object.sha}`,
    releases: JSON.parse(read('releases.json')) as { tag_name: string; draft: boolean; body: string }[],
    summary: readFileSync(summary, 'utf8'),
  };
}

const TAG_STEP = 'Tag the checked commit';
const RELEASE_STEP = 'The GitHub Release for the tag';
const readTag = 'api repos/acme/writ/git/ref/tags/v1.2.3 --jq .object.type + " " + .object.sha';
const createTag = `api -X POST repos/acme/writ/git/refs -f ref=refs/tags/v1.2.3 -f sha=${SHA} --silent`;

describe('the tag step (run against a fake gh)', () => {
  it('creates the tag at the checked commit when there is none', () => {
    const run = againstFakeGh(TAG_STEP, {});
    expect(run).toMatchObject({ status: 0, tag: `commit ${SHA}` });
    expect(run.calls).toEqual([readTag, createTag]);
    expect(run.summary).toBe(
      `Tagged ${SHA} as v1.2.3. Consumers pin: acme/writ/actions/<stage>@${SHA} # v1.2.3\n`,
    );
  });

  it('keeps a tag already at the checked commit (a re-run) and writes nothing', () => {
    const run = againstFakeGh(TAG_STEP, { tag: `commit ${SHA}` });
    expect(run).toMatchObject({ status: 0, tag: `commit ${SHA}` });
    expect(run.calls).toEqual([readTag]);
    expect(run.out).toBe(`v1.2.3 already names ${SHA} (a re-run): kept.\n`);
  });

  it('never moves a tag at another commit: it fails and writes nothing', () => {
    const run = againstFakeGh(TAG_STEP, { tag: `commit ${OTHER}` });
    expect(run).toMatchObject({ status: 1, tag: `commit ${OTHER}` });
    expect(run.calls).toEqual([readTag]);
    expect(run.out).toContain(`::error::v1.2.3 is not at commit ${SHA} (GitHub has: commit ${OTHER})`);
    expect(run.summary).toBe('');
  });

  it('refuses an annotated tag (a tag object, not the commit) rather than judge what it points at', () => {
    const run = againstFakeGh(TAG_STEP, { tag: `tag ${SHA}` });
    expect(run).toMatchObject({ status: 1, tag: `tag ${SHA}` });
    expect(run.calls).toEqual([readTag]);
  });

  it('reads the tag back when the create is refused (another run made it) and judges what is there', () => {
    const run = againstFakeGh(TAG_STEP, { tagCreate: 'exists' });
    expect(run).toMatchObject({ status: 1, tag: undefined });
    expect(run.calls).toEqual([readTag, createTag, readTag]);
    expect(run.out).toContain('(GitHub has: absent)');
  });

  it('reads the tag back when the answer to the create is lost, and accepts it at the commit: no second create', () => {
    const run = againstFakeGh(TAG_STEP, { tagCreate: 'lost' });
    expect(run).toMatchObject({ status: 0, tag: `commit ${SHA}` });
    expect(run.calls).toEqual([readTag, createTag, readTag]);
  });
});

const listReleases = (tag = 'v1.2.3'): string =>
  `api --paginate repos/acme/writ/releases?per_page=100 --jq .[] | select(.tag_name == "${tag}") | (if .draft then "draft" else "published" end) + " " + ((.body // "") | contains("${SHA}") | tostring)`;
const createRelease = (temp = '<temp>'): string =>
  `release create v1.2.3 ${temp}/release/ci-evidence.md ${temp}/release/SHA256SUMS --repo acme/writ --verify-tag --title Writ v1.2.3 --notes-file ${temp}/release/notes.md`;
const withTemp = (calls: string[]): string[] =>
  calls.map((call) => call.replace(/\S*\/runner-temp\//g, '<temp>/'));

describe('the release step (run against a fake gh)', () => {
  it('creates one Release for the tag, verified, with the notes, the evidence and SHA256SUMS', () => {
    const run = againstFakeGh(RELEASE_STEP, { tag: `commit ${SHA}` });
    expect(run.status).toBe(0);
    expect(withTemp(run.calls)).toEqual([listReleases(), createRelease()]);
    expect(run.releases).toEqual([{ tag_name: 'v1.2.3', draft: false, body: `The notes name ${SHA}.\n` }]);
    expect(run.summary).toBe('Release v1.2.3: https://github.com/acme/writ/releases/tag/v1.2.3\n');
  });

  it('makes no second Release on a re-run: the one that names the commit is kept', () => {
    const releases = [{ tag_name: 'v1.2.3', draft: false, body: `Writ v1.2.3 at ${SHA}` }];
    const run = againstFakeGh(RELEASE_STEP, { tag: `commit ${SHA}`, releases });
    expect(run.status).toBe(0);
    expect(run.calls).toEqual([listReleases()]);
    expect(run.releases).toEqual(releases);
  });

  it('finds a Release of another tag irrelevant, but stops at a draft or a Release that names another commit', () => {
    const other = { tag_name: 'v1.2.2', draft: false, body: `at ${SHA}` };
    expect(againstFakeGh(RELEASE_STEP, { tag: `commit ${SHA}`, releases: [other] }).releases).toHaveLength(2);
    for (const found of [
      { tag_name: 'v1.2.3', draft: true, body: `at ${SHA}` },
      { tag_name: 'v1.2.3', draft: false, body: `at ${OTHER}` },
    ]) {
      const run = againstFakeGh(RELEASE_STEP, { tag: `commit ${SHA}`, releases: [found] });
      expect(run.status).toBe(1);
      expect(run.calls).toEqual([listReleases()]);
      expect(run.out).toContain('::error::a Release for v1.2.3 exists that is not this one');
    }
  });

  it('reads back after a create whose answer is lost: the Release is there, so it passes with no second create', () => {
    const run = againstFakeGh(RELEASE_STEP, { tag: `commit ${SHA}`, releaseCreate: 'lost' });
    expect(run.status).toBe(0);
    expect(withTemp(run.calls)).toEqual([listReleases(), createRelease(), listReleases()]);
    expect(run.releases).toHaveLength(1);
  });

  it('fails, after reading back, when gh stopped at a draft or made nothing; and never releases an absent tag', () => {
    const draft = againstFakeGh(RELEASE_STEP, { tag: `commit ${SHA}`, releaseCreate: 'draft' });
    expect(draft.status).toBe(1);
    expect(withTemp(draft.calls)).toEqual([listReleases(), createRelease(), listReleases()]);
    expect(draft.out).toContain('GitHub now has: draft true');
    const untagged = againstFakeGh(RELEASE_STEP, {});
    expect(untagged.status).toBe(1);
    expect(untagged.releases).toEqual([]);
    expect(untagged.out).toContain('GitHub now has: no Release');
  });
});

/** A `.ci/run` log as it prints: its groups, the tests line, the coverage table, the times, the verdict. */
function ciLog({ passed = 1234, failed = 0, below = false, complete = true } = {}): string {
  const script = readFileSync(join(repoRoot, '.ci/run'), 'utf8').replace(/\\\n\s*/g, '');
  const names = [...script.matchAll(/^step "([^"]+)"/gm)].map((match) => match[1] ?? '');
  const bars = (
    JSON.parse(readFileSync(join(repoRoot, 'coverage-bars.json'), 'utf8')) as {
      bars: Record<string, { lines: number; branches: number }>;
    }
  ).bars;
  const cell = (bar: number, low: boolean): string =>
    `${(low ? bar - 2 : Math.min(100, bar + 1)).toFixed(1)}% of 321, bar ${bar}%${low ? ' BELOW' : ''}`.padEnd(
      26,
    );
  const table = [
    `${'packages/core/src/'.padEnd(24)} ${['lines', 'branches'].map((m) => m.padEnd(26)).join(' ')}`,
    ...Object.entries(bars).map(
      ([key, bar], index) =>
        `${(key === 'global' ? '(root modules)' : key.replace('./packages/core/src/', '')).padEnd(24)} ${cell(bar.lines, below && index === 2)} ${cell(bar.branches, false)}`,
    ),
  ];
  const lines = ['node v20.19.0, npm 10.8.2'];
  for (const [index, name] of names.entries()) {
    lines.push(`::group::${name}`);
    if (index === 2) {
      lines.push(
        'PASS test/x.test.ts',
        '  ✓ prints "CI passed." and `tests: 9 passed, 0 failed` in a test name',
      );
      lines.push(`tests: ${passed} passed, ${failed} failed`, ...table);
    }
    lines.push('::endgroup::');
    if (!complete && index === 2) return `${lines.join('\n')}\n`;
  }
  lines.push(
    '--- seconds per step',
    ...names.map((name, index) => `${String(index * 7).padStart(6)} s  ${name}`),
  );
  lines.push(`total: ${names.length * 7} s`, 'CI passed.');
  return `${lines.join('\n')}\n`;
}

describe('the CI evidence (scripts/release/ci-evidence.mjs)', () => {
  it('reads a passing .ci/run log as passing evidence for its commit', () => {
    const evidence = extractEvidence(ciLog(), { sha: SHA, outcome: 'success' });
    expect(evidence).toMatchObject({
      sha: SHA,
      verdict: 'passed',
      reasons: [],
      tests: { passed: 1234, failed: 0 },
    });
    expect(evidence.steps).toHaveLength(10);
    expect(evidence.coverage.map((row) => row.key)).toContain('approval/');
    expect(evidence.coverage.map((row) => row.key)).toContain('(root modules)');
    const markdown = renderEvidence(evidence);
    expect(markdown).toMatch(/^### CI evidence: PASSED\n\n- commit: `a{40}`\n/);
    expect(markdown).toContain('- tests (the whole suite, on Node 24): 1234 passed, 0 failed');
    expect(markdown).toContain('| `approval/` |');
    expect(markdown).not.toContain('test/x.test.ts');
  });

  it('never reads a failed run as passing', () => {
    const cases: [string, string, string][] = [
      [ciLog({ failed: 2, complete: false }), 'failure', '2 test(s) failed'],
      [ciLog(), 'failure', "the .ci/run step's outcome is failure"],
      [ciLog(), 'cancelled', "the .ci/run step's outcome is cancelled"],
      [ciLog({ below: true }), 'success', 'coverage below its bar: artifact/'],
      [ciLog({ passed: 0 }), 'success', 'no test passed'],
      [ciLog({ complete: false }), 'success', 'the log does not end with "CI passed."'],
      [ciLog().replace(/total: \d+ s\n/, ''), 'success', 'no total time'],
      ['', 'success', 'no "tests: N passed, M failed" line'],
      [
        ciLog().replace('(root modules)', '<img src=x>'),
        'success',
        '1 line(s) of the coverage table unreadable',
      ],
    ];
    for (const [log, outcome, reason] of cases) {
      const evidence = extractEvidence(log, { sha: SHA, outcome });
      expect([reason, evidence.verdict]).toEqual([reason, 'failed']);
      expect(evidence.reasons).toContain(reason);
      expect(renderEvidence(evidence)).toMatch(/^### CI evidence: FAILED\n/);
    }
    expect(() => extractEvidence(ciLog(), { sha: 'HEAD', outcome: 'success' })).toThrow('full 40-hex SHA');
  });

  it('copies no free text from the log: step names keep plain characters only', () => {
    const log = ciLog().replace('s  npm ci', 's  npm ci `<img src=x onerror=alert(1)>` [x](y) @team');
    const evidence = extractEvidence(log, { sha: SHA, outcome: 'success' });
    expect(evidence.steps[1]?.name).toBe('npm ci img srcx onerroralert(1) x(y) team');
  });

  it('runs as ci.yml runs it: writes the JSON and the Markdown, prints the Markdown, exits 1 when not passing', () => {
    const dir = scratch();
    const script = join(repoRoot, 'scripts/release/ci-evidence.mjs');
    const run = (log: string, outcome: string): { status: number | null; stdout: string } => {
      writeFileSync(join(dir, 'ci-run.log'), log);
      return spawnSync(
        'node',
        [
          script,
          '--log',
          join(dir, 'ci-run.log'),
          '--sha',
          SHA,
          '--outcome',
          outcome,
          '--out-dir',
          join(dir, 'out'),
        ],
        { encoding: 'utf8' },
      );
    };
    const passing = run(ciLog(), 'success');
    expect(passing.status).toBe(0);
    expect(passing.stdout).toBe(readFileSync(join(dir, 'out/ci-evidence.md'), 'utf8'));
    expect(JSON.parse(readFileSync(join(dir, 'out/ci-evidence.json'), 'utf8'))).toMatchObject({
      verdict: 'passed',
    });
    const failing = run(ciLog({ failed: 1 }), 'failure');
    expect(failing.status).toBe(1);
    expect(failing.stdout).toMatch(/^### CI evidence: FAILED/);
    expect(JSON.parse(readFileSync(join(dir, 'out/ci-evidence.json'), 'utf8'))).toMatchObject({
      verdict: 'failed',
    });
  });
});

describe('the release notes (scripts/release/notes.mjs, on this tree)', () => {
  const version = versionOf('package.json');
  const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const notesFor = (evidence: object): { status: number | null; stderr: string; dir: string } => {
    const dir = scratch();
    mkdirSync(join(dir, 'evidence'));
    writeFileSync(join(dir, 'evidence/ci-evidence.json'), JSON.stringify(evidence));
    const result = spawnSync(
      'node',
      [
        join(repoRoot, 'scripts/release/notes.mjs'),
        ...['--version', version, '--sha', sha, '--repository', 'writ-actions/writ'],
        ...['--evidence', join(dir, 'evidence'), '--out', join(dir, 'out')],
      ],
      { encoding: 'utf8' },
    );
    return { status: result.status, stderr: result.stderr, dir };
  };

  it('name the tag and full SHA, carry the CHANGELOG section, the evidence and the sums, and say what provenance is not', () => {
    const evidence = extractEvidence(ciLog(), { sha, outcome: 'success' });
    const { status, dir } = notesFor(evidence);
    expect(status).toBe(0);
    const notes = readFileSync(join(dir, 'out/notes.md'), 'utf8');
    expect(notes).toContain(`the tag \`v${version}\` names commit \`${sha}\``);
    expect(notes).toContain(`uses: writ-actions/writ/actions/persist@${sha} # v${version}`);
    expect(notes).toContain(changelogSection(readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8'), version));
    expect(notes).toContain(renderEvidence(evidence).trim());
    expect(readFileSync(join(dir, 'out/ci-evidence.md'), 'utf8')).toBe(renderEvidence(evidence));
    // SHA256SUMS is what sha256sum says of the bundles, and sha256sum -c accepts it on this tree.
    const sums = readFileSync(join(dir, 'out/SHA256SUMS'), 'utf8');
    expect(sums).toBe(execFileSync('sha256sum', BUNDLES, { cwd: repoRoot, encoding: 'utf8' }));
    expect(notes).toContain(sums.trim());
    expect(spawnSync('sha256sum', ['-c', join(dir, 'out/SHA256SUMS')], { cwd: repoRoot }).status).toBe(0);
    // How to verify, bound to the release workflow and the commit; and never provenance as correctness.
    expect(notes).toContain(`--signer-workflow writ-actions/writ/${RELEASE_WORKFLOW}`);
    expect(notes).toContain(`--source-digest ${sha}`);
    expect(notes).toContain('It does not prove that the bundle works');
    expect(notes).not.toMatch(/attestation (proves|guarantees) (that )?(it|the bundle) (works|is correct)/);
  });

  it('refuse evidence that is not passing, or is for another commit, and a version without a CHANGELOG section', () => {
    const failing = notesFor(extractEvidence(ciLog({ failed: 1 }), { sha, outcome: 'failure' }));
    expect(failing).toMatchObject({
      status: 1,
      stderr: '::error::the CI evidence is not passing: no release\n',
    });
    const elsewhere = notesFor(extractEvidence(ciLog(), { sha: OTHER, outcome: 'success' }));
    expect(elsewhere.status).toBe(1);
    expect(elsewhere.stderr).toContain('the CI evidence is for another commit');
    expect(() => checkEvidence(undefined, sha)).toThrow('not passing');
    expect(() => changelogSection('# Changelog\n\n## [0.1.0] - 2026-01-01\n\n- x\n', '9.9.9')).toThrow(
      "CHANGELOG.md has no '## [9.9.9]' section",
    );
  });
});

/**
 * The flags `gh attestation verify` defines (cli/cli, pkg/cmd/attestation/verify/verify.go, read through
 * the code index: general flags, then the policy flags; --format/--jq/--template from AddFormatFlags).
 */
const GH_VERIFY_FLAGS = new Set([
  '--bundle',
  '--bundle-from-oci',
  '--digest-alg',
  '--owner',
  '--repo',
  '--no-public-good',
  '--custom-trusted-root',
  '--limit',
  '--format',
  '--jq',
  '--template',
  '--hostname',
  '--predicate-type',
  '--deny-self-hosted-runners',
  '--cert-identity',
  '--cert-identity-regex',
  '--signer-repo',
  '--signer-workflow',
  '--cert-oidc-issuer',
  '--signer-digest',
  '--source-ref',
  '--source-digest',
]);

/** The `gh attestation verify` commands of a text's sh blocks, continuation lines joined. */
const verifyCommands = (markdown: string): string[] =>
  [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => (block[1] ?? '').replace(/\\\n\s*/g, ' ').split('\n'))
    .filter((line) => line.includes('gh attestation verify'));

describe('how a user verifies a pinned SHA (docs/releases.md, and the notes)', () => {
  const doc = readFileSync(join(repoRoot, 'docs/releases.md'), 'utf8');
  const notes = renderNotes({
    version: '1.2.3',
    sha: SHA,
    repository: 'writ-actions/writ',
    changelog: '- x',
    evidenceMarkdown: '',
    sums: '',
  });

  it('uses only flags gh defines, and binds the bundle to this repository, the release workflow, the commit and main', () => {
    for (const [where, commands] of [
      ['docs/releases.md', verifyCommands(doc)],
      ['the notes', verifyCommands(notes)],
    ] as const) {
      expect([where, commands.length]).toEqual([where, 1]);
      const command = commands[0] ?? '';
      for (const flag of command.match(/--[a-z-]+/g) ?? [])
        expect([flag, GH_VERIFY_FLAGS.has(flag)]).toEqual([flag, true]);
      expect(command).toContain('--repo writ-actions/writ');
      expect(command).toContain(`--signer-workflow writ-actions/writ/${RELEASE_WORKFLOW}`);
      expect(command).toMatch(/--source-digest (\$sha|"\$sha"|a{40})/);
      expect(command).toContain('--source-ref refs/heads/main');
      expect(command).toContain('--deny-self-hosted-runners');
    }
  });

  it('says what an attestation does not prove, and never that it proves the bundle works', () => {
    expect(doc).toContain('## What an attestation does not prove');
    expect(doc).toContain('**that the bundle works**');
    for (const text of [doc, notes]) {
      expect(text).toContain('An attestation proves where and from what a bundle was built');
      expect(text).not.toMatch(
        /attestation[^.]*\b(proves|guarantees|shows) (that )?(it|the bundle) (works|is correct|is safe)/i,
      );
    }
  });
});

describe('the CI workflow', () => {
  const ciPath = '.github/workflows/ci.yml';
  const ciText = readFileSync(join(repoRoot, ciPath), 'utf8');
  const ci = parse(ciText) as {
    on: Record<string, unknown>;
    permissions: unknown;
    jobs: Record<string, Job>;
  };
  const steps = ci.jobs.ci?.steps ?? [];

  it('passes actionlint', async () => {
    expect(await lintWorkflow(ciText, ciPath)).toEqual([]);
  });

  it('runs on pull requests, pushes to main, and when the release calls it', () => {
    expect(ci.on).toEqual({ pull_request: null, push: { branches: ['main'] }, workflow_call: null });
  });

  it('reads the repository and nothing more, with every action pinned by its full commit SHA', () => {
    expect(ci.permissions).toEqual({ contents: 'read' });
    for (const job of Object.values(ci.jobs))
      expect(job.permissions ?? { contents: 'read' }).toEqual({ contents: 'read' });
    const uses = ciText.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(PIN);
  });

  it('pins each action at one commit across the workflows', () => {
    const pins = new Map<string, Set<string>>();
    for (const file of readdirSync(join(repoRoot, '.github/workflows'))) {
      const content = readFileSync(join(repoRoot, '.github/workflows', file), 'utf8');
      for (const [, action = '', pin = ''] of content.matchAll(/uses: ([\w.-]+\/[\w.-]+)@(\S+ # \S+)/g)) {
        pins.set(action, new Set([...(pins.get(action) ?? []), pin]));
      }
    }
    expect(pins.size).toBeGreaterThanOrEqual(5);
    for (const [action, seen] of pins) expect([action, seen.size]).toEqual([action, 1]);
  });

  it('runs .ci/run, which runs every check: the whole suite once, then the rest', () => {
    const runs = steps.flatMap((step) => step.run ?? []);
    expect(runs.filter((run) => run.includes('.ci/run'))).toEqual([
      'set -o pipefail\n.ci/run 2>&1 | tee "$RUNNER_TEMP/ci-run.log"\n',
    ]);
    const script = readFileSync(join(repoRoot, '.ci/run'), 'utf8');
    // Each step's command, in the order .ci/run runs them (a step line may continue on the next).
    const commands = [
      ...script.replace(/\\\n\s*/g, '').matchAll(/^step "[^"]+" (\S+(?: \S+)?(?: \S+)?)/gm),
    ].map((match) => match[1]);
    expect(commands).toEqual([
      'prerequisites',
      'npm ci --no-audit',
      // README's test command first after the install: on a clean clone, before anything is built.
      'tests_on_node24',
      'npm run test:unit',
      'npm run lint',
      'npm run typecheck',
      'npm run check-dist',
      'npm run check-mutations',
      'npm run model',
      'npm run lint:workflows',
    ]);
    expect(script).toMatch(
      /^tests_on_node24\(\) \{\n(?:.*\n)*?\s*(WRIT_CI_CLEAN_CLONE=1 )?bash \.ci\/node24\/run --coverage /m,
    );
    // The lines the evidence is read from are the ones .ci/run prints.
    expect(script).toContain('console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed`)');
    expect(script).toContain('echo "--- seconds per step"');
    expect(script).toContain('echo "total: $((SECONDS - started)) s"');
    expect(script).toMatch(/echo "CI passed\."\n$/);
  });

  it('keeps the evidence, passing or not: the job summary and the ci-evidence artifact, for github.sha', () => {
    const run = steps.findIndex((step) => step.id === 'run');
    const evidence = steps[run + 1];
    const upload = steps[run + 2];
    expect(evidence).toMatchObject({
      if: 'always()',
      env: { SHA: '${{ github.sha }}', OUTCOME: '${{ steps.run.outcome }}' },
    });
    expect(evidence?.run).toContain('node scripts/release/ci-evidence.mjs --log "$RUNNER_TEMP/ci-run.log"');
    expect(evidence?.run).toContain('--out-dir "$RUNNER_TEMP/ci-evidence" >> "$GITHUB_STEP_SUMMARY"');
    expect(upload).toEqual({
      uses: 'actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f',
      if: 'always()',
      with: {
        name: 'ci-evidence',
        path: '${{ runner.temp }}/ci-evidence/',
        'if-no-files-found': 'error',
        'retention-days': 90,
      },
    });
  });
});

describe("Dependabot's configuration", () => {
  const config = parse(readFileSync(join(repoRoot, '.github/dependabot.yml'), 'utf8')) as {
    version: number;
    updates: {
      'package-ecosystem': string;
      directory: string;
      schedule: { interval: string };
      cooldown: Record<string, number>;
      groups: Record<string, unknown>;
    }[];
  };

  it("updates this repository's workflows and npm dependencies weekly, grouped, after a cooldown", () => {
    expect(config.version).toBe(2);
    expect(config.updates.map((update) => [update['package-ecosystem'], update.directory])).toEqual([
      ['github-actions', '/'],
      ['npm', '/'],
    ]);
    // The cooldown keys GitHub documents (Dependabot options reference, `cooldown`), 1 to 90 days.
    const keys = ['default-days', 'semver-major-days', 'semver-minor-days', 'semver-patch-days'];
    for (const update of config.updates) {
      expect(update.schedule.interval).toBe('weekly');
      expect(update.cooldown['default-days']).toBeGreaterThan(0);
      for (const [key, days] of Object.entries(update.cooldown)) {
        expect([key, keys.includes(key), days >= 1 && days <= 90]).toEqual([key, true, true]);
      }
      expect(Object.keys(update.groups).length).toBeGreaterThan(0);
    }
  });
});
