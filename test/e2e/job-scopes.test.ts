/**
 * Each job's app token, minted with exactly the scopes the templates give it (setup/permissions.ts),
 * runs that job's stages through their bundles against the emulator, which checks every request against
 * the token's permissions as GitHub does (403 with X-Accepted-GitHub-Permissions): preview, approve,
 * persist, publish and release of the approval workflow, and the recovery sweep. A token narrower than
 * the table (the approve job's, without pull-requests, for publish; one without administration, for the
 * ledger proof) is refused, so the scopes are both enough and needed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitOnBranch } from '@writ/core/github/commit-on-branch.js';
import type { Access, WorkflowFile } from '../../packages/core/src/setup/permissions.js';
import { jobPermissions } from '../../packages/core/src/setup/permissions.js';
import type { SliceWorld } from '../support/world.js';
import {
  APP_SLUG,
  OWNER,
  PEOPLE,
  REPO,
  REPOSITORY,
  client,
  patOf,
  proposePlan,
  sliceWorld,
} from '../support/world.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-job-scopes-'));
const JOB = { GITHUB_RUN_ID: '8101', GITHUB_RUN_ATTEMPT: '1' };
let minted = 0;

beforeAll(async () => {
  world = await sliceWorld({ seed: 7 });
});

afterAll(async () => {
  await world.close();
});

/** An installation token of the Writ app with these permissions (the emulator's names: pull_requests). */
function mint(permissions: Readonly<Partial<Record<string, Access>>>): string {
  minted += 1;
  const token = `ghs_ScopedJobToken${String(minted).padStart(22, '0')}`;
  world.emulator.admin.createToken({
    token,
    kind: 'installation',
    app: APP_SLUG,
    permissions: Object.fromEntries(
      Object.entries(permissions).map(([scope, access]) => [scope.replace(/-/g, '_'), access]),
    ) as Record<string, Access>,
  });
  return token;
}

/** The token a job of the templates mints: create-github-app-token with the table's permission inputs. */
function jobToken(workflow: WorkflowFile, job: string): string {
  const row = jobPermissions(workflow, job);
  if (row.app === null) throw new Error(`${workflow} ${job} mints no app token`);
  return mint(row.app);
}

const lastSeq = (): number => world.emulator.admin.requests().at(-1)?.seq ?? 0;
/** The requests the emulator answered since `seq`, as `METHOD path status operation`. */
const requestsSince = (seq: number): string[] =>
  world.emulator.admin
    .requests()
    .filter((entry) => entry.seq > seq)
    .map((entry) => `${entry.method} ${entry.path} ${entry.status} ${entry.operation ?? ''}`.trim());

const ledger = (token: string): Record<string, string> => ({ ...world.ledgerInputs(), token });

function planFile(name: string, steps: unknown[]): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      schema: 1,
      title: `Job scopes: ${name}`,
      scope: { repository: REPOSITORY },
      bounds: { max_steps: 10, max_creates: 3, max_issues_touched: 5 },
      steps,
    }),
  );
  return path;
}

describe("each job's scoped app token runs that job's stages, and no narrower token does", () => {
  let plan: string;
  let runId: string;
  let epoch: string;
  let command: string;

  it('preview (writ-preview.yml preview) proposes the run and posts its status comment', async () => {
    plan = planFile('effects', [
      { id: 'm', kind: 'milestone.upsert', key: 'scopes:v1', title: 'Scopes v1', expect: { exists: false } },
      { id: 'epic', kind: 'issue.create', title: 'Epic: scoped tokens', body: 'Scoped.' },
      { id: 'note', kind: 'comment.upsert', issue: world.statusIssue, key: 'scopes:note', body: 'Noted.' },
    ]);
    const preview = await world.run('preview', {
      'plan-file': plan,
      'dry-run': 'false',
      'status-issue': String(world.statusIssue),
      ...ledger(jobToken('writ-preview.yml', 'preview')),
    });
    expect(preview.outputs).toMatchObject({ outcome: 'proposed', reason: '' });
    runId = preview.outputs['run-id']!;
    command = preview.outputs['approve-command']!;
  });

  it("approve (writ-approval.yml approve) consumes a writer's approval", async () => {
    const event = await world.comment({ login: PEOPLE.write }, command);
    const consume = await world.run(
      'consume-approval',
      { 'plan-file': plan, 'dry-run': 'false', ...ledger(jobToken('writ-approval.yml', 'approve')) },
      { event, env: JOB },
    );
    expect(consume.outputs).toMatchObject({ outcome: 'approved', reason: '', 'run-id': runId });
    epoch = consume.outputs.epoch!;
  });

  it("persist (writ-approval.yml persist) writes the plan's milestone, issue and comment and completes", async () => {
    // The owner's policy lets these kinds write without probe evidence (as test/e2e/persist.test.ts does).
    const admin = client(world.emulator, patOf(PEOPLE.admin));
    const head = (await admin.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/main' })).data.object
      .sha;
    const kinds = Object.fromEntries(
      [
        'milestone.upsert',
        'milestone.edit',
        'issue.set-milestone',
        'issue.labels',
        'issue.create',
        'comment.upsert',
      ].map((kind) => [kind, 'best-effort']),
    );
    await commitOnBranch(
      admin,
      {
        repository: REPOSITORY,
        branch: 'main',
        expectedHeadOid: head,
        headline: 'Writ policy: best-effort',
        body: '',
        additions: [{ path: '.writ/policy.json', contents: JSON.stringify({ schema: 1, kinds }) }],
      },
      'artifact',
    );
    const persist = await world.run(
      'persist',
      {
        'run-id': runId,
        'plan-file': plan,
        epoch,
        'persistence-enabled': 'true',
        'dry-run': 'false',
        ...ledger(jobToken('writ-approval.yml', 'persist')),
      },
      { env: JOB },
    );
    expect(persist.outputs).toMatchObject({ outcome: 'completed', reason: '', 'steps-done': '3' });
  });

  const publish = (token: string): ReturnType<SliceWorld['run']> => {
    const content = join(dir, 'artifact.md');
    writeFileSync(content, '# Scoped tokens\n');
    return world.run(
      'publish-artifact',
      {
        'run-id': runId,
        epoch,
        'plan-file': plan,
        path: 'docs/generated/artifact.md',
        'content-file': content,
        'dry-run': 'false',
        ...ledger(token),
      },
      { env: JOB },
    );
  };

  it('publish is refused with the approve job’s token, which holds no pull-requests scope', async () => {
    const since = lastSeq();
    const narrow = await publish(jobToken('writ-approval.yml', 'approve'));
    expect(narrow.outputs).toMatchObject({ outcome: 'refused', reason: 'github-request-failed' });
    // Its first read, the ledger's with the run's pull requests alongside, is refused (GraphQL FORBIDDEN on
    // the pull requests, which the token cannot see) and nothing is written; the next test runs the same
    // call with the publish job's token.
    expect(requestsSince(since)).toEqual(['POST /graphql 200 WritLedgerRead']);
    expect(narrow.outputs['pr-number'] ?? '').toBe('');
  });

  it("publish (writ-approval.yml publish) opens the run's one pull request", async () => {
    const published = await publish(jobToken('writ-approval.yml', 'publish'));
    expect(published.outputs).toMatchObject({ reason: '' });
    expect(['created', 'updated']).toContain(published.outputs.outcome);
    expect(Number(published.outputs['pr-number'])).toBeGreaterThan(0);
  });

  it('release (writ-approval.yml release) frees the lease of an approved run that did not persist', async () => {
    const other = planFile('released', [
      { id: 'epic', kind: 'issue.create', title: 'Epic: released unpersisted', body: 'Unpersisted.' },
    ]);
    world.emulator.admin.clock({ advance_ms: 15 * 60_000 }); // the first run's lease is long gone
    const proposed = await proposePlan(world, other);
    const event = await world.comment({ login: PEOPLE.write }, proposed.command);
    const job = { GITHUB_RUN_ID: '8102', GITHUB_RUN_ATTEMPT: '1' };
    const consume = await world.run(
      'consume-approval',
      { 'plan-file': other, 'dry-run': 'false', ...ledger(jobToken('writ-approval.yml', 'approve')) },
      { event, env: job },
    );
    expect(consume.outputs).toMatchObject({ outcome: 'approved' });
    const release = await world.run(
      'claim-checkpoint',
      {
        operation: 'release',
        'run-id': proposed.runId,
        epoch: consume.outputs.epoch!,
        'dry-run': 'false',
        ...ledger(jobToken('writ-approval.yml', 'release')),
      },
      { env: job },
    );
    expect(release.outputs).toMatchObject({ outcome: 'released', reason: '' });
  });

  it('recovery (writ-recovery.yml recovery) sweeps', async () => {
    const plan = planFile('recovered', [
      { id: 'epic', kind: 'issue.create', title: 'Epic: swept', body: 'Swept.' },
    ]);
    const sweep = await world.run('recovery', {
      'plan-file': plan,
      'dry-run': 'false',
      ...ledger(jobToken('writ-recovery.yml', 'recovery')),
    });
    expect(sweep.outputs).toMatchObject({ outcome: 'swept', reason: '' });
  });

  it('a token without administration cannot prove the ledger (the rulesets’ bypass actors are hidden)', async () => {
    const scopes = jobPermissions('writ-recovery.yml', 'recovery').app ?? {};
    expect(scopes.administration).toBe('write');
    const rest = Object.fromEntries(Object.entries(scopes).filter(([scope]) => scope !== 'administration'));
    const sweep = await world.run('recovery', {
      'plan-file': plan,
      'dry-run': 'false',
      ...ledger(mint(rest)),
    });
    expect(sweep.outputs).toMatchObject({ outcome: 'refused', reason: 'ruleset-bypass-unreadable' });
  });
});
