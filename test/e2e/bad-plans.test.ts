/**
 * Every stage that reads a plan, run from dist/ as the runner runs it against the emulator: a bad plan
 * is a coded refusal (`refused`, never `failed`/`internal-error`), its message carries no raw control
 * or OSC sequence, and nothing is written (no mutating request, ledger head and run file unchanged, no
 * artifact branch). An API URL with credentials is `invalid-input`, never printed, and never called.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StageRun } from '../../packages/cli/src/run-stage.js';
import type { BadPlan, BadPlanClass } from '../fixtures/bad-plans.js';
import { BAD_PLANS, ODD_BUT_VALID } from '../fixtures/bad-plans.js';
import type { SliceWorld } from '../support/world.js';
import {
  APP_SLUG,
  APP_TOKEN,
  PEOPLE,
  approveInProcess,
  client,
  patOf,
  planVariant,
  proposePlan,
  requestLog,
  sliceWorld,
} from '../support/world.js';

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-bad-plans-'));
let files = 0;
const owner = 'acme';
const repo = 'widgets';
const ARTIFACT_BRANCH = 'bot/writ-artifact';

/** Anything that must never reach the runner's log raw (a problem list's own "\n  " aside). */
const RAW_UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f]|[\ud800-\udfff]/u;

beforeAll(async () => {
  world = await sliceWorld({ seed: 9 });
});

afterAll(async () => {
  await world.close();
});

beforeEach(() => {
  world.emulator.admin.clock({ advance_ms: 15 * 60_000 }); // a free lease for every test
});

function planFile(content: string | Buffer): string {
  files += 1;
  const path = join(dir, `plan-${files}.json`);
  writeFileSync(path, content);
  return path;
}

function requestsSince(seq: number): string[] {
  return world.emulator.admin
    .requests()
    .filter((r) => r.seq > seq)
    .map((r) => `${r.method} ${r.path} ${r.mutations.join(',')}`);
}

const { lastSeq, writesSince } = requestLog(() => world.emulator);

async function refOid(name: string): Promise<string | null> {
  try {
    const api = client(world.emulator, patOf(PEOPLE.admin));
    return (await api.rest.git.getRef({ owner, repo, ref: `heads/${name}` })).data.object.sha;
  } catch {
    return null;
  }
}

/** The run's outcome was a coded refusal of this plan, and nothing it printed is raw untrusted text. */
function expectRefused(run: StageRun, plan: Pick<BadPlan, 'code' | 'message'>): void {
  expect(run.status).toBe(1);
  expect(run.outputs).toMatchObject({ outcome: 'refused', reason: plan.code });
  expect(run.commands.errors).toHaveLength(1);
  const [error = ''] = run.commands.errors;
  expect(error.startsWith(`${plan.code}: `)).toBe(true);
  if (plan.message !== undefined) expect(error).toContain(plan.message);
  expect(error.replace(/\n {2}/g, ' ')).not.toMatch(RAW_UNSAFE);
  expect(run.stdout.replace(/\n/g, ' ')).not.toMatch(RAW_UNSAFE);
  expect(run.stderr).toBe('');
  expect(run.outputs.digest ?? '').toBe('');
}

/** One bad plan of each class, for the stages that are slower to set up than preview. */
const ONE_PER_CLASS: readonly BadPlan[] = [
  ...new Map<BadPlanClass, BadPlan>(BAD_PLANS.map((plan) => [plan.class, plan])).values(),
];

describe('preview, not a dry run, refuses every bad plan and writes nothing', () => {
  it.each(BAD_PLANS.map((plan) => [plan.class, plan.name, plan] as const))('%s: %s', async (_c, _n, plan) => {
    const head = await world.head();
    const seq = lastSeq();
    const run = await world.run('preview', {
      'plan-file': planFile(plan.content),
      'dry-run': 'false',
      'status-issue': String(world.statusIssue),
      token: APP_TOKEN,
      'ledger-app-slug': APP_SLUG,
    });
    expectRefused(run, plan);
    expect(run.summary).toBe('');
    // The plan is refused before a client exists: not one request, so nothing written.
    expect(requestsSince(seq)).toEqual([]);
    expect(await world.head()).toBe(head);
  });

  it.each(ODD_BUT_VALID.map((plan) => [plan.name, plan] as const))(
    'previews the odd but valid plan with %s',
    async (_n, plan) => {
      const run = await world.run('preview', { 'plan-file': planFile(plan.content) });
      expect(run.outputs).toMatchObject({ outcome: 'previewed', reason: '' });
      expect(run.outputs.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    },
  );
});

/** The received reaction on the command comment (command/reactions.ts): best-effort, never the authority. */
const RECEIVED_REACTION = /^POST \/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+\/reactions $/;

describe('consume-approval refuses a bad plan under a valid approval and writes nothing', () => {
  let runId: string;
  let event: Record<string, unknown>;

  beforeAll(async () => {
    const proposed = await proposePlan(world, planVariant(dir, 'consume', undefined, 'Consume bad plans'));
    runId = proposed.runId;
    event = await world.comment({ login: PEOPLE.write }, proposed.command);
  });

  it.each(ONE_PER_CLASS.map((plan) => [plan.class, plan.name, plan] as const))(
    '%s: %s',
    async (_c, _n, plan) => {
      const head = await world.head();
      const seq = lastSeq();
      const run = await world.run(
        'consume-approval',
        { 'plan-file': planFile(plan.content), 'dry-run': 'false', ...world.ledgerInputs() },
        { event },
      );
      expectRefused(run, plan);
      // Only the comment's acknowledgement, `eyes` (a bad plan is no verdict on the command).
      expect(writesSince(seq)).toEqual([expect.stringMatching(RECEIVED_REACTION)]);
      expect(await world.head()).toBe(head);
      expect(await world.runFile(runId)).toMatchObject({ state: 'proposed', approval: null });
    },
  );
});

describe('publish-artifact refuses a bad plan for an approved run and writes nothing', () => {
  let runId: string;
  let epoch: string;

  beforeAll(async () => {
    const good = planVariant(dir, 'publish', undefined, 'Publish bad plans');
    const proposed = await proposePlan(world, good);
    runId = proposed.runId;
    const comment = await world.comment({ login: PEOPLE.write }, proposed.command);
    await approveInProcess(world, good, comment, { holder: 9100 });
    epoch = String((await world.runFile(runId))?.owner?.epoch ?? '');
  });

  it.each(ONE_PER_CLASS.map((plan) => [plan.class, plan.name, plan] as const))(
    '%s: %s',
    async (_c, _n, plan) => {
      const head = await world.head();
      const seq = lastSeq();
      const run = await world.run(
        'publish-artifact',
        {
          'run-id': runId,
          'plan-file': planFile(plan.content),
          path: 'docs/reference/roadmap.md',
          'content-file': planFile('# Roadmap\n'),
          epoch,
          'dry-run': 'false',
          ...world.ledgerInputs(),
        },
        // The content file is in the job's temp directory, where publish-artifact reads inputs from.
        { env: { RUNNER_TEMP: dir } },
      );
      expectRefused(run, plan);
      expect(writesSince(seq)).toEqual([]);
      expect(await world.head()).toBe(head);
      expect(await refOid(ARTIFACT_BRANCH)).toBeNull();
      expect(await world.runFile(runId)).toMatchObject({ state: 'approved' });
    },
  );
});

describe('a GitHub API URL carrying credentials', () => {
  const SECRET = 'pa55w0rd-never-printed';

  it.each(['preview', 'consume-approval', 'publish-artifact'])(
    '%s refuses it as invalid-input, never prints it and never calls it',
    async (stage) => {
      const url = new URL(world.emulator.url);
      url.username = 'x-access-token';
      url.password = SECRET;
      const head = await world.head();
      const good = planVariant(dir, `url-${stage}`, undefined, `URL ${stage}`);
      const inputs: Record<string, string> = {
        'plan-file': good,
        'dry-run': 'false',
        ...world.ledgerInputs(),
      };
      if (stage === 'preview') delete inputs['ledger-app-id'];
      if (stage === 'publish-artifact') {
        Object.assign(inputs, {
          'run-id': 'run-0000000000000000',
          path: 'x.md',
          'content-file': planFile('x\n'),
        });
      }
      const event =
        stage === 'consume-approval'
          ? await world.comment(
              { login: PEOPLE.write },
              `writ: approve run-0000000000000000 ${'0'.repeat(64)}`,
            )
          : undefined;
      const afterSetup = lastSeq();
      const run = await world.run(stage, inputs, {
        ...(event === undefined ? {} : { event }),
        env: { GITHUB_API_URL: url.href },
      });
      expect(run.status).toBe(1);
      expect(run.outputs).toMatchObject({ outcome: 'refused', reason: 'invalid-input' });
      expect(run.commands.errors).toEqual([
        expect.stringMatching(/^invalid-input: GITHUB_API_URL carries credentials/) as unknown,
      ]);
      for (const text of [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs)]) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('x-access-token');
      }
      expect(requestsSince(afterSetup)).toEqual([]);
      expect(await world.head()).toBe(head);
    },
  );
});
