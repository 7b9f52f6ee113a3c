import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { FaultInput } from '@writ/github-emulator/index.js';
import { REPO_ROOT } from '../../../cli/src/run-stage.js';
import type { CaseId, Classification, ProbeEvidence } from '../../src/probe/evidence.js';
import { CASE_IDS, PRIMITIVE_IDS, evidenceProblems } from '../../src/probe/evidence.js';
import type { ProbeResult, ProbeSettings } from '../../src/probe/probe.js';
import { WRIT_VERSION, parseCaseSelection, runProbe } from '../../src/probe/probe.js';
import { renderEvidence, renderExplain, renderProbeSummary } from '../../src/probe/render.js';
import { silentLogger } from '../../src/redact.js';
import type { ProbeWorld } from './support.js';
import { CURRENT, SANDBOX, probeWorld } from './support.js';

let world: ProbeWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function settings(w: ProbeWorld, extra: Partial<ProbeSettings> = {}): ProbeSettings {
  return {
    sandbox: SANDBOX,
    confirmSandbox: SANDBOX,
    current: CURRENT,
    allowlistFile: '.writ/probe-allowlist.json',
    cases: [...CASE_IDS],
    primitives: [...PRIMITIVE_IDS],
    probeRun: 'gh-7-1',
    dryRun: false,
    apiUrl: w.emulator.url,
    writ: { version: WRIT_VERSION, commit: null },
    ...extra,
  };
}

async function probe(w: ProbeWorld, extra: Partial<ProbeSettings> = {}): Promise<ProbeEvidence> {
  const result: ProbeResult = await runProbe(
    { sandboxGithub: w.sandbox, repositoryGithub: w.repository, logger: silentLogger },
    settings(w, extra),
  );
  if (result.kind !== 'probed') throw new Error('expected a probe run');
  return result.evidence;
}

function classes(evidence: ProbeEvidence): Record<string, Classification> {
  return Object.fromEntries([
    ...evidence.cases.map((entry) => [entry.id, entry.classification]),
    ...evidence.primitives.map((entry) => [entry.id, entry.classification]),
  ]) as Record<string, Classification>;
}

describe('the probe in the three contract worlds', () => {
  it('realistic: cases 1-4 negative, the primitives positive, and cleanup leaves the sandbox as it was', async () => {
    world = await probeWorld();
    const before = world.listing();
    const evidence = await probe(world);
    expect(classes(evidence)).toEqual({
      ...Object.fromEntries(CASE_IDS.map((id) => [id, 'negative'])),
      ...Object.fromEntries(PRIMITIVE_IDS.map((id) => [id, 'positive'])),
    });
    expect(evidence.cases.find((entry) => entry.id === '1')?.attempts[0]).toMatchObject({
      control_status: 200,
      status: 200,
      read_back: 'applied',
      reason: 'applied',
    });
    // Case 4: the issue create is duplicated, the milestone create refused by GitHub's title uniqueness.
    expect(evidence.cases.find((entry) => entry.id === '4')?.attempts.map((a) => a.reason)).toEqual([
      'duplicate-created',
      'refused-unchanged',
    ]);
    expect(evidence.cleanup).toEqual({ removed: 19, left: [] });
    expect(world.listing()).toEqual(before);
    expect(evidenceProblems(evidence)).toEqual([]);
  });

  it('412-applied: every case negative and named so (the write applied behind the 412)', async () => {
    world = await probeWorld();
    await world.world('412-applied');
    const evidence = await probe(world, { primitives: [] });
    for (const entry of evidence.cases) {
      expect(entry.classification).toBe('negative');
      // 3b: no precondition on the item covers its target milestone, so there is no 412 to give.
      expect(entry.attempts[0]).toMatchObject(
        entry.id === '3b' ? { status: 200, reason: 'applied' } : { status: 412, reason: '412-applied' },
      );
    }
  });

  it('conditional-honoured: 1, 2a, 2b, 3a and 4 positive; 3b negative, as no precondition on the item covers its target milestone', async () => {
    world = await probeWorld();
    await world.world('conditional-honoured');
    const before = world.listing();
    const evidence = await probe(world);
    expect(classes(evidence)).toMatchObject({
      '1': 'positive',
      '2a': 'positive',
      '2b': 'positive',
      '3a': 'positive',
      '3b': 'negative',
      '4': 'positive',
    });
    expect(evidence.cases.find((entry) => entry.id === '4')?.attempts[0]).toMatchObject({
      status: 422,
      error_code: 'already_exists',
      read_back: 'unchanged',
    });
    expect(world.listing()).toEqual(before);
    const summary = renderProbeSummary(evidence, '.writ/probe-evidence.json', 95);
    expect(summary).toContain('| 3b | issue milestone change after the target');
    expect(summary).toMatch(/`milestone\.edit`: \*\*opens\*\*/);
    expect(summary).toMatch(/`issue\.set-milestone`: stays closed: case 3b negative/);
  });
});

describe('the evidence file', () => {
  it('validates against its schema and is byte-stable for identical results', async () => {
    world = await probeWorld();
    const first = renderEvidence(await probe(world));
    const port = Number(new URL(world.emulator.url).port);
    await world.close();
    world = await probeWorld({ port });
    const second = renderEvidence(await probe(world));
    expect(second).toBe(first);
    expect(first.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(first) as ProbeEvidence;
    expect(evidenceProblems(parsed)).toEqual([]);
    expect(parsed).toMatchObject({ sandbox: SANDBOX, api_url: world.emulator.url, probe_run: 'gh-7-1' });
    expect(parsed.started_at).toBe('2026-11-30T09:00:00Z');
    expect(renderExplain(parsed, new Date('2026-12-01T00:00:00Z'))).toMatch(
      /issue\.create: stays closed: case 4 negative/,
    );
  });

  it('records the version package.json names', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(WRIT_VERSION).toBe(pkg.version);
  });
});

/**
 * Which request of a case is its stale write, and which its control, as emulator fault matchers: the
 * `skip`-th matching request. Case 1 edits its milestone (control, external, stale); 2a re-milestones
 * its item three times; 2b, 3a and 3b twice (their external change is another surface); 4 creates twice.
 */
const WRITES: Record<CaseId, { path: string; method: string; stale: number }> = {
  '1': { method: 'PATCH', path: '/repos/acme/sandbox/milestones/*', stale: 2 },
  '2a': { method: 'PATCH', path: '/repos/acme/sandbox/issues/*', stale: 2 },
  '2b': { method: 'PATCH', path: '/repos/acme/sandbox/issues/*', stale: 1 },
  '3a': { method: 'PATCH', path: '/repos/acme/sandbox/issues/*', stale: 1 },
  '3b': { method: 'PATCH', path: '/repos/acme/sandbox/issues/*', stale: 1 },
  '4': { method: 'POST', path: '/repos/acme/sandbox/issues', stale: 1 },
};

type Outcome =
  | 'refused and unchanged'
  | 'applied'
  | '412 and applied'
  | '403'
  | '422 validation'
  | '429 secondary limit'
  | '5xx'
  | 'transport'
  | 'control failure';

const OUTCOMES: Record<
  Outcome,
  { fault?: FaultInput['fault']; control?: true; world?: '412-applied'; want: Classification; reason: string }
> = {
  'refused and unchanged': {
    fault: { type: 'status', status: 412 },
    want: 'positive',
    reason: 'refused-unchanged',
  },
  applied: { want: 'negative', reason: 'applied' },
  // The 412-applied world where a precondition reaches (3b's has none: a fault answers 412 after applying).
  '412 and applied': { world: '412-applied', want: 'negative', reason: '412-applied' },
  '403': { fault: { type: 'status', status: 403 }, want: 'inconclusive', reason: 'forbidden' },
  '422 validation': { fault: { type: 'status', status: 422 }, want: 'inconclusive', reason: 'validation' },
  '429 secondary limit': {
    fault: { type: 'secondary-rate-limit', status: 429, retry_after: 1 },
    want: 'inconclusive',
    reason: 'rate-limited',
  },
  '5xx': { fault: { type: 'status', status: 502 }, want: 'inconclusive', reason: 'server-error' },
  transport: { fault: { type: 'drop-before-apply' }, want: 'inconclusive', reason: 'transport' },
  'control failure': {
    fault: { type: 'status', status: 502 },
    control: true,
    want: 'inconclusive',
    reason: 'control-failed',
  },
};

const MATRIX = CASE_IDS.flatMap((id) =>
  (Object.keys(OUTCOMES) as Outcome[]).map((outcome) => [id, outcome] as const),
);

describe('the classifier, for every case × outcome, against the emulator', () => {
  it.each(MATRIX)('case %s, stale write %s', async (id, outcome) => {
    world = await probeWorld();
    const spec = OUTCOMES[outcome];
    if (spec.world && id !== '3b') await world.world(spec.world);
    const fault =
      spec.world && id === '3b' ? { type: 'apply-then-status' as const, status: 412 } : spec.fault;
    if (fault) {
      const target = WRITES[id];
      world.emulator.admin.addFault({
        match: { method: target.method, path: target.path },
        fault,
        times: 1,
        skip: spec.control ? 0 : target.stale,
      });
    }
    const evidence = await probe(world, { cases: [id], primitives: [] });
    const [entry] = evidence.cases;
    const attempt = entry!.attempts[0]!;
    const reason = id === '4' && outcome === 'applied' ? 'duplicate-created' : spec.reason;
    expect(attempt).toMatchObject({ classification: spec.want, reason });
    // Case 4's milestone attempt is refused by title uniqueness in every world: the case follows its issue attempt.
    expect(entry!.classification).toBe(spec.want);
    expect(evidence.cleanup.left).toEqual([]);
  });
});

describe('the primitives', () => {
  it.each(PRIMITIVE_IDS.map((id) => [id]))(
    '%s is inconclusive when its stale write meets a 5xx',
    async (id) => {
      world = await probeWorld();
      const target = {
        'create-ref-existing': { method: 'POST', path: '/repos/acme/sandbox/git/refs', skip: 1 },
        'update-ref-non-fast-forward': { method: 'PATCH', path: '/repos/acme/sandbox/git/refs/**', skip: 1 },
        'update-refs-stale-before-oid': { operation: 'updateRefs', skip: 1 },
        'stale-expected-head-oid': { operation: 'createCommitOnBranch', skip: 1 },
      }[id];
      const { skip, ...match } = target;
      world.emulator.admin.addFault({ match, fault: { type: 'status', status: 503 }, times: 1, skip });
      const evidence = await probe(world, { cases: [] });
      expect(classes(evidence)).toEqual({
        ...Object.fromEntries(PRIMITIVE_IDS.map((other) => [other, 'positive'])),
        [id]: 'inconclusive',
      });
    },
  );

  it('are all inconclusive (setup-failed, with the failing answer) when a probe commit cannot be made', async () => {
    world = await probeWorld();
    world.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/acme/sandbox/git/commits' },
      fault: { type: 'status', status: 503 },
      times: 1,
      skip: 2,
    });
    const evidence = await probe(world, { cases: [] });
    expect(evidence.primitives.map((entry) => entry.id)).toEqual([...PRIMITIVE_IDS]);
    for (const entry of evidence.primitives) {
      expect(entry.classification).toBe('inconclusive');
      expect(entry.attempts).toEqual([
        expect.objectContaining({ reason: 'setup-failed', control_status: 503, status: null }),
      ]);
    }
  });

  it('stops the chain where a control write fails: the primitives after it are setup-failed', async () => {
    world = await probeWorld();
    world.emulator.admin.addFault({
      match: { method: 'PATCH', path: '/repos/acme/sandbox/git/refs/**' },
      fault: { type: 'status', status: 503 },
      times: 1,
    });
    const evidence = await probe(world, { cases: [] });
    expect(classes(evidence)).toEqual({
      'create-ref-existing': 'positive',
      'update-ref-non-fast-forward': 'inconclusive',
      'update-refs-stale-before-oid': 'inconclusive',
      'stale-expected-head-oid': 'inconclusive',
    });
    const reasons = Object.fromEntries(
      evidence.primitives.map((entry) => [entry.id, entry.attempts[0].reason]),
    );
    expect(reasons).toEqual({
      'create-ref-existing': 'refused-unchanged',
      'update-ref-non-fast-forward': 'control-failed',
      'update-refs-stale-before-oid': 'setup-failed',
      'stale-expected-head-oid': 'setup-failed',
    });
  });

  it('runs the controls of the unselected primitives, so one selected late in the chain is still proved', async () => {
    world = await probeWorld();
    const evidence = await probe(world, { cases: [], primitives: ['stale-expected-head-oid'] });
    expect(classes(evidence)).toEqual({ 'stale-expected-head-oid': 'positive' });
  });
});

describe('cleanup', () => {
  it('closes and reports the issues a token without admin cannot delete, and touches nothing else', async () => {
    world = await probeWorld({ sandboxAdmin: false });
    const before = world.listing();
    const evidence = await probe(world, { cases: ['2a', '4'], primitives: [] });
    expect(evidence.cleanup.left).toHaveLength(3);
    for (const left of evidence.cleanup.left) expect(left).toMatch(/^issue #\d+ closed not deleted$/);
    const after = world.listing().filter((line) => !/gh-7-1/.test(line));
    expect(after).toEqual(before);
    expect(evidenceProblems(evidence)).toEqual([]);
  });

  it('still runs when a case throws, and removes what was made before', async () => {
    world = await probeWorld();
    const before = world.listing();
    world.emulator.admin.addFault({
      match: { method: 'POST', path: '/repos/acme/sandbox/issues' },
      fault: { type: 'drop-before-apply' },
      times: 1,
    });
    const evidence = await probe(world, { cases: ['2a'], primitives: [] });
    expect(evidence.cases[0]?.attempts[0]?.reason).toBe('setup-failed');
    expect(world.listing()).toEqual(before);
  });
});

describe('the cases input', () => {
  it('takes all, or case and primitive IDs in canonical order; anything else is invalid-input', () => {
    expect(parseCaseSelection('all').cases).toEqual([...CASE_IDS]);
    expect(parseCaseSelection(' 4, 1 ,create-ref-existing')).toEqual({
      cases: ['1', '4'],
      primitives: ['create-ref-existing'],
    });
    expect(() => parseCaseSelection('1,5')).toThrow(/invalid|cases/);
  });
});
