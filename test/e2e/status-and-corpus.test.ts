import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BAD_COMMANDS, CANONICAL } from '../fixtures/approval-corpus.js';
import type { SliceWorld } from '../support/world.js';
import {
  APP_SLUG,
  APP_TOKEN,
  client,
  patOf,
  PEOPLE,
  planVariant,
  proposePlan,
  sliceWorld,
  requestLog,
} from '../support/world.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-status-'));

beforeAll(async () => {
  world = await sliceWorld({ seed: 3 });
});

afterAll(async () => {
  await world.close();
});

function previewInputs(planFile: string, issue: number): Record<string, string> {
  return {
    'plan-file': planFile,
    'dry-run': 'false',
    'status-issue': String(issue),
    token: APP_TOKEN,
    'ledger-app-slug': APP_SLUG,
    'ledger-app-id': world.ledgerInputs()['ledger-app-id']!,
  };
}

async function newIssue(title: string): Promise<number> {
  const { data } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.create({
    owner: 'acme',
    repo: 'widgets',
    title,
  });
  return data.number;
}

async function commentsOn(
  issue: number,
): Promise<{ id: number; body?: string; user: { login: string } | null }[]> {
  const { data } = await client(world.emulator, patOf(PEOPLE.admin)).rest.issues.listComments({
    owner: 'acme',
    repo: 'widgets',
    issue_number: issue,
    per_page: 100,
  });
  return data;
}

function writesSince(seq: number): string[] {
  return world.emulator.admin
    .requests()
    .filter((r) => r.seq > seq)
    .filter((r) => r.method !== 'GET' && !(r.path === '/graphql' && r.mutations.length === 0))
    .map((r) => `${r.method} ${r.path} ${r.mutations.join(',')}`);
}

function commentRequestsSince(seq: number): string[] {
  return world.emulator.admin
    .requests()
    .filter((r) => r.seq > seq && /\/issues\/(\d+\/)?comments/.test(r.path))
    .map((r) => `${r.method} ${r.path}`);
}

const { lastSeq } = requestLog(() => world.emulator);

describe('the status comment', () => {
  it('20 preview re-runs of an unchanged plan keep one comment and send nothing after the first', async () => {
    const issue = await newIssue('status: re-runs');
    const planFile = planVariant(dir, 'reruns', undefined, 'Re-run me');
    const first = await world.run('preview', previewInputs(planFile, issue));
    expect(first.outputs).toMatchObject({ outcome: 'proposed' });
    const after = lastSeq();
    for (let i = 0; i < 20; i++) {
      const again = await world.run('preview', previewInputs(planFile, issue));
      expect(again.outputs).toMatchObject({
        outcome: 'proposed',
        'status-comment-id': first.outputs['status-comment-id'],
      });
    }
    expect(commentRequestsSince(after)).toEqual([]);
    expect(writesSince(after)).toEqual([]);
    const marked = (await commentsOn(issue)).filter((c) => c.body?.includes('<!-- writ-status run='));
    expect(marked).toHaveLength(1);
  });

  it('reconciles a first POST whose response was lost instead of posting a duplicate', async () => {
    const issue = await newIssue('status: lost response');
    const planFile = planVariant(dir, 'lost', undefined, 'Lost response');
    world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${issue}/comments` },
      fault: { type: 'apply-then-drop' },
      times: 1,
    });
    const first = await world.run('preview', previewInputs(planFile, issue));
    expect(first.outputs).toMatchObject({ outcome: 'refused', reason: 'precheck-inconclusive' });
    expect(await commentsOn(issue)).toHaveLength(1); // it landed, but nobody heard back
    const second = await world.run('preview', previewInputs(planFile, issue));
    expect(second.outputs).toMatchObject({ outcome: 'proposed' });
    const comments = await commentsOn(issue);
    expect(comments).toHaveLength(1);
    expect(second.outputs['status-comment-id']).toBe(String(comments[0]!.id));
    const runId = second.outputs['run-id']!;
    expect((await world.runFile(runId))?.status_comment).toMatchObject({
      comment_id: comments[0]!.id,
      pending_digest: null,
    });
  });

  it('posts again after a POST that never reached GitHub', async () => {
    const issue = await newIssue('status: dropped before apply');
    const planFile = planVariant(dir, 'dropped', undefined, 'Dropped before apply');
    world.emulator.admin.addFault({
      match: { method: 'POST', path: `/repos/acme/widgets/issues/${issue}/comments` },
      fault: { type: 'drop-before-apply' },
      times: 1,
    });
    expect((await world.run('preview', previewInputs(planFile, issue))).outputs.reason).toBe(
      'precheck-inconclusive',
    );
    expect(await commentsOn(issue)).toHaveLength(0);
    expect((await world.run('preview', previewInputs(planFile, issue))).outputs.outcome).toBe('proposed');
    expect(await commentsOn(issue)).toHaveLength(1);
  });
});

describe('the bad-comment corpus, end to end', () => {
  it('refuses every class with its code and writes nothing to the ledger', async () => {
    const planFile = planVariant(dir, 'corpus', undefined, 'Corpus target');
    const { runId, command: canonical } = await proposePlan(world, planFile);
    const head = await world.head();
    const results: Record<string, string> = {};
    const bodies = BAD_COMMANDS.map(([name, body]) => [name, body.split(CANONICAL).join(canonical)] as const);
    for (let i = 0; i < bodies.length; i += 6) {
      await Promise.all(
        bodies.slice(i, i + 6).map(async ([name, body]) => {
          let event: Record<string, unknown>;
          try {
            event = await world.comment({ login: PEOPLE.write }, body);
          } catch (error: unknown) {
            // GitHub itself refuses to store some bodies (empty, over 65,536 characters): they never approve.
            results[name] = `github-refused-${String((error as { status?: number }).status)}`;
            return;
          }
          const run = await world.run(
            'consume-approval',
            { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
            { event },
          );
          results[name] = run.outputs.reason ?? 'no-reason';
        }),
      );
    }
    const unexpected = Object.entries(results).filter(
      ([, code]) => code !== 'malformed-command' && !code.startsWith('github-refused-4'),
    );
    expect(unexpected).toEqual([]);
    expect(
      Object.values(results).filter((code) => code === 'malformed-command').length,
    ).toBeGreaterThanOrEqual(40);
    expect(await world.head()).toBe(head);
    expect((await world.runFile(runId))?.approval).toBeNull();
  });
});

describe('secrets never leak', () => {
  it('keeps the token and comment text out of stdout, outputs, summaries and ledger commits', async () => {
    const sentinelComment = 'SENTINEL-COMMENT-TEXT-7f3a';
    const issue = await newIssue('secrets');
    const planFile = planVariant(dir, 'secrets', undefined, 'Secrets check');
    const preview = await world.run('preview', previewInputs(planFile, issue));
    const event = await world.comment(
      { login: PEOPLE.write },
      `${preview.outputs['approve-command']!}\n${sentinelComment}`,
    );
    const refused = await world.run(
      'consume-approval',
      { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
      { event },
    );
    world.emulator.admin.clock({ advance_ms: 15 * 60_000 });
    const approved = await world.run(
      'consume-approval',
      { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
      { event: await world.comment({ login: PEOPLE.write }, preview.outputs['approve-command']!) },
    );
    expect(refused.outputs.reason).toBe('malformed-command');
    expect(approved.outputs.outcome).toBe('approved');
    const forms = [
      APP_TOKEN,
      Buffer.from(APP_TOKEN).toString('base64'),
      encodeURIComponent(APP_TOKEN),
      sentinelComment,
      Buffer.from(sentinelComment).toString('base64'),
    ];
    // `::add-mask::<value>` is the runner protocol for masking (as core.setSecret writes it): the runner
    // consumes that line and never shows it, and it comes before anything else is printed.
    for (const run of [preview, refused, approved])
      expect(run.stdout.startsWith(`::add-mask::${APP_TOKEN}`)).toBe(true);
    const shown = (stdout: string) =>
      stdout
        .split('\n')
        .filter((line) => !line.startsWith('::add-mask::'))
        .join('\n');
    const outlets = [preview, refused, approved].flatMap((run) => [
      shown(run.stdout),
      run.stderr,
      run.summary,
      JSON.stringify(run.outputs),
    ]);
    const ledgerText = JSON.stringify(await world.runFile(preview.outputs['run-id']!));
    const exportDir = mkdtempSync(join(tmpdir(), 'writ-export-'));
    await world.emulator.admin.exportRepo('acme', 'widgets', exportDir);
    const { execFileSync } = await import('node:child_process');
    const history = execFileSync('git', ['--git-dir', exportDir, 'log', '-p', 'bot/writ-ledger'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    for (const form of forms) {
      for (const outlet of [...outlets, ledgerText, history]) expect(outlet).not.toContain(form);
    }
  });
});
