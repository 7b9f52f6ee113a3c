/**
 * Every refusal is coded: each stage's `main`, in-process against the emulator with the real Octokit,
 * fed hostile inputs, events, files and runner variables, ends as a success or a coded refusal from the
 * catalogue, never `internal-error`, and no token reaches its log, outputs or summary.
 *
 * Seeded and bounded (a few dozen cases per stage, no shrinking): a failure prints the seed and the
 * case; `WRIT_FUZZ_SEED=<seed>` replays it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STAGES } from '../../src/io/registry.js';
import type { StageName } from '../../src/io/registry.js';
import { run as runClaimCheckpoint } from '../../src/stages/claim-checkpoint.js';
import { run as runConsumeApproval } from '../../src/stages/consume-approval.js';
import { run as runPersist } from '../../src/stages/persist.js';
import { run as runPreview } from '../../src/stages/preview.js';
import { run as runProbe } from '../../src/stages/probe.js';
import { run as runPublishArtifact } from '../../src/stages/publish-artifact.js';
import { run as runRecovery } from '../../src/stages/recovery.js';
import { LEDGER_TOKEN, OWNER, OWNER_TOKEN, REPO } from '../ledger/support/emulator.js';
import { CAMPAIGNS } from '../../../../test/support/campaigns.mjs';
import { runnerEnv } from './support/runner-env.js';
import type { StageWorld } from './support/stage-world.js';
import { stageWorld } from './support/stage-world.js';

const SEED = Number(process.env.WRIT_FUZZ_SEED ?? 26_012);
const RUNS = CAMPAIGNS.refusalFuzzRuns;

const MAINS: Record<StageName, () => Promise<void>> = {
  'claim-checkpoint': runClaimCheckpoint,
  'consume-approval': runConsumeApproval,
  persist: runPersist,
  preview: runPreview,
  probe: runProbe,
  'publish-artifact': runPublishArtifact,
  recovery: runRecovery,
};

let world: StageWorld;
/** Files the inputs may point at, by what they are. */
let files: Record<string, string>;
let pullNumber: number;
let commentId: number;
/** How many fresh plans the preview's cases have written. */
let fresh = 0;
/** The run the stages act on: proposed and approved, epoch 1. */
let runId: string;

beforeAll(async () => {
  world = await stageWorld();
  const ws = world.workspace;
  const outside = mkdtempSync(join(tmpdir(), 'writ-outside-'));
  writeFileSync(join(outside, 'secret.txt'), `${LEDGER_TOKEN}\n`);
  files = {
    plan: world.planFile('plan'),
    missing: join(ws, 'missing.json'),
    directory: join(ws, 'a-directory'),
    'symlink-outside': join(ws, 'outside-link'),
    'symlink-dir': join(ws, 'outside-dir'),
    binary: join(ws, 'binary.bin'),
    huge: join(ws, 'huge.json'),
    'not-json': join(ws, 'not-json.txt'),
    'json-array': join(ws, 'array.json'),
    'deep-json': join(ws, 'deep.json'),
    'token-file': join(ws, 'token.txt'),
    fifo: join(ws, 'a-fifo'),
    'content-ok': join(ws, 'content.md'),
  };
  mkdirSync(files.directory!);
  symlinkSync(join(outside, 'secret.txt'), files['symlink-outside']!);
  symlinkSync(outside, files['symlink-dir']!);
  writeFileSync(files.binary!, Buffer.from([0, 0xff, 0xfe, 0x80, 0xc0, 0x00, 0x1b, 0x5b, 0x33, 0x31, 0x6d]));
  writeFileSync(files.huge!, `[${'1,'.repeat(1_600_000)}1]`);
  writeFileSync(files['not-json']!, 'not { json');
  writeFileSync(files['json-array']!, '[1, 2, 3]');
  writeFileSync(files['deep-json']!, `${'['.repeat(200_000)}${']'.repeat(200_000)}`);
  writeFileSync(files['token-file']!, `token: ${LEDGER_TOKEN}\n`);
  writeFileSync(files['content-ok']!, '# Roadmap\n');
  try {
    execFileSync('mkfifo', [files.fifo!]);
  } catch {
    files.fifo = files.missing!;
  }
  const owner = world.owner;
  const repo = { owner: OWNER, repo: REPO };
  const main = (await owner.rest.repos.getBranch({ ...repo, branch: 'main' })).data.commit;
  const { data: tree } = await owner.rest.git.createTree({
    ...repo,
    base_tree: main.commit.tree.sha,
    tree: [{ path: 'fuzz.md', mode: '100644', type: 'blob', content: 'fuzz\n' }],
  });
  const { data: commit } = await owner.rest.git.createCommit({
    ...repo,
    message: 'a change to review',
    tree: tree.sha,
    parents: [main.sha],
  });
  await owner.rest.git.createRef({ ...repo, ref: 'refs/heads/fuzz-head', sha: commit.sha });
  const { data: pull } = await owner.rest.pulls.create({
    owner: OWNER,
    repo: REPO,
    title: 'a pull request',
    head: 'fuzz-head',
    base: 'main',
  });
  pullNumber = pull.number;
  commentId = await world.comment('not a command');
  runId = await proposeAndApprove();
}, 60_000);

/** A run proposed and approved (epoch 1) through the stages' mains, so cases reach past "no such run". */
async function proposeAndApprove(): Promise<string> {
  const ledger = {
    token: LEDGER_TOKEN,
    'ledger-app-slug': world.ledger.app.slug,
    'ledger-app-id': String(world.ledger.app.id),
    'dry-run': 'false',
  };
  const env = {
    GITHUB_API_URL: world.ledgerWorld.emulator.url,
    GITHUB_WORKSPACE: world.workspace,
    RUNNER_TEMP: world.workspace,
  };
  let runner = runnerEnv(
    { 'plan-file': files.plan!, 'status-issue': String(world.statusIssue), ...ledger },
    { env },
  );
  let proposed: Record<string, string>;
  try {
    await runPreview();
    proposed = runner.outputs();
  } finally {
    runner.restore();
  }
  const approval = await world.comment(proposed['approve-command']!);
  runner = runnerEnv(
    { 'plan-file': files.plan!, ...ledger },
    { env, event: { action: 'created', comment: { id: approval } }, eventName: 'issue_comment' },
  );
  try {
    await runConsumeApproval();
    expect(runner.outputs()).toMatchObject({ outcome: 'approved', epoch: '1' });
  } finally {
    runner.restore();
  }
  return proposed['run-id']!;
}

afterAll(async () => {
  await world.close();
});

/** A value that fits each input, so a case that changes one input reaches past the others' checks. */
function baseline(stage: StageName): Record<string, string> {
  const ledger = {
    token: LEDGER_TOKEN,
    'ledger-app-slug': world.ledger.app.slug,
    'ledger-app-id': String(world.ledger.app.id),
    'dry-run': 'false',
  };
  switch (stage) {
    case 'preview':
      // A plan not proposed yet (its own title, so its own run ID): each case proposes a new run.
      fresh += 1;
      return {
        ...ledger,
        'plan-file': world.planFile(`fresh-${fresh}`, `Fuzz plan ${fresh}`),
        'status-issue': String(world.statusIssue),
      };
    case 'consume-approval':
      return { ...ledger, 'plan-file': files.plan! };
    case 'claim-checkpoint':
      return { ...ledger, operation: 'claim', 'run-id': runId, 'step-id': 'build-artifacts', epoch: '1' };
    case 'persist':
      return { ...ledger, 'run-id': runId, epoch: '1', 'plan-file': files.plan! };
    case 'publish-artifact':
      return {
        ...ledger,
        'run-id': runId,
        epoch: '1',
        'plan-file': files.plan!,
        path: 'docs/roadmap.md',
        'content-file': files['content-ok']!,
      };
    case 'recovery':
      return ledger;
    case 'probe':
      return {
        repository: `${OWNER}/sandbox`,
        'confirm-sandbox': `${OWNER}/sandbox`,
        token: LEDGER_TOKEN,
        'repository-token': OWNER_TOKEN,
        'dry-run': 'true',
      };
  }
}

/** Hostile values for any input: numbers out of range, junk, paths to everything a path can name. */
function hostileValue(): fc.Arbitrary<string> {
  const constants = fc.constantFrom(
    '',
    ' ',
    'true',
    'false',
    'TRUE',
    'yes',
    '0',
    '-1',
    '1',
    '2',
    '007',
    '1e3',
    '0x10',
    '99999999999999999999',
    '9007199254740993',
    'NaN',
    '999999',
    String(world.statusIssue),
    String(pullNumber),
    String(commentId),
    'a'.repeat(5000),
    'x\u0000y',
    '\u202egnp.exe',
    '\u001b[31mred',
    '::error::forged',
    '${{ secrets.TOKEN }}',
    LEDGER_TOKEN,
    'ghp_0123456789abcdefghijABCDEFGHIJ012345',
    runId,
    'build-artifacts',
    'notify-packagers',
    `${OWNER}/${REPO}`,
    `${OWNER}/missing-repo`,
    'acme/../x',
    'refs/heads/main',
    'bot/writ-ledger',
    'main',
    '.github/workflows/x.yml',
    '../../etc/passwd',
    '/etc/passwd',
    '/proc/self/environ',
    '/dev/zero',
    'claim',
    'release',
    'takeover',
    'done',
    'failed',
    'retry',
    'admin,write',
    'owner',
    '{"a":1}',
  );
  const paths = fc.constantFrom(...Object.values(files));
  return fc.oneof(
    { arbitrary: constants, weight: 6 },
    { arbitrary: paths, weight: 3 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
  );
}

/** Inputs read as numbers: most of their hostile values are numbers, in range or not, of things or not. */
const NUMERIC_INPUT =
  /^(status-issue|epoch|ledger-app-id|lease-seconds|max-steps|claim-window|precheck-page-cap|status-code)$/;

function hostileNumber(): fc.Arbitrary<string> {
  return fc.oneof(
    // In range, but the number of nothing, or of another kind of thing.
    { arbitrary: fc.constantFrom('999999', '424242'), weight: 3 },
    {
      arbitrary: fc.constantFrom(String(world.statusIssue), String(pullNumber), String(commentId)),
      weight: 2,
    },
    {
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1',
        '2',
        '007',
        '1e3',
        '0x10',
        ' 1',
        'NaN',
        '99999999999999999999',
        '9007199254740993',
      ),
      weight: 2,
    },
    { arbitrary: hostileValue(), weight: 1 },
  );
}

/** Inputs naming files: most of their hostile values are paths to everything a path can name. */
function hostilePath(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...Object.values(files)), weight: 4 },
    { arbitrary: hostileValue(), weight: 1 },
  );
}

/** The hostile values for one input, by what it holds. */
function hostileFor(name: string, secret: boolean): fc.Arbitrary<string> {
  if (secret) return hostileToken();
  if (NUMERIC_INPUT.test(name)) return hostileNumber();
  if (name.endsWith('-file')) return hostilePath();
  return hostileValue();
}

/**
 * Hostile tokens: missing, unknown, another account's, junk. Never a short word: the runner masks a
 * token wherever it appears, and a token `failed` would mask the very outcome this test reads.
 */
function hostileToken(): fc.Arbitrary<string> {
  return fc.constantFrom(
    '',
    ' ',
    'ghs_unknownInstallationToken000000000000',
    OWNER_TOKEN,
    '${{ secrets.WRIT_TOKEN }}',
    'z'.repeat(5000),
    'tok\u0000en-with-a-NUL',
    'token with spaces and\nnewline',
    '::error::forged-annotation',
  );
}

/**
 * One or two inputs changed to hostile values, the rest at their baseline: a case gets past every
 * check but the one it aims at, so each hostile value meets the code that reads it.
 */
function inputsArbitrary(stage: StageName): fc.Arbitrary<Record<string, string | null>> {
  const specs = STAGES[stage].inputs as Record<string, { secret?: boolean }>;
  const names = Object.keys(specs);
  const change = fc
    .constantFrom(...names)
    .chain((name) => fc.tuple(fc.constant(name), hostileFor(name, specs[name]?.secret === true)));
  return fc.array(change, { minLength: 1, maxLength: 2 }).map((changes) => {
    const inputs: Record<string, string | null> = Object.fromEntries(names.map((name) => [name, null]));
    for (const [name, value] of changes) inputs[name] = value;
    return inputs;
  });
}

/** Runner variables: mostly as the runner sets them, sometimes malformed or missing. */
function envArbitrary(): fc.Arbitrary<Record<string, string | null | undefined>> {
  const keep = fc.constant(null);
  const vary = (values: (string | undefined)[]) =>
    fc.oneof({ arbitrary: keep, weight: 20 }, { arbitrary: fc.constantFrom(...values), weight: 1 });
  return fc.record({
    GITHUB_REPOSITORY: vary([
      '',
      undefined,
      'acme',
      'acme/widgets/extra',
      'a b/c',
      '../..',
      'acme/missing-repo',
      '-/-',
    ]),
    GITHUB_RUN_ID: vary(['', undefined, '0', '-1', 'abc', '1e5', '99999999999999999999', ' 42']),
    GITHUB_RUN_ATTEMPT: vary(['', '0', 'x', '99999999999999999999']),
    GITHUB_API_URL: vary([
      'ftp://127.0.0.1/',
      'not a url',
      'http://user:pass@127.0.0.1:1',
      'http://127.0.0.1:1',
      'https://127.0.0.1:1/api/v3?x=1#y',
      `${world.ledgerWorld.emulator.url}/`,
      `${world.ledgerWorld.emulator.url}/api/v3`,
    ]),
    GITHUB_WORKSPACE: vary(['', '/', '/nonexistent-workspace']),
    RUNNER_TEMP: vary(['', undefined, '/', '/nonexistent-temp']),
    GITHUB_SERVER_URL: vary(['http://github.com', 'https://', 'javascript:alert(1)']),
    GITHUB_ACTOR_ID: vary(['', 'x', '-1', '99999999999999999999']),
  });
}

/** The event payload file: what the stage expects, or missing, not JSON, the wrong shape, huge. */
type EventChoice =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string }
  | { kind: 'path'; path: string }
  | { kind: 'unset' };

function eventArbitrary(): fc.Arbitrary<{ name: string | null; event: EventChoice | null }> {
  const created = (id: unknown): EventChoice => ({
    kind: 'json',
    value: { action: 'created', comment: { id } },
  });
  const event = fc.oneof(
    { arbitrary: fc.constant(null), weight: 8 },
    {
      arbitrary: fc.constantFrom<EventChoice>(
        { kind: 'unset' },
        { kind: 'path', path: '/nonexistent/event.json' },
        { kind: 'path', path: files.directory! },
        { kind: 'path', path: files.fifo! },
        { kind: 'path', path: files.binary! },
        { kind: 'path', path: files['deep-json']! },
        { kind: 'raw', text: '' },
        { kind: 'raw', text: 'not json' },
        { kind: 'raw', text: 'null' },
        { kind: 'raw', text: '"a string"' },
        { kind: 'raw', text: '[1,2]' },
        { kind: 'raw', text: `{"action":"created","comment":{"id":1},"pad":"${'x'.repeat(2_000_000)}"}` },
        created(commentId),
        created(99_999_999),
        created('12'),
        created(-1),
        created(1.5),
        created(null),
        { kind: 'json', value: { action: 'created', comment: null } },
        { kind: 'json', value: { action: 'created', comment: 7 } },
        { kind: 'json', value: { action: 'edited', comment: { id: commentId } } },
        {
          kind: 'json',
          value: {
            action: 'created',
            comment: { id: commentId },
            issue: { number: pullNumber, pull_request: {} },
          },
        },
      ),
      weight: 2,
    },
    {
      arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value): EventChoice => ({ kind: 'json', value })),
      weight: 1,
    },
  );
  const name = fc.oneof(
    { arbitrary: fc.constant(null), weight: 10 },
    { arbitrary: fc.constantFrom('', 'issue_comment', 'schedule', 'pull_request_target', 'push'), weight: 1 },
  );
  return fc.record({ name, event });
}

interface Outcome {
  outputs: Record<string, string>;
  log: string;
  summary: string;
}

/** Runs one stage's main with the case: the runner's environment set, then restored. */
async function runCase(
  stage: StageName,
  inputs: Record<string, string | null>,
  env: Record<string, string | null | undefined>,
  trigger: { name: string | null; event: EventChoice | null },
): Promise<Outcome> {
  const base = baseline(stage);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(inputs)) {
    const chosen = value ?? base[name];
    if (chosen !== undefined) values[name] = chosen;
  }
  const defaultEvent = stage === 'consume-approval' ? { action: 'created', comment: { id: commentId } } : {};
  const runner = runnerEnv(values, {
    event: trigger.event?.kind === 'json' ? trigger.event.value : defaultEvent,
    eventName: trigger.name ?? (stage === 'consume-approval' ? 'issue_comment' : 'workflow_dispatch'),
    env: {
      GITHUB_API_URL: world.ledgerWorld.emulator.url,
      GITHUB_WORKSPACE: world.workspace,
      RUNNER_TEMP: world.workspace,
    },
  });
  try {
    if (trigger.event?.kind === 'raw') writeFileSync(process.env.GITHUB_EVENT_PATH!, trigger.event.text);
    if (trigger.event?.kind === 'path') process.env.GITHUB_EVENT_PATH = trigger.event.path;
    if (trigger.event?.kind === 'unset') delete process.env.GITHUB_EVENT_PATH;
    for (const [name, value] of Object.entries(env)) {
      if (value === null) continue;
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
    await MAINS[stage]();
    return { outputs: runner.outputs(), log: runner.stdout.join(''), summary: runner.summary() };
  } finally {
    runner.restore();
  }
}

function describeCase(...parts: unknown[]): string {
  return JSON.stringify(parts, (_key, value: unknown) =>
    typeof value === 'string' && value.length > 120 ? `${value.slice(0, 60)}…(${value.length} chars)` : value,
  );
}

describe('every refusal is coded: hostile inputs, events, files and runner variables', () => {
  it.each(Object.keys(MAINS) as StageName[])(
    '%s never ends in internal-error and never prints a token',
    async (stage) => {
      const seed = SEED + Object.keys(MAINS).indexOf(stage);
      const property = fc.asyncProperty(
        inputsArbitrary(stage),
        envArbitrary(),
        eventArbitrary(),
        async (inputs, env, trigger) => {
          const outcome = await runCase(stage, inputs, env, trigger);
          const where = `stage ${stage}, seed ${seed}: ${describeCase(inputs, env, trigger)}`;
          // `::add-mask::` hands the runner the secrets to mask: the one line a token may be on.
          const log = outcome.log.replace(/^::add-mask::.*$/gm, '');
          const failure = /^::error::([^\n]*)/m.exec(log)?.[1] ?? '';
          if (process.env.WRIT_FUZZ_TRACE) console.log(stage, outcome.outputs.outcome, failure.slice(0, 160));
          if (outcome.outputs.reason === 'internal-error' || outcome.outputs.outcome === 'failed') {
            throw new Error(`internal-error (${failure}) for ${where}`);
          }
          for (const text of [log, outcome.summary, JSON.stringify(outcome.outputs)]) {
            if (text.includes(LEDGER_TOKEN) || text.includes(OWNER_TOKEN)) {
              throw new Error(`a token was printed for ${where}`);
            }
          }
          if (outcome.outputs.outcome === 'refused') {
            expect(failure.startsWith(`${outcome.outputs.reason}: `)).toBe(true);
          }
        },
      );
      await fc.assert(property, { seed, numRuns: RUNS, endOnFailure: true });
    },
    300_000,
  );
});
