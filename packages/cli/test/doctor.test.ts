import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { ledgerRulesets } from '@writ/core/ledger/rulesets.js';
import {
  defaultConfig,
  defaultPolicy,
  renderAllowlist,
  renderConfig,
  renderPolicy,
} from '@writ/core/setup/files.js';
import { renderWorkflows } from '@writ/core/setup/templates.js';
import { runCli } from '@writ/cli/cli.js';
import { CASE_IDS } from '@writ/core/probe/evidence.js';
import { createProject } from '@writ/github-emulator/projects.js';
import validateDoctorReport from '../../core/src/generated/doctor-report-validator.js';
import {
  DEFAULT_FIELD_NAMES,
  PROJECT_VALUE_KEYS,
  PROJECT_VOCABULARY,
} from '../../core/src/projects/values.js';
import type { WritConfig } from '../../core/src/setup/types.js';
import { Conformance } from '../../github-emulator/test/support/conformance.js';

const APP_TOKEN = 'ghs_doctorAppToken000000000000000000000';
const ADMIN = 'ghp_doctorAdminToken00000000000000000000';
const NARROW_APP = 'ghs_doctorNarrowAppToken00000000000000';
const ADMIN_READ_APP = 'ghs_doctorAdminReadAppToken00000000000';
const PROJECT_APP = 'ghs_doctorProjectAppToken0000000000000';
const REF = 'c'.repeat(40);

const conformance = new Conformance('packages/cli/test/doctor.test.ts');
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});
afterAll(() => {
  conformance.write();
  expect(conformance.report.failures).toEqual([]);
});

type Change =
  | 'none'
  | 'no-writers-ruleset'
  | 'app-bypasses-append-only'
  | 'no-ledger'
  | 'no-pull-requests'
  | 'force-push-allowed'
  | 'no-required-checks'
  | 'no-reviews'
  | 'broad-bypass'
  | 'write-default'
  | 'actions-approve'
  | 'unpinned-writ'
  | 'injection'
  | 'no-permissions'
  | 'pull-request-target'
  | 'bad-policy'
  | 'no-evidence'
  | 'stale-evidence'
  | 'foreign-evidence'
  | 'bad-evidence'
  | 'no-codeowners'
  | 'codeowners-gap'
  | 'no-code-owner-review'
  | 'environment-in-config';

/** Probe evidence as the probe writes it: the realistic world's (every case negative) unless `positive`. */
function evidenceText(apiUrl: string, finished: string, positive = false): string {
  const classification = positive ? 'positive' : 'negative';
  return `${JSON.stringify({
    schema: 1,
    sandbox: 'acme/sandbox',
    api_url: apiUrl,
    writ: { version: '0.1.0', commit: null },
    probe_run: 'gh-1-1',
    started_at: finished,
    finished_at: finished,
    cases: CASE_IDS.map((id) => ({
      id,
      classification,
      attempts: [
        {
          surface: 'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
          classification,
          control_status: 200,
          status: positive ? 412 : 200,
          error_code: null,
          read_back: positive ? 'unchanged' : 'applied',
          reason: positive ? 'refused-unchanged' : 'applied',
          at: finished,
        },
      ],
    })),
    primitives: [],
    cleanup: { removed: 19, left: [] },
  })}\n`;
}

async function world(
  change: Change,
  positive = false,
  layout: 'dotcom' | 'ghes' = 'dotcom',
  extra: Partial<WritConfig> = {},
): Promise<Record<string, string>> {
  emulator = await startEmulator({
    layout,
    seed: 7,
    startTime: Date.parse('2026-11-30T09:00:00Z'),
    onExchange: (exchange) => conformance.observe(exchange),
  });
  const { admin } = emulator;
  admin.createUser({ login: 'acme' });
  const app = admin.createApp({ slug: 'acme-writ' });
  admin.createToken({ token: ADMIN, kind: 'pat', login: 'acme' });
  admin.createToken({
    token: APP_TOKEN,
    kind: 'installation',
    app: 'acme-writ',
    permissions: { contents: 'write', issues: 'write', pull_requests: 'write', administration: 'write' },
  });
  admin.createToken({
    token: NARROW_APP,
    kind: 'installation',
    app: 'acme-writ',
    permissions: { contents: 'write', issues: 'write', pull_requests: 'write' },
  });
  admin.createToken({
    token: ADMIN_READ_APP,
    kind: 'installation',
    app: 'acme-writ',
    permissions: { contents: 'write', issues: 'write', pull_requests: 'write', administration: 'read' },
  });
  admin.createToken({
    token: PROJECT_APP,
    kind: 'installation',
    app: 'acme-writ',
    permissions: {
      contents: 'write',
      issues: 'write',
      pull_requests: 'write',
      administration: 'write',
      organization_projects: 'read',
    },
  });
  admin.createToken({
    token: 'ghs_noContentsToken0000000000000000000',
    kind: 'installation',
    app: 'acme-writ',
    permissions: { issues: 'read' },
  });
  const config = {
    ...defaultConfig(),
    app: { slug: 'acme-writ', id: app.app_id },
    ...(change === 'environment-in-config' ? { environment: 'writ' } : {}),
    ...extra,
  };
  const files: Record<string, string> = {
    'README.md': 'widgets\n',
    '.writ/config.json': renderConfig(config),
    '.writ/policy.json':
      change === 'bad-policy' ? '{"schema":1,"kinds":{}}\n' : renderPolicy(defaultPolicy()),
    '.writ/probe-allowlist.json': renderAllowlist({ schema: 1, repositories: [] }),
  };
  if (change === 'codeowners-gap') {
    // The workflows have no line, and the last line matching the evidence names no owner.
    files['.github/CODEOWNERS'] = '/.writ/ @acme\n/.writ/probe-evidence.json\n';
  } else if (change !== 'no-codeowners') {
    files['.github/CODEOWNERS'] =
      '# owners\n*.md @acme\n/.writ/ @acme\n/.github/workflows/ @acme/maintainers\n';
  }
  if (change !== 'no-evidence') {
    files['.writ/probe-evidence.json'] =
      change === 'bad-evidence'
        ? '{"schema":1}\n'
        : evidenceText(
            change === 'foreign-evidence' ? 'https://ghe.example.com/api/v3' : emulator.url,
            change === 'stale-evidence' ? '2026-10-30T08:59:59Z' : '2026-11-30T08:00:00Z',
            positive,
          );
  }
  for (const file of renderWorkflows({
    pin: { repository: 'writ-actions/writ', ref: REF, version: 'v0.1.0' },
    config,
  })) {
    files[`.github/workflows/${file.path}`] = file.contents;
  }
  const ci = [
    'name: CI',
    'on:',
    change === 'pull-request-target' ? '  pull_request_target:' : '  pull_request:',
    ...(change === 'no-permissions' ? [] : ['permissions:', '  contents: read']),
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2',
    ...(change === 'pull-request-target'
      ? ['        with:', '          ref: ${{ github.event.pull_request.head.sha }}']
      : []),
    change === 'injection'
      ? '      - run: echo "${{ github.event.pull_request.title }}"'
      : '      - run: npm test',
  ];
  files['.github/workflows/ci.yml'] = `${ci.join('\n')}\n`;
  if (change === 'unpinned-writ') {
    const path = '.github/workflows/writ-preview.yml';
    files[path] = (files[path] ?? '').replace(`actions/preview@${REF}`, 'actions/preview@v0.1.0');
  }
  admin.createRepo({ owner: 'acme', name: 'widgets', private: true, files });
  const [appendOnly, writers] = ledgerRulesets('bot/writ-ledger', app.app_id);
  if (change === 'app-bypasses-append-only')
    admin.addRuleset('acme', 'widgets', { ...appendOnly, bypass_actors: writers.bypass_actors });
  else admin.addRuleset('acme', 'widgets', appendOnly);
  if (change !== 'no-writers-ruleset') admin.addRuleset('acme', 'widgets', writers);
  const pullRequest = {
    type: 'pull_request',
    parameters: {
      required_approving_review_count: change === 'no-reviews' ? 0 : 1,
      dismiss_stale_reviews_on_push: true,
      require_code_owner_review: change !== 'no-code-owner-review',
      require_last_push_approval: false,
      required_review_thread_resolution: false,
    },
  };
  const rules = [
    ...(change === 'no-pull-requests' ? [] : [pullRequest]),
    ...(change === 'force-push-allowed' ? [] : [{ type: 'non_fast_forward' }]),
    { type: 'deletion' },
    ...(change === 'no-required-checks'
      ? []
      : [
          {
            type: 'required_status_checks',
            parameters: {
              required_status_checks: [{ context: 'test' }],
              strict_required_status_checks_policy: true,
            },
          },
        ]),
  ];
  admin.addRuleset('acme', 'widgets', {
    name: 'main',
    target: 'branch',
    enforcement: 'active',
    conditions: { ref_name: { include: ['~DEFAULT_BRANCH'], exclude: [] } },
    rules,
    bypass_actors:
      change === 'broad-bypass' ? [{ actor_id: 4, actor_type: 'RepositoryRole', bypass_mode: 'always' }] : [],
  } as never);
  if (change === 'write-default')
    admin.setWorkflowPermissions('acme', 'widgets', { default_workflow_permissions: 'write' });
  if (change === 'actions-approve')
    admin.setWorkflowPermissions('acme', 'widgets', { can_approve_pull_request_reviews: true });
  if (change === 'environment-in-config') {
    admin.setEnvironment('acme', 'widgets', 'writ', {
      reviewers: [{ type: 'User', id: emulator.world.account('acme')?.id }],
      deployment_branch_policy: { protected_branches: true, custom_branch_policies: false },
    });
  }
  admin.clock({ advance_ms: 2000 });
  const env = { GITHUB_API_URL: emulator.url, GITHUB_REPOSITORY: 'acme/widgets' };
  if (change !== 'no-ledger') {
    const boot = await writ(
      ['bootstrap', '--apply', '--app-slug', 'acme-writ', '--app-id', String(app.app_id)],
      {
        ...env,
        GITHUB_TOKEN: APP_TOKEN,
      },
    );
    // Without both rulesets bootstrap creates the root and then reports it unproven, as doctor must.
    if (change !== 'no-writers-ruleset' && change !== 'app-bypasses-append-only') expect(boot.err).toBe('');
  }
  admin.clock({ advance_ms: 2000 });
  return env;
}

async function writ(
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, env, { stdout: (text) => (out += text), stderr: (text) => (err += text) });
  return { code, out, err };
}

interface Report {
  result: string;
  checks: { id: string; status: string; detail: string }[];
}

async function doctor(
  env: Record<string, string>,
  token = ADMIN,
  ...args: string[]
): Promise<Report & { exit: number }> {
  const run = await writ(['doctor', '--github', '--json', ...args], { ...env, GITHUB_TOKEN: token });
  const report = JSON.parse(run.out) as Report;
  expect(validateDoctorReport(report)).toBe(true);
  return { exit: run.code, ...report };
}

const notPass = (report: Report): Record<string, string> =>
  Object.fromEntries(
    report.checks.filter((entry) => entry.status !== 'PASS').map((entry) => [entry.id, entry.status]),
  );

describe('writ doctor --github', () => {
  it('passes every check on a repository set up as writ init prints', async () => {
    const env = await world('none');
    const report = await doctor(env);
    expect(notPass(report)).toEqual({});
    expect(report.result).toBe('PASS');
    expect(report.exit).toBe(0);
    expect(report.checks).toHaveLength(17);
    expect(report.checks.find((entry) => entry.id === 'probe-evidence')?.detail).toMatch(
      /is valid and fresh; under require-proof it opens no kind; closed: milestone\.upsert \(case 1 negative, case 4 negative\)/,
    );
    const table = await writ(['doctor', '--github'], { ...env, GITHUB_TOKEN: ADMIN });
    expect(table.out).toMatch(/^writ doctor: acme\/widgets\n\nPASS    ledger-rulesets /);
    expect(table.out).toContain('17 PASS, 0 WARN, 0 FAIL, 0 UNKNOWN');
    expect(report.checks.find((entry) => entry.id === 'codeowners')?.detail).toMatch(
      /^\.writ\/ and \.github\/workflows\/ are owned by "@acme", "@acme\/maintainers" in \.github\/CODEOWNERS, and main requires a code owner's review/,
    );
    expect(report).not.toHaveProperty('environment');
  });

  it('passes every check against GitHub Enterprise Server (REST under /api/v3, GraphQL at /api/graphql)', async () => {
    // bootstrap commits the ledger root through GraphQL, doctor reads REST and GraphQL: both must find
    // GHES's endpoints from GITHUB_API_URL=https://<host>/api/v3 alone.
    const env = await world('none', false, 'ghes');
    expect(env.GITHUB_API_URL).toMatch(/\/api\/v3$/);
    const report = await doctor(env);
    expect(notPass(report)).toEqual({});
    expect(report.exit).toBe(0);
    const graphqlPaths = (emulator?.admin.requests() ?? [])
      .filter((entry) => entry.path.includes('graphql'))
      .map((entry) => [entry.path, entry.status]);
    expect(graphqlPaths.length).toBeGreaterThan(0);
    expect(new Set(graphqlPaths.map(([path, status]) => `${String(path)} ${String(status)}`))).toEqual(
      new Set(['/api/graphql 200']),
    );
  });

  it.each<[Change, Record<string, string>]>([
    ['no-writers-ruleset', { 'ledger-rulesets': 'FAIL', 'ledger-provenance': 'UNKNOWN' }],
    ['app-bypasses-append-only', { 'ledger-rulesets': 'FAIL', 'ledger-provenance': 'UNKNOWN' }],
    ['no-ledger', { 'ledger-provenance': 'FAIL' }],
    [
      'no-pull-requests',
      { 'default-branch-pull-requests': 'FAIL', 'default-branch-reviews': 'WARN', codeowners: 'WARN' },
    ],
    ['force-push-allowed', { 'default-branch-force-push-deletion': 'FAIL' }],
    ['no-required-checks', { 'default-branch-required-checks': 'WARN' }],
    ['no-reviews', { 'default-branch-reviews': 'WARN' }],
    ['broad-bypass', { 'default-branch-bypass': 'WARN' }],
    ['write-default', { 'workflow-default-permissions': 'WARN' }],
    ['actions-approve', { 'actions-approve-pull-requests': 'WARN' }],
    ['unpinned-writ', { 'workflow-pins': 'FAIL' }],
    ['injection', { 'workflow-run-injection': 'FAIL' }],
    ['no-permissions', { 'workflow-permissions': 'FAIL' }],
    ['pull-request-target', { 'workflow-pull-request-target': 'FAIL' }],
    ['bad-policy', { 'writ-files': 'FAIL' }],
    ['no-evidence', { 'probe-evidence': 'WARN' }],
    ['stale-evidence', { 'probe-evidence': 'WARN' }],
    ['foreign-evidence', { 'probe-evidence': 'WARN' }],
    ['bad-evidence', { 'probe-evidence': 'FAIL' }],
    ['no-codeowners', { codeowners: 'WARN' }],
    ['codeowners-gap', { codeowners: 'WARN' }],
    ['no-code-owner-review', { codeowners: 'WARN' }],
    ['environment-in-config', {}],
  ])('reports %s as exactly that', async (change, expected) => {
    const report = await doctor(await world(change));
    expect(notPass(report)).toEqual(expected);
    const failing = Object.values(expected).includes('FAIL');
    expect(report.exit).toBe(failing ? 1 : 0);
  });

  it('reports what a token without administration cannot see as UNKNOWN, never PASS', async () => {
    const env = await world('none');
    const report = await doctor(env, NARROW_APP);
    expect(notPass(report)).toEqual({
      'ledger-rulesets': 'UNKNOWN',
      'ledger-provenance': 'UNKNOWN',
      'default-branch-bypass': 'UNKNOWN',
      'workflow-default-permissions': 'UNKNOWN',
      'actions-approve-pull-requests': 'UNKNOWN',
    });
    expect(report.result).toBe('UNKNOWN');
    // A misconfiguration only classic protection could hide is UNKNOWN too, not PASS.
    await emulator?.close();
    const hidden = await doctor(await world('no-required-checks'), NARROW_APP);
    expect(hidden.checks.find((entry) => entry.id === 'default-branch-required-checks')?.status).toBe(
      'UNKNOWN',
    );
  });

  it('tells an app with administration read only that the rulesets exist but their bypass actors are hidden', async () => {
    const report = await doctor(await world('none'), ADMIN_READ_APP);
    const rulesets = report.checks.find((entry) => entry.id === 'ledger-rulesets') as
      { status: string; detail: string; fix?: string } | undefined;
    expect(rulesets).toMatchObject({
      status: 'UNKNOWN',
      detail: expect.stringContaining(
        'exist, but their bypass actors are not visible to this token (GitHub shows bypass_actors only to a token that can write rulesets)',
      ) as unknown as string,
      fix: "Grant the Writ app administration read and write (or run doctor with a repository admin's token); the rulesets exist, do not recreate them.",
    });
    expect(JSON.stringify(report)).not.toMatch(/administration: read\b/);
  });

  it('names the kinds positive evidence opens, and is UNKNOWN to a token that cannot read contents', async () => {
    const report = await doctor(await world('none', true));
    expect(report.checks.find((entry) => entry.id === 'probe-evidence')).toMatchObject({
      status: 'PASS',
      detail: expect.stringMatching(
        /opens milestone\.upsert, milestone\.edit, issue\.set-milestone, issue\.labels, issue\.create, comment\.upsert \(policy/,
      ) as unknown as string,
    });
    await emulator?.close();
    const bare = await doctor(await world('no-evidence'), 'ghs_noContentsToken0000000000000000000');
    expect(bare.checks.find((entry) => entry.id === 'probe-evidence')?.status).toBe('UNKNOWN');
  });

  it('passes the default branch on classic branch protection alone', async () => {
    const env = await world('no-pull-requests');
    emulator?.admin.setBranchProtection('acme', 'widgets', 'main', {
      required_status_checks: { strict: true, contexts: ['test'] },
      enforce_admins: true,
      required_pull_request_reviews: { required_approving_review_count: 1, require_code_owner_reviews: true },
      restrictions: null,
    });
    expect(notPass(await doctor(env))).toEqual({});
  });

  it('names the guarded paths CODEOWNERS leaves unowned, and why', async () => {
    const gap = await doctor(await world('codeowners-gap'));
    const detail = gap.checks.find((entry) => entry.id === 'codeowners')?.detail ?? '';
    expect(detail).toMatch(/^\.github\/CODEOWNERS on main leaves \d+ guarded path\(s\) without an owner/);
    expect(detail).toContain(
      '".writ/probe-evidence.json" (line 2 "/.writ/probe-evidence.json" names no owner)',
    );
    expect(detail).toContain('".github/workflows/ci.yml" (no line matches)');
    await emulator?.close();
    const none = await doctor(await world('no-codeowners'));
    expect(none.checks.find((entry) => entry.id === 'codeowners')).toMatchObject({
      status: 'WARN',
      detail:
        "No CODEOWNERS on main (.github/CODEOWNERS, CODEOWNERS, docs/CODEOWNERS): a change to .writ/ or .github/workflows/ needs no code owner's review.",
    });
    await emulator?.close();
    const review = await doctor(await world('no-code-owner-review'));
    expect(review.checks.find((entry) => entry.id === 'codeowners')?.detail).toMatch(
      /but no rule on main requires a code owner's review/,
    );
  });

  it('reads CODEOWNERS where GitHub looks, the first place first, and is UNKNOWN when it cannot read', async () => {
    const env = await world('no-codeowners');
    const admin = emulator?.admin;
    // docs/ is GitHub's last place: used while no earlier one exists, ignored once the root has one.
    admin?.commitFiles('acme', 'widgets', {
      branch: 'main',
      files: { 'docs/CODEOWNERS': '* @acme\n' },
    });
    const fromDocs = await doctor(env);
    expect(fromDocs.checks.find((entry) => entry.id === 'codeowners')?.detail).toMatch(
      /in docs\/CODEOWNERS,/,
    );
    admin?.commitFiles('acme', 'widgets', { branch: 'main', files: { CODEOWNERS: '/.writ/ @acme\n' } });
    const fromRoot = await doctor(env);
    expect(fromRoot.checks.find((entry) => entry.id === 'codeowners')).toMatchObject({
      status: 'WARN',
      detail: expect.stringMatching(/^CODEOWNERS on main leaves/) as unknown as string,
    });
    const bare = await doctor(env, 'ghs_noContentsToken0000000000000000000');
    expect(bare.checks.find((entry) => entry.id === 'codeowners')?.status).toBe('UNKNOWN');
    // GitHub ignores a CODEOWNERS of 3 MB or more.
    admin?.commitFiles('acme', 'widgets', {
      branch: 'main',
      files: { '.github/CODEOWNERS': `* @acme\n${'#'.repeat(3 * 1024 * 1024)}\n` },
    });
    const huge = await doctor(env);
    expect(huge.checks.find((entry) => entry.id === 'codeowners')).toMatchObject({
      status: 'WARN',
      detail: expect.stringMatching(
        /^\.github\/CODEOWNERS on main is not used: it is \d+ bytes, and GitHub ignores a CODEOWNERS of 3 MB or more/,
      ) as unknown as string,
    });
  });

  it('names the lines GitHub skips, and is UNKNOWN when the required review is not visible', async () => {
    const env = await world('no-code-owner-review');
    emulator?.admin.commitFiles('acme', 'widgets', {
      branch: 'main',
      files: { '.github/CODEOWNERS': '* @acme\n!/.writ/ @acme\n/.github/ @acme not-an-owner\n' },
    });
    const report = await doctor(env);
    expect(report.checks.find((entry) => entry.id === 'codeowners')?.detail).toMatch(
      /owned by "@acme" in \.github\/CODEOWNERS; GitHub skips or ignores part of line\(s\) 2, 3, but no rule on main requires/,
    );
    // Classic protection could require it, and this token cannot read classic protection.
    const narrow = await doctor(env, NARROW_APP);
    expect(narrow.checks.find((entry) => entry.id === 'codeowners')?.status).toBe('UNKNOWN');
  });

  it('reports the Environment named in .writ/config.json with its protection', async () => {
    const report = await doctor(await world('environment-in-config'));
    expect(report.checks).toHaveLength(18);
    expect(report).toMatchObject({ environment: 'writ', result: 'PASS' });
    expect(report.checks.find((entry) => entry.id === 'environment-protection')?.detail).toBe(
      'The environment "writ": required reviewers (1), only protected branches may deploy, administrators may bypass it.',
    );
  });

  it.each<[string, Record<string, unknown> | null, string, RegExp]>([
    [
      'required reviewers and a branch policy',
      {
        reviewers: [{ type: 'User', id: 'acme' }],
        prevent_self_review: true,
        wait_timer: 10,
        can_admins_bypass: false,
        deployment_branch_policy: { protected_branches: false, custom_branch_policies: true },
      },
      'PASS',
      /^The environment "writ": required reviewers \(1, self-review prevented\), only branches matching its name patterns may deploy, a 10-minute wait timer\.$/,
    ],
    [
      'no required reviewers',
      { deployment_branch_policy: { protected_branches: true, custom_branch_policies: false } },
      'WARN',
      /exists but releases its secrets without an approval: no required reviewers, only protected branches/,
    ],
    [
      'no branch policy',
      { reviewers: [{ type: 'User', id: 'acme' }] },
      'WARN',
      /exists but lets any branch deploy: required reviewers \(1\), every branch may deploy/,
    ],
    ['no protection at all', {}, 'WARN', /releases its secrets without an approval/],
    [
      'a missing environment',
      null,
      'FAIL',
      /^The environment "writ" named in \.writ\/config\.json does not exist/,
    ],
  ])('reports an Environment with %s as %s', async (_what, spec, status, detail) => {
    const env = await world('none');
    const acme = emulator?.world.account('acme')?.id;
    if (spec !== null) {
      const reviewers = (spec.reviewers as { type: string }[] | undefined)?.map((entry) => ({
        ...entry,
        id: acme,
      }));
      emulator?.admin.setEnvironment('acme', 'widgets', 'writ', {
        ...spec,
        ...(reviewers === undefined ? {} : { reviewers }),
      });
    }
    emulator?.admin.setEnvironment('acme', 'widgets', 'staging', {});
    const report = await doctor(env, ADMIN, '--environment', 'writ');
    expect(report.checks.find((entry) => entry.id === 'environment-protection')).toMatchObject({
      status,
      detail: expect.stringMatching(detail) as unknown as string,
    });
    expect(report.exit).toBe(status === 'FAIL' ? 1 : 0);
  });

  it('is UNKNOWN, never missing, when the token cannot read environments', async () => {
    const env = await world('none');
    emulator?.admin.setEnvironment('acme', 'widgets', 'writ', {});
    // The Writ app without actions: read gets 403 from GitHub's environment endpoints.
    const narrow = await doctor(env, NARROW_APP, '--environment', 'writ');
    expect(narrow.checks.find((entry) => entry.id === 'environment-protection')).toMatchObject({
      status: 'UNKNOWN',
      detail: 'Cannot read the environment "writ" (HTTP 403).',
    });
    // A 404 on the environment with the list unreadable is not proof it is missing.
    emulator?.admin.addFault({
      match: { method: 'GET', path: '/repos/acme/widgets/environments' },
      fault: { type: 'status', status: 403 },
    } as never);
    const hidden = await doctor(env, ADMIN, '--environment', 'production');
    expect(hidden.checks.find((entry) => entry.id === 'environment-protection')?.status).toBe('UNKNOWN');
    const refused = await writ(['doctor', '--github', '--environment', 'a b\u001b[2J'], {
      ...env,
      GITHUB_TOKEN: ADMIN,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/invalid --environment/);
    expect(refused.err).not.toContain('\u001b');
  });

  describe('project-board (a project named in .writ/config.json)', () => {
    const vocabulary: Record<string, readonly string[]> = PROJECT_VOCABULARY;
    /** Every field the projection writes, as docs/projects.md lists them. */
    const fullFields = (): { name: string; type: string; options?: string[] }[] =>
      PROJECT_VALUE_KEYS.map((key) => {
        const name = DEFAULT_FIELD_NAMES[key];
        const options = vocabulary[key];
        return options === undefined
          ? { name, type: 'TEXT' }
          : { name, type: 'SINGLE_SELECT', options: [...options] };
      });
    async function boardWorld(
      fields: { name: string; type: string; options?: string[] }[],
      owner = 'acme-org',
      number = 1,
    ): Promise<Record<string, string>> {
      const env = await world('none', false, 'dotcom', { project: { owner, number } });
      const current = emulator as Emulator;
      current.admin.createUser({ login: 'acme-org', type: 'Organization' });
      createProject(current.world, { owner: 'acme-org', title: 'Runs', fields });
      createProject(current.world, { owner: 'acme', title: 'Mine', fields: fullFields() });
      return env;
    }
    const board = (report: Report) => report.checks.find((entry) => entry.id === 'project-board');

    it('passes an open organization project with every field and option', async () => {
      const env = await boardWorld(fullFields());
      const report = await doctor(env, PROJECT_APP);
      expect(report.checks).toHaveLength(18);
      expect(board(report)).toEqual({
        id: 'project-board',
        status: 'PASS',
        detail:
          'The project "acme-org"/1 is open, owned by an organization and has every field the projection writes (Writ state, Risk, Verification, Decision, Blockers, Writ milestone).',
      });
      // Without a project in the config there is no such check.
      await emulator?.close();
      const plain = await doctor(await world('none'));
      expect(plain.checks.map((entry) => entry.id)).not.toContain('project-board');
    });

    it("warns with what the projection would skip, and prints GitHub's names escaped", async () => {
      const fields = fullFields()
        .filter((field) => field.name !== 'Blockers' && field.name !== 'Writ milestone')
        .map((field) => (field.name === 'Risk' ? { ...field, options: ['low', 'medium', 'high'] } : field));
      fields.push({ name: 'Writ milestone\u200b', type: 'TEXT' });
      fields.push({ name: 'Blockers', type: 'SINGLE_SELECT', options: ['none'] });
      const env = await boardWorld(fields);
      const project = emulator?.world.projects.find((entry) => entry.owner.login === 'acme-org');
      if (project !== undefined) project.closed = true;
      // A field of the right name and another type (a number) is skipped like a missing one.
      const decision = project?.fields.find((field) => field.name === 'Decision');
      if (decision !== undefined) Object.assign(decision, { dataType: 'NUMBER', options: [] });
      const report = await doctor(env, PROJECT_APP);
      const entry = board(report);
      expect(entry?.status).toBe('WARN');
      expect(entry?.detail).toBe(
        'The project "acme-org"/1: the project is closed (reopen it in its settings); field "Risk" lacks option(s) unknown; field "Decision" is NUMBER, not text or single-select; field "Blockers" is single-select but its values are free text: make it a text field; no field "Writ milestone" (names match exactly; the project has "Writ milestone\\u200b"). The projection skips what is missing and writes the rest.',
      );
      expect(entry?.detail).not.toContain('\u200b');
      expect(report.exit).toBe(0);
    });

    it('fails a missing project and a user-owned one, whoever reads it', async () => {
      const missing = await doctor(
        await world('none', false, 'dotcom', { project: { owner: 'acme-org', number: 9 } }),
        PROJECT_APP,
      );
      // No organization acme-org in this world at all, and no user either.
      expect(board(missing)).toMatchObject({
        status: 'FAIL',
        detail: expect.stringMatching(
          /GitHub has no organization or user with that login\.$/,
        ) as unknown as string,
      });
      expect(missing.exit).toBe(1);
      await emulator?.close();
      const absent = await doctor(await boardWorld(fullFields(), 'acme-org', 9), PROJECT_APP);
      expect(board(absent)).toMatchObject({
        status: 'FAIL',
        detail: expect.stringMatching(
          /^The project "acme-org"\/9 named in \.writ\/config\.json does not exist/,
        ) as unknown as string,
      });
      await emulator?.close();
      const env = await boardWorld(fullFields(), 'acme', 1);
      // The app's token cannot reach a user's project at all; the owner's own PAT reads it.
      for (const token of [PROJECT_APP, ADMIN]) {
        const report = await doctor(env, token);
        expect(board(report)).toMatchObject({
          status: 'FAIL',
          detail: expect.stringMatching(
            /^The project "acme"\/1 (named in \.writ\/config\.json )?belongs to a user account/,
          ) as unknown as string,
          fix: expect.stringContaining('owned by an organization') as unknown as string,
        });
      }
    });

    it('is UNKNOWN when the token may not read the project (FORBIDDEN) or the request fails', async () => {
      const env = await boardWorld(fullFields());
      // The Writ app without organization_projects is answered FORBIDDEN.
      const narrow = await doctor(env, APP_TOKEN);
      expect(board(narrow)).toMatchObject({
        status: 'UNKNOWN',
        detail: 'Cannot read the project (project-access-denied: project acme-org/1 answered FORBIDDEN).',
        fix: expect.stringContaining('organization_projects') as unknown as string,
      });
      emulator?.admin.addFault({
        match: { method: 'POST', path: '/graphql' },
        fault: { type: 'status', status: 502 },
      } as never);
      const failed = await doctor(env, PROJECT_APP);
      expect(board(failed)).toMatchObject({ status: 'UNKNOWN' });
      expect(board(failed)?.detail).toMatch(/^Cannot read the project "acme-org"\/1 \(HTTP 502\)\.$/);
    });
  });

  describe('pages-source ("pages": true in .writ/config.json)', () => {
    const pages = (report: Report) => report.checks.find((entry) => entry.id === 'pages-source');

    it('passes when GitHub Actions builds the site, with every other check still passing', async () => {
      const env = await world('none', false, 'dotcom', { pages: true });
      emulator?.admin.setPages('acme', 'widgets', { build_type: 'workflow' });
      const report = await doctor(env);
      expect(notPass(report)).toEqual({});
      expect(report.checks).toHaveLength(18);
      expect(pages(report)).toEqual({
        id: 'pages-source',
        status: 'PASS',
        detail:
          'GitHub Pages is built by GitHub Actions (build_type workflow): the recovery workflow can deploy the control tower.',
      });
    });

    it('warns when the site is built from a branch or Pages is off, and is UNKNOWN without pages: read', async () => {
      const env = await world('none', false, 'dotcom', { pages: true });
      const off = await doctor(env);
      expect(pages(off)).toMatchObject({
        status: 'WARN',
        detail: expect.stringMatching(
          /^GitHub Pages is not enabled on this repository \(HTTP 404\)/,
        ) as unknown as string,
        fix: expect.stringContaining('Source: GitHub Actions') as unknown as string,
      });
      expect(off.exit).toBe(0);
      emulator?.admin.setPages('acme', 'widgets', { build_type: 'legacy' });
      const legacy = await doctor(env);
      expect(pages(legacy)).toMatchObject({
        status: 'WARN',
        detail: expect.stringContaining('(build_type "legacy")') as unknown as string,
        fix: expect.stringContaining('Source: GitHub Actions') as unknown as string,
      });
      // The Writ app without pages: read is refused (403) on this private repository.
      const narrow = await doctor(env, NARROW_APP);
      expect(pages(narrow)).toMatchObject({
        status: 'UNKNOWN',
        detail: "Cannot read the repository's GitHub Pages settings (HTTP 403).",
      });
      await emulator?.close();
      const plain = await doctor(await world('none'));
      expect(plain.checks.map((entry) => entry.id)).not.toContain('pages-source');
    });
  });

  it('answers --help and refuses a missing repository', async () => {
    const help = await writ(['doctor', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: writ doctor --github/);
    // Outside any clone (no remote to take it from), with no --repo and no GITHUB_REPOSITORY.
    const outside = mkdtempSync(join(tmpdir(), 'writ-doctor-outside-'));
    const missing = await writ(['doctor', '--github'], { GITHUB_TOKEN: ADMIN, PWD: outside });
    rmSync(outside, { recursive: true, force: true });
    expect(missing.err).toMatch(/^invalid-input: No repository/);
  });
});
