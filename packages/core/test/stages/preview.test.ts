/**
 * The preview stage in-process: its settings straight in, a dry run with no client at all, a writing
 * preview through the stage's own `connect` (real Octokit and plugins against the emulator on loopback).
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitOnBranch } from '../../src/github/commit-on-branch.js';
import { errorCode } from '../../src/errors.js';
import { verifyLedger } from '../../src/ledger/bootstrap.js';
import { readRun, readVerifiedRun } from '../../src/ledger/ledger.js';
import type { PreviewStageSettings } from '../../src/stages/preview.js';
import { previewStage } from '../../src/stages/preview.js';
import { OWNER, REPO, REPOSITORY } from '../ledger/support/emulator.js';
import type { StageWorld } from './support/stage-world.js';
import { recordingLogger, stageWorld } from './support/stage-world.js';

let world: StageWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function settings(
  current: StageWorld,
  planFile: string,
  overrides: Partial<PreviewStageSettings> = {},
): PreviewStageSettings {
  return {
    dryRun: false,
    statusIssue: current.statusIssue,
    planFile,
    planRoots: { workspace: current.workspace, runnerTemp: undefined },
    runId: '',
    commandPrefix: 'writ',
    outputDir: current.workspace,
    write: () => ({
      apiUrl: current.ledgerWorld.emulator.url,
      repository: { owner: OWNER, repo: REPO, full: REPOSITORY },
      actorId: 42,
      ledger: current.ledger,
    }),
    ...overrides,
  };
}

function depsOf(current: StageWorld, logger = recordingLogger()) {
  let connects = 0;
  return {
    logger,
    connects: () => connects,
    connect: () => {
      connects += 1;
      return Promise.resolve(current.deps(logger));
    },
  };
}

describe('preview stage, in-process', () => {
  it('a dry run validates, digests and renders without connecting or sending a request', async () => {
    world = await stageWorld();
    const deps = depsOf(world);
    const seq = world.lastSeq();
    const dry = settings(world, world.planFile('plan'), { dryRun: true });
    delete dry.write;
    const result = await previewStage(dry, deps);
    expect(deps.connects()).toBe(0);
    expect(world.ledgerWorld.emulator.admin.requests().filter((r) => r.seq > seq)).toEqual([]);
    const runId = String(result.outputs['run-id']);
    expect(runId).toMatch(/^run-[0-9a-f]{16}$/);
    expect(result.outputs).toMatchObject({
      outcome: 'previewed',
      reason: '',
      'status-comment-id': '',
      'base-sha': '',
      risk: 'medium',
      warnings: '[]',
      'approve-command': `writ: approve ${runId} ${String(result.outputs.digest).slice('sha256:'.length)}`,
    });
    const path = String(result.outputs['preview-path']);
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(result.summary);
    expect(deps.logger.lines).toContain(`info: approve with: ${String(result.outputs['approve-command'])}`);
  });

  it('proposes the run and posts its status comment; a re-run changes nothing and says so', async () => {
    world = await stageWorld();
    const deps = depsOf(world);
    const planFile = world.planFile('plan');
    const first = await previewStage(settings(world, planFile), deps);
    expect(first.outputs).toMatchObject({ outcome: 'proposed', reason: '' });
    const runId = String(first.outputs['run-id']);
    const commentId = first.outputs['status-comment-id'];
    expect(typeof commentId).toBe('number');
    const view = await readRun(world.ledgerWorld.context(), runId);
    expect(view.run).toMatchObject({ state: 'proposed', proposer: { actor_id: 42 } });
    expect(view.run?.status_comment).toMatchObject({ comment_id: commentId, pending_digest: null });
    expect(deps.logger.lines.some((line) => line.includes(`proposed run ${runId}`))).toBe(true);

    const seq = world.lastSeq();
    const again = await previewStage(settings(world, planFile), deps);
    expect(again.outputs).toMatchObject({ outcome: 'proposed', 'status-comment-id': commentId });
    expect(world.writesSince(seq)).toEqual([]);
    expect(deps.logger.lines.some((line) => line.includes(`already proposed run ${runId}`))).toBe(true);
    expect(deps.logger.lines.some((line) => line.includes('unchanged'))).toBe(true);
  });

  it('proposes with the status comment reserved in the same commit: the issue checked, the base and policy read, one read, the POST, one more commit', async () => {
    world = await stageWorld();
    const seq = world.lastSeq();
    const result = await previewStage(settings(world, world.planFile('plan')), depsOf(world));
    const sent = world.ledgerWorld.emulator.admin
      .requests()
      .filter((r) => r.seq > seq)
      .map((r) => (r.path === '/graphql' ? r.operation : `${r.method} ${r.path}`));
    const base = String(result.outputs['base-sha']);
    expect(base).toMatch(/^[0-9a-f]{40}$/);
    expect(sent).toEqual([
      `GET /repos/${REPOSITORY}/issues/${world.statusIssue}`,
      `GET /repos/${REPOSITORY}`,
      `GET /repos/${REPOSITORY}/git/ref/heads%2Fmain`,
      `GET /repos/${REPOSITORY}/contents/.writ%2Fpolicy.json?ref=${base}`,
      `GET /repos/${REPOSITORY}/contents/.writ%2Fprobe-evidence.json?ref=${base}`,
      'WritLedgerRead',
      'WritCommitOnBranch',
      `POST /repos/${REPOSITORY}/issues/${world.statusIssue}/comments`,
      'WritCommitOnBranch',
    ]);
    const view = await readRun(world.ledgerWorld.context(), String(result.outputs['run-id']));
    expect(view.run?.status_comment).toMatchObject({
      comment_id: result.outputs['status-comment-id'],
      pending_digest: null,
    });
  });

  it('a folded reservation whose POST had no answer is adopted by its marker on the re-run, never posted twice', async () => {
    world = await stageWorld();
    const planFile = world.planFile('plan');
    world.ledgerWorld.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${world.statusIssue}/comments` },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    const lost = await previewStage(settings(world, planFile), depsOf(world)).catch(
      (error: unknown) => error,
    );
    expect(errorCode(lost)).toBe('precheck-inconclusive');
    const again = await previewStage(settings(world, planFile), depsOf(world));
    const { data: comments } = await world.owner.rest.issues.listComments({
      owner: OWNER,
      repo: REPO,
      issue_number: world.statusIssue,
    });
    expect(comments.map((comment) => comment.id)).toEqual([again.outputs['status-comment-id']]);
  });

  it('proposes without a status comment when no status issue is named', async () => {
    world = await stageWorld();
    const result = await previewStage(
      settings(world, world.planFile('plan'), { statusIssue: undefined }),
      depsOf(world),
    );
    expect(result.outputs).toMatchObject({ outcome: 'proposed', 'status-comment-id': '' });
  });

  it('refuses another plan under a run ID already proposed as run-exists', async () => {
    world = await stageWorld();
    const deps = depsOf(world);
    await previewStage(settings(world, world.planFile('a'), { runId: 'release-1' }), deps);
    const refused = await previewStage(
      settings(world, world.planFile('b', 'Another release'), { runId: 'release-1' }),
      deps,
    ).catch((error: unknown) => error);
    expect(errorCode(refused)).toBe('run-exists');
  });

  it('refuses a plan scoped to another repository as invalid-input, before any ledger write', async () => {
    world = await stageWorld();
    const seq = world.lastSeq();
    const refused = await previewStage(
      settings(world, world.planFile('plan'), {
        write: () => ({
          apiUrl: world!.ledgerWorld.emulator.url,
          repository: { owner: 'acme', repo: 'gadgets', full: 'acme/gadgets' },
          actorId: undefined,
          ledger: world!.ledger,
        }),
      }),
      depsOf(world),
    ).catch((error: unknown) => error);
    expect(errorCode(refused)).toBe('invalid-input');
    expect(world.writesSince(seq)).toEqual([]);
  });

  it('states the base SHA, the warnings, the risk class and the gate in the status comment and the outputs', async () => {
    world = await stageWorld();
    const current = world;
    const base = { owner: OWNER, repo: REPO };
    const head = (await current.owner.rest.git.getRef({ ...base, ref: 'heads/main' })).data.object.sha;
    const policy = {
      schema: 1,
      kinds: {
        'milestone.upsert': 'require-proof',
        'milestone.edit': 'require-proof',
        'issue.set-milestone': 'require-proof',
        'issue.labels': 'best-effort',
        'issue.create': 'require-proof',
        'comment.upsert': 'require-proof',
      },
      risk: { many_creates: 1 },
    };
    const committed = await commitOnBranch(
      current.owner,
      {
        repository: REPOSITORY,
        branch: 'main',
        expectedHeadOid: head,
        headline: 'writ policy',
        body: '',
        additions: [{ path: '.writ/policy.json', contents: JSON.stringify(policy) }],
      },
      'artifact',
    );
    expect(committed.kind).toBe('committed');
    const baseSha = (await current.owner.rest.git.getRef({ ...base, ref: 'heads/main' })).data.object.sha;
    expect(baseSha).not.toBe(head);
    const hostile = '@admin | <b>x</b> [y](https://evil.example) `z`';
    const plan = {
      schema: 1,
      title: `Triage ${hostile}`,
      scope: {
        repository: REPOSITORY,
        base_sha: head,
        writes: { kinds: ['issue.labels'], labels: ['bug'] },
      },
      bounds: { max_steps: 10 },
      steps: [
        { id: 'c1', kind: 'issue.create', title: 'One', labels: [hostile.slice(0, 50)] },
        { id: 'c2', kind: 'issue.create', title: 'Two' },
        { id: 'l1', kind: 'issue.labels', issue: current.statusIssue, add: ['bug'] },
      ],
    };
    const planFile = join(current.workspace, 'assessed.json');
    writeFileSync(planFile, JSON.stringify(plan));
    const result = await previewStage(
      settings(current, planFile, {
        gate: { roles: ['admin', 'maintain'], environment: 'production' },
        policyPath: '.writ/policy.json',
        evidencePath: '.writ/probe-evidence.json',
      }),
      depsOf(current),
    );
    expect(result.outputs['base-sha']).toBe(baseSha);
    expect(result.outputs.risk).toBe('high');
    expect(JSON.parse(String(result.outputs.warnings))).toEqual([
      { code: 'base-moved', step: null },
      { code: 'write-outside-scope', step: 'c1' },
      { code: 'write-outside-scope', step: 'c1' },
      { code: 'write-outside-scope', step: 'c2' },
      { code: 'many-creates', step: null },
      { code: 'kind-closed-by-policy', step: 'c1' },
    ]);
    const { data: status } = await current.owner.rest.issues.getComment({
      ...base,
      comment_id: Number(result.outputs['status-comment-id']),
    });
    const body = status.body ?? '';
    expect(body).toContain(`| Base | \`main\` at \`${baseSha}\` when this preview ran |`);
    expect(body).toContain('| Risk | **high**: warning `write-outside-scope`');
    expect(body).toContain("by the `risk` rules of the owner's policy");
    expect(body).toContain('live repository role is `admin` or `maintain` |');
    expect(body).toContain('GitHub Environment “production”');
    expect(body).toContain('| Policy | `.writ/policy.json` at the base commit |');
    expect(body).toContain('Warnings (6):');
    expect(body).toContain(
      `- \`base-moved\`: The plan was made at \`${head}\`, but \`main\` is now at \`${baseSha}\``,
    );
    expect(body).toMatch(
      /- `kind-closed-by-policy`: 2 `issue\.create` steps: the owner's policy keeps the kind closed \(`require-proof`: no probe evidence is committed\)/,
    );
    const section = body.slice(body.indexOf('### What this run asks'), body.indexOf('### Steps'));
    for (const raw of ['@admin', '<b>', '](', '`z`']) expect(section).not.toContain(raw);
    expect(readFileSync(String(result.outputs['preview-path']), 'utf8')).toBe(result.summary);
    // The ledger's run file records what the preview stated, beside the proposal it approves.
    const { run } = await readVerifiedRun(current.ledgerWorld.context(), String(result.outputs['run-id']));
    // The whole history replays: the propose commit that carries the record is a legal one.
    const { report } = await verifyLedger(current.ledgerWorld.context(), { mode: 'full' });
    expect(report.commitsChecked).toBe(report.totalCommits);
    expect(run?.preview).toEqual({
      base_sha: baseSha,
      risk: 'high',
      warnings: JSON.parse(String(result.outputs.warnings)) as unknown,
    });
    expect(result.summary).toContain(`| Base | \`main\` at \`${baseSha}\``);
  });
});
