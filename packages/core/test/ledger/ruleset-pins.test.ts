/**
 * The ledger root pins the two rulesets that protect the ledger branch (ID, updated_at, content digest)
 * and every check holds the branch to exactly them. Each way an administrator can relax a protecting
 * ruleset after the root, made through GitHub's own REST endpoints on the emulator (PUT and DELETE
 * `/repos/{owner}/{repo}/rulesets/{id}`), is `ledger-provenance-unproven` at the next gate
 * (`readVerifiedRun`, what every stage's gate reads; and a consume) and FAIL in doctor; an extra
 * ruleset added after the root, however strict or however many bypass actors it has, is not refused.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { refusal, refusalError } from '../support/code-of.js';
import { consumeApproval, readVerifiedRun } from '../../src/ledger/ledger.js';
import { LEDGER_ROOT_PATH } from '../../src/ledger/paths.js';
import { rulesetDigest } from '../../src/ledger/rulesets.js';
import type { LedgerRoot } from '../../src/ledger/types.js';
import { runDoctor } from '../../src/setup/doctor.js';
import type { LedgerWorld } from './support/emulator.js';
import {
  BRANCH,
  LEDGER_TOKEN,
  OWNER,
  OWNER_TOKEN,
  REPO,
  REPOSITORY,
  emulatorClient,
  ledgerWorld,
} from './support/emulator.js';
import { proposePlanFor, recomputed } from './support/fixtures.js';

let world: LedgerWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

type Client = ReturnType<typeof emulatorClient>;

/** The repository owner (an admin), editing rulesets through the REST API as GitHub's UI would. */
function ownerClient(): Client {
  return emulatorClient(world!.emulator, OWNER_TOKEN);
}

async function updateRuleset(id: number, body: Record<string, unknown>): Promise<void> {
  const response = await ownerClient().request('PUT /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
    owner: OWNER,
    repo: REPO,
    ruleset_id: id,
    ...body,
  } as never);
  expect(response.status).toBe(200);
}

function addRuleset(body: Record<string, unknown>): number {
  return world!.emulator.admin.addRuleset(OWNER, REPO, body).id;
}

/** Moves the emulator's clock so an edit lands after the root commit, in a later second. */
function later(): void {
  world!.emulator.admin.clock({ advance_ms: 5000 });
}

async function doctorStatus(): Promise<{ rulesets: string; provenance: string; detail: string }> {
  const report = await runDoctor(
    { github: emulatorClient(world!.emulator, LEDGER_TOKEN) },
    { repository: REPOSITORY, app: world!.app, ledgerBranch: BRANCH },
  );
  const rulesets = report.checks.find((entry) => entry.id === 'ledger-rulesets');
  const provenance = report.checks.find((entry) => entry.id === 'ledger-provenance');
  return {
    rulesets: rulesets?.status ?? 'missing',
    provenance: provenance?.status ?? 'missing',
    detail: `${rulesets?.detail ?? ''} | ${provenance?.detail ?? ''}`,
  };
}

/** A ledger with one proposed run, proven at the gate and in doctor before any change. */
async function provenWorld(): Promise<ReturnType<typeof proposePlanFor>> {
  world = await ledgerWorld();
  const plan = proposePlanFor(world.context(), 'run-1');
  await plan;
  await readVerifiedRun(world.context(), 'run-1');
  const doctor = await doctorStatus();
  expect(doctor.rulesets).toBe('PASS');
  expect(doctor.provenance).toBe('PASS');
  return plan;
}

/** The gate refuses as unproven, and doctor FAILs one of its two ledger checks. */
async function expectUnproven(): Promise<string> {
  const error = await refusalError(readVerifiedRun(world!.context(), 'run-1'));
  expect(error.code).toBe('ledger-provenance-unproven');
  const doctor = await doctorStatus();
  expect([doctor.rulesets, doctor.provenance]).toContain('FAIL');
  expect(doctor.rulesets).not.toBe('UNKNOWN');
  return error.message;
}

const [appendOnlyIndex, writersIndex] = [0, 1] as const;

function id(index: 0 | 1): number {
  return world!.rulesets![index].id;
}

describe('the ledger root pins its rulesets', () => {
  it('records each protecting ruleset with its updated_at and content digest in ledger-root.json', async () => {
    world = await ledgerWorld();
    const snapshot = await world.context().store.read({ paths: [LEDGER_ROOT_PATH], historyFirst: 0 });
    const root = JSON.parse(snapshot!.files.get(LEDGER_ROOT_PATH)!) as LedgerRoot;
    const ids = world.rulesets!.map((ruleset) => ruleset.id).sort((a, b) => a - b);
    expect(root.rulesets?.map((pin) => pin.id)).toEqual(ids);
    const stored = await world.context().store.ruleset(ids[0]!);
    expect(root.rulesets?.[0]?.digest).toBe(rulesetDigest(stored));
    expect(root.rulesets?.[0]?.updated_at).toBe(new Date(stored.updatedAt!).toISOString());
  });
});

describe('a protecting ruleset changed after the root is unproven at the gate and FAIL in doctor', () => {
  it('a bypass actor added to the append-only ruleset', async () => {
    await provenWorld();
    later();
    await updateRuleset(id(appendOnlyIndex), {
      bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }],
    });
    expect(await expectUnproven()).toMatch(/changed since the root commit|no bypass actors/);
  });

  it('a second bypass actor added to the writers ruleset', async () => {
    await provenWorld();
    later();
    await updateRuleset(id(writersIndex), {
      bypass_actors: [
        ...world!.rulesets![writersIndex].bypass_actors,
        { actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' },
      ],
    });
    await expectUnproven();
  });

  it('a rule removed (non_fast_forward)', async () => {
    await provenWorld();
    later();
    await updateRuleset(id(appendOnlyIndex), { rules: [{ type: 'deletion' }] });
    await expectUnproven();
  });

  it('enforcement set to evaluate', async () => {
    await provenWorld();
    later();
    await updateRuleset(id(appendOnlyIndex), { enforcement: 'evaluate' });
    expect(await expectUnproven()).toMatch(/no longer applies/);
  });

  it('enforcement set to disabled', async () => {
    await provenWorld();
    later();
    await updateRuleset(id(writersIndex), { enforcement: 'disabled' });
    await expectUnproven();
  });

  it('conditions narrowed so the ledger branch is no longer covered', async () => {
    await provenWorld();
    later();
    await updateRuleset(id(appendOnlyIndex), {
      conditions: { ref_name: { include: ['refs/heads/release/*'], exclude: [] } },
    });
    await expectUnproven();
  });

  it('conditions that still cover the branch but exclude it', async () => {
    await provenWorld();
    later();
    await updateRuleset(id(writersIndex), {
      conditions: { ref_name: { include: ['~ALL'], exclude: [`refs/heads/${BRANCH}`] } },
    });
    await expectUnproven();
  });

  it('deleted', async () => {
    await provenWorld();
    later();
    const response = await ownerClient().request('DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
      owner: OWNER,
      repo: REPO,
      ruleset_id: id(appendOnlyIndex),
    });
    expect(response.status).toBe(204);
    await expectUnproven();
  });

  it('deleted and re-created identical (a new ID)', async () => {
    await provenWorld();
    later();
    const original = world!.rulesets![appendOnlyIndex];
    await ownerClient().request('DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
      owner: OWNER,
      repo: REPO,
      ruleset_id: original.id,
    });
    addRuleset({
      name: original.name,
      target: original.target,
      enforcement: 'active',
      conditions: original.conditions,
      rules: original.rules,
      bypass_actors: [],
    });
    await expectUnproven();
  });

  it('relaxed and restored to the same content (updated_at moved)', async () => {
    await provenWorld();
    later();
    await updateRuleset(id(appendOnlyIndex), { enforcement: 'disabled' });
    later();
    await updateRuleset(id(appendOnlyIndex), { enforcement: 'active' });
    expect(await expectUnproven()).toMatch(/updated_at moved/);
  });

  it('its content changed without updated_at moving (a rule added in place)', async () => {
    await provenWorld();
    world!.rulesets![appendOnlyIndex].rules.push({ type: 'creation' });
    expect(await expectUnproven()).toMatch(/content differs/);
  });

  it('is refused by a consume too (a gate that grants authority)', async () => {
    const plan = await provenWorld();
    later();
    await updateRuleset(id(writersIndex), { enforcement: 'evaluate' });
    expect(
      await refusal(
        consumeApproval(world!.context(), {
          runId: 'run-1',
          approval: await world!.approve('run-1', plan),
          plan: recomputed(plan),
          holder: { workflow_run_id: 1, attempt: 1 },
        }),
      ),
    ).toBe('ledger-provenance-unproven');
  });
});

describe('a ruleset the root did not pin is not refused', () => {
  it('an extra strict ruleset on the ledger branch', async () => {
    await provenWorld();
    later();
    addRuleset({
      name: 'extra-strict',
      target: 'branch',
      enforcement: 'active',
      conditions: { ref_name: { include: ['~ALL'], exclude: [] } },
      rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }, { type: 'required_signatures' }],
      bypass_actors: [],
    });
    await readVerifiedRun(world!.context(), 'run-1');
    const doctor = await doctorStatus();
    expect(doctor.rulesets).toBe('PASS');
    expect(doctor.provenance).toBe('PASS');
  });

  it('an extra ruleset whose update rule others may bypass (it cannot lift the pinned ones)', async () => {
    await provenWorld();
    later();
    addRuleset({
      name: 'extra-loose',
      target: 'branch',
      enforcement: 'active',
      conditions: { ref_name: { include: [`refs/heads/${BRANCH}`], exclude: [] } },
      rules: [{ type: 'update' }, { type: 'deletion' }],
      bypass_actors: [{ actor_id: 5, actor_type: 'RepositoryRole', bypass_mode: 'always' }],
    });
    await readVerifiedRun(world!.context(), 'run-1');
    const doctor = await doctorStatus();
    expect(doctor.provenance).toBe('PASS');
  });

  it('an unrelated ruleset on the default branch, edited and deleted after the root', async () => {
    await provenWorld();
    const unrelated = addRuleset({ name: 'main-protection', rules: [{ type: 'pull_request' }] });
    later();
    await updateRuleset(unrelated, { enforcement: 'evaluate' });
    await ownerClient().request('DELETE /repos/{owner}/{repo}/rulesets/{ruleset_id}', {
      owner: OWNER,
      repo: REPO,
      ruleset_id: unrelated,
    });
    await readVerifiedRun(world!.context(), 'run-1');
  });
});
