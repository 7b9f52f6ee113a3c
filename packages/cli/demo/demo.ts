/**
 * `writ demo` and `npm run demo` (README's first command): Writ's whole approval lifecycle against an
 * embedded GitHub emulator, every stage started from its committed bundle the way the runner starts
 * it, one persist run killed from the emulator mid-plan. Dev-only: it lives outside the `writ` CLI's
 * source, which loads it only for `writ demo`.
 */
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { commitOnBranch } from '@writ/core/github/commit-on-branch.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import { idempotencyMarker } from '@writ/core/idempotency/key.js';
import { bootstrapLedger, showLedger } from '@writ/core/ledger/bootstrap.js';
import { readRun } from '@writ/core/ledger/ledger.js';
import { createKey } from '@writ/core/plan/create-key.js';
import { keyMarker } from '@writ/core/persist/steps.js';
import { loadPlanFile } from '@writ/core/plan/load.js';
import type { Plan } from '@writ/core/plan/types.js';
import { EVIDENCE_PATH } from '@writ/core/probe/evidence.js';
import {
  ALLOWLIST_PATH,
  POLICY_KINDS,
  POLICY_PATH,
  renderAllowlist,
  renderPolicy,
} from '@writ/core/setup/files.js';
import { renderPreview } from '@writ/core/preview/render.js';
import { CrashPoints, requestTo } from '@writ/github-emulator/index.js';
import type { RequestLogEntry } from '@writ/github-emulator/index.js';
import {
  DEMO_ACTIONS_TOKEN,
  OWNER,
  REPO,
  REPOSITORY,
  emulatorClient,
  patOf,
  seedRoadmapRepository,
  startDemoWorld,
} from './world.js';
import type { DemoWorld } from './world.js';
import { REPO_ROOT, runStage } from '../src/run-stage.js';
import type { StageRun } from '../src/run-stage.js';

const APP = 'writ-demo';
const APP_TOKEN = 'ghs_DemoWritAppInstallationToken000000';
const MAINTAINER = 'ada';
const WRITER = 'wren';
const SANDBOX = `${OWNER}/${REPO}-sandbox`;
const PROBE_TOKEN = 'ghs_DemoWritProbeSandboxToken000000000';
const WORKFLOW_TOKEN = 'ghs_DemoWorkflowGithubToken0000000000';
/** The step the demo's persist run is killed at (its write applied, its checkpoint not made). */
const KILLED_STEP = 'create-offline-epic';

export interface TimelineEntry {
  stage: string;
  outcome: string;
  reason: string;
  ledgerHead: string;
  requests: number;
  detail: string;
  /** What the row shows, in one plain sentence. */
  explain: string;
}

/** The rows that end with a refusal on purpose (the demo shows them), by stage: their reason. */
const EXPECTED_REFUSALS: Record<string, string> = {
  'persist (require-proof)': 'github-conditional-mutation-not-proven',
  'consume-approval (replayed comment)': 'approval-already-consumed',
};

export interface DemoResult {
  timeline: TimelineEntry[];
  ledger: Awaited<ReturnType<typeof showLedger>>;
  statusComment: string;
  /** Each roadmap step that leaves a marker: how many resources on the emulator carry it. */
  markers: Record<string, number>;
  /** Resources beyond the first carrying one step's marker, over all steps. */
  duplicates: number;
  /** Right after the kill: the killed step's ledger status and how many resources carry its marker. */
  afterKill: { status: string; resources: number };
  /** Right after the kill: the roadmap run's status comment. */
  afterKillStatus: string;
  /** The roadmap run's status comment at the end. */
  roadmapStatusComment: string;
}

type Note = (
  stage: string,
  outcome: string,
  reason: string,
  detail: string,
  explain: string,
) => Promise<void>;
type Stage = (
  name: string,
  inputs: Record<string, string>,
  workflowRun: string,
  event?: unknown,
) => Promise<StageRun>;

/** What every part of the demo shares: the world, the timeline, and how it runs a stage. */
interface Demo {
  world: DemoWorld;
  admin: DemoAdmin;
  scratch: string;
  log: (line: string) => void;
  timeline: TimelineEntry[];
  /** Adds a timeline row for the stage just run (its requests counted since the last count). */
  note: Note;
  /** Requests since the last count (and starts a new count): the demo's own are left out this way. */
  requestsSince: () => number;
  maintainer: GitHubClient;
  writer: GitHubClient;
  /** The runner's environment for workflow run `runId`. */
  env: (runId: string) => Record<string, string>;
  ledgerInputs: Record<string, string>;
  stage: Stage;
  /** Where the killed persist run dies (the emulator applies the request, then kills the process). */
  crash: CrashPoints;
}

export async function runDemo(options: { log?: (line: string) => void } = {}): Promise<DemoResult> {
  const log = options.log ?? (() => undefined);
  const crash = new CrashPoints();
  const world = await startDemoWorld({
    seed: 42,
    app: { slug: APP, token: APP_TOKEN },
    people: { [MAINTAINER]: 'maintain', [WRITER]: 'write' },
    files: { [ALLOWLIST_PATH]: renderAllowlist({ schema: 1, repositories: [SANDBOX] }) },
    // Private: the probe's sandbox token must not see the repository it runs from (a 404 by name and ID).
    private: true,
    onRequest: crash.onRequest,
  });
  crash.attach(world.emulator.admin);
  // The job's temp directory: the rendered page lives there, as it would under $RUNNER_TEMP.
  const scratch = mkdtempSync(join(tmpdir(), 'writ-demo-'));
  try {
    const demo = demoContext(world, scratch, log, crash);
    const { emulator } = world;
    log(
      `Writ demo: a GitHub emulator on ${emulator.url} with repository ${OWNER}/${REPO}, the Writ app ${APP}[bot], ${MAINTAINER} (maintain) and ${WRITER} (write).`
        .split('\n')
        .flatMap((line) => wrapText(line, ''))
        .join('\n'),
    );
    log('Each row: the stage, its outcome, the ledger head after it and the API requests it made.\n');
    await seedRoadmapRepository(emulator, { person: patOf(MAINTAINER), app: APP_TOKEN });
    seedSandbox(emulator.admin);
    demo.requestsSince();
    const boot = await bootstrapLedger(world.ledger, { apply: true });
    await demo.note(
      'writ bootstrap --apply',
      'created',
      '',
      `parentless root ${boot.root_oid?.slice(0, 12) ?? ''}`,
      'The ledger branch got its parentless root commit, written by the app after checking that the branch was absent and both ledger rulesets were in place.',
    );

    const release = await approveRelease(demo);
    await finishRelease(demo, release);
    const roadmap = await approveRoadmap(demo);
    const persisted = await persistRoadmap(demo, roadmap);

    const overview = await showLedger(world.ledger);
    const { data: status } = await demo.maintainer.rest.issues.getComment({
      owner: OWNER,
      repo: REPO,
      comment_id: release.statusCommentId,
    });
    return { timeline: demo.timeline, ledger: overview, statusComment: status.body ?? '', ...persisted };
  } finally {
    await world.emulator.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The demo's shared parts: the timeline and its request counts, the clients, the stage runner. */
function demoContext(
  world: DemoWorld,
  scratch: string,
  log: (line: string) => void,
  crash: CrashPoints,
): Demo {
  const { emulator, app, ids, ledger } = world;
  const { admin } = emulator;
  const timeline: TimelineEntry[] = [];
  let seq = 0;
  const requestsSince = (): number => {
    const requests = admin.requests();
    const count = requests.filter((entry) => entry.seq > seq).length;
    seq = requests.length === 0 ? seq : (requests[requests.length - 1]?.seq ?? seq);
    return count;
  };
  const head = async (): Promise<string> => (await readRun(ledger, 'demo-probe')).headOid.slice(0, 12);
  const note: Note = async (stage, outcome, reason, detail, explain) => {
    const requests = requestsSince();
    const entry = { stage, outcome, reason, ledgerHead: await head(), requests, detail, explain };
    requestsSince(); // the ledger head read above is the demo's own, not the stage's
    timeline.push(entry);
    log(`${String(timeline.length).padStart(2)}. ${stage}: ${outcome}${reason === '' ? '' : ` (${reason})`}`);
    for (const line of wrapText(`[ledger ${entry.ledgerHead}, ${requests} API requests] ${detail}`, '    '))
      log(line);
    for (const line of wrapText(explain, '    ')) log(line);
    log('');
  };
  const env = (runId: string): Record<string, string> => ({
    RUNNER_TEMP: scratch,
    GITHUB_API_URL: emulator.url,
    GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
    GITHUB_RUN_ID: runId,
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_ACTOR_ID: String(ids[MAINTAINER]),
  });
  const stage: Stage = (name, inputs, workflowRun, event) =>
    runStage({
      stage: name,
      inputs,
      env: env(workflowRun),
      workspace: REPO_ROOT,
      cleanup: true,
      ...(event === undefined ? {} : { event, eventName: 'issue_comment' }),
    });
  return {
    world,
    admin,
    scratch,
    log,
    timeline,
    note,
    requestsSince,
    maintainer: emulatorClient(emulator, patOf(MAINTAINER)),
    writer: emulatorClient(emulator, patOf(WRITER)),
    env,
    ledgerInputs: {
      token: APP_TOKEN,
      'ledger-app-slug': APP,
      'ledger-app-id': String(app.id),
      'dry-run': 'false',
    },
    stage,
    crash,
  };
}

/** The writer posts the approve command on `issue`; the webhook payload GitHub delivers for it. */
async function postApproval(demo: Demo, issue: number, command: string): Promise<unknown> {
  const { data: comment } = await demo.writer.rest.issues.createComment({
    owner: OWNER,
    repo: REPO,
    issue_number: issue,
    body: command,
  });
  demo.requestsSince();
  return demo.admin
    .events()
    .find((e) => e.event === 'issue_comment' && (e.payload.comment as { id: number }).id === comment.id)
    ?.payload;
}

interface ApprovedRelease {
  planFile: string;
  runId: string;
  epoch: string;
  digest: string;
  statusCommentId: number;
  /** The approve comment's webhook payload (replayed later). */
  event: unknown;
}

/** The release plan previewed on a new issue, approved by the writer, and the approval consumed. */
async function approveRelease(demo: Demo): Promise<ApprovedRelease> {
  const { data: issue } = await demo.maintainer.rest.issues.create({
    owner: OWNER,
    repo: REPO,
    title: 'Release v2.5 dispatch',
  });
  demo.requestsSince();
  const planFile = join(REPO_ROOT, 'examples/release-plan.json');
  const preview = await demo.stage(
    'preview',
    {
      'plan-file': planFile,
      'dry-run': 'false',
      token: APP_TOKEN,
      'ledger-app-slug': APP,
      'ledger-app-id': String(demo.world.app.id),
      'status-issue': String(issue.number),
    },
    '101',
  );
  const runId = preview.outputs['run-id'] ?? '';
  await demo.note(
    'preview (dry-run: false)',
    preview.outputs.outcome ?? '',
    preview.outputs.reason ?? '',
    `run ${runId}, status comment ${preview.outputs['status-comment-id'] ?? ''} on #${issue.number}`,
    'The plan was validated and digested, the run proposed in the ledger, and a status comment showing every step and the approve command was posted on the issue.',
  );

  const event = await postApproval(demo, issue.number, preview.outputs['approve-command'] ?? '');
  // The command alone on its line (it is 99 columns), exactly as it is posted.
  demo.log(`    @${WRITER} comments on #${issue.number}:`);
  demo.log(` ${preview.outputs['approve-command'] ?? ''}`);
  for (const line of wrapText(
    'A repository writer posted the approve command from the status comment, as the whole comment.',
    '    ',
  ))
    demo.log(line);
  demo.log('');

  const consume = await demo.stage(
    'consume-approval',
    { 'plan-file': planFile, ...demo.ledgerInputs, 'actions-token': DEMO_ACTIONS_TOKEN },
    '202',
    event,
  );
  const epoch = consume.outputs.epoch ?? '';
  await demo.note(
    'consume-approval',
    consume.outputs.outcome ?? '',
    consume.outputs.reason ?? '',
    `epoch ${epoch}, lease until ${consume.outputs['lease-expires-at'] ?? ''}`,
    "The approval comment was re-read from GitHub, its author's live role checked and the plan recomputed, then the approval and the repository lease were recorded in one compare-and-set ledger commit.",
  );
  return {
    planFile,
    runId,
    epoch,
    digest: preview.outputs.digest ?? '',
    statusCommentId: Number(preview.outputs['status-comment-id']),
    event,
  };
}

/**
 * The approved release run to its end: both external steps claimed and checkpointed (the last
 * completes the run), the rendered plan published through one pull request (twice, the second changing
 * nothing), and the approve comment replayed and refused.
 */
async function finishRelease(demo: Demo, release: ApprovedRelease): Promise<void> {
  const { runId, epoch, planFile } = release;
  const ledgerInputs = demo.ledgerInputs;
  for (const step of ['build-artifacts', 'notify-packagers']) {
    const common = { ...ledgerInputs, 'run-id': runId, epoch, 'step-id': step };
    const claim = await demo.stage('claim-checkpoint', { ...common, operation: 'claim' }, '202');
    await demo.note(
      `claim-checkpoint claim ${step}`,
      claim.outputs.outcome ?? '',
      claim.outputs.reason ?? '',
      `key ${(claim.outputs['idempotency-key'] ?? '').slice(0, 19)}…`,
      'The step was claimed at the lease epoch before its side effect, and the idempotency key to hand to the external system was returned.',
    );
    const done = await demo.stage(
      'claim-checkpoint',
      { ...common, operation: 'checkpoint', 'step-outcome': 'done', 'status-code': '202' },
      '202',
    );
    await demo.note(
      `claim-checkpoint checkpoint ${step}`,
      done.outputs.outcome ?? '',
      done.outputs.reason ?? '',
      `step ${done.outputs['step-status'] ?? ''}`,
      step === 'notify-packagers'
        ? 'The outcome of the last step was recorded, and with it the run completed and the repository lease was released, in the same ledger commit.'
        : 'The outcome of the side effect was recorded in the ledger, renewing the lease.',
    );
  }

  // Publish the approved plan's rendered page through one bot PR.
  const page = join(demo.scratch, 'release-plan.md');
  writeFileSync(
    page,
    renderPreview({ plan: loadPlanFile(planFile), planDigest: release.digest, runId, commandPrefix: 'writ' }),
  );
  const publishInputs = {
    ...ledgerInputs,
    'run-id': runId,
    epoch,
    'plan-file': planFile,
    path: 'docs/reference/release-plan.md',
    'content-file': page,
  };
  const published = await demo.stage('publish-artifact', publishInputs, '202');
  await demo.note(
    'publish-artifact',
    published.outputs.outcome ?? '',
    published.outputs.reason ?? '',
    `PR #${published.outputs['pr-number'] ?? ''} ${published.outputs['pr-url'] ?? ''}`,
    'The approval was re-verified, then the rendered plan was committed to a bot branch and offered through exactly one pull request.',
  );
  const republished = await demo.stage('publish-artifact', publishInputs, '202');
  await demo.note(
    'publish-artifact (same bytes again)',
    republished.outputs.outcome ?? '',
    republished.outputs.reason ?? '',
    'no commit, no PR update',
    'Publishing the same bytes again changed nothing: no commit, no pull request update.',
  );

  const replay = await demo.stage(
    'consume-approval',
    { 'plan-file': planFile, ...ledgerInputs, 'actions-token': DEMO_ACTIONS_TOKEN },
    '303',
    release.event,
  );
  await demo.note(
    'consume-approval (replayed comment)',
    replay.outputs.outcome ?? '',
    replay.outputs.reason ?? '',
    'the approval is a one-time tombstone',
    'The same approval comment, delivered again, was refused: a consumed approval is a permanent tombstone.',
  );
}

/** A sandbox repository for the probe, and the two tokens the probe workflow gets. */
function seedSandbox(admin: DemoAdmin): void {
  const [owner = '', name = ''] = SANDBOX.split('/');
  admin.createRepo({ owner, name, private: true, files: { 'README.md': '# sandbox\n' } });
  admin.createApp({ slug: 'writ-probe' });
  admin.createToken({
    token: PROBE_TOKEN,
    kind: 'installation',
    app: 'writ-probe',
    repositories: [SANDBOX],
    permissions: { contents: 'write', issues: 'write', administration: 'write' },
  });
  admin.createToken({
    token: WORKFLOW_TOKEN,
    kind: 'github_token',
    repositories: [REPOSITORY],
    permissions: { contents: 'read' },
  });
}

type DemoAdmin = Awaited<ReturnType<typeof startDemoWorld>>['emulator']['admin'];

/** The maintainer commits one file to the default branch (in a real repository: a reviewed PR). */
async function commitFile(
  github: GitHubClient,
  path: string,
  contents: string,
  headline: string,
): Promise<void> {
  const head = (await github.rest.git.getRef({ owner: OWNER, repo: REPO, ref: 'heads/main' })).data.object
    .sha;
  await commitOnBranch(
    github,
    {
      repository: REPOSITORY,
      branch: 'main',
      expectedHeadOid: head,
      headline,
      body: '',
      additions: [{ path, contents }],
    },
    'artifact',
  );
}

/** How many resources on the emulator carry each roadmap step's marker (a create's or a key's). */
async function countMarkers(github: GitHubClient, plan: Plan): Promise<Record<string, number>> {
  const base = { owner: OWNER, repo: REPO };
  const milestones = await github.paginate(github.rest.issues.listMilestones, {
    ...base,
    state: 'all',
    per_page: 100,
  });
  const issues = await github.paginate(github.rest.issues.listForRepo, {
    ...base,
    state: 'all',
    per_page: 100,
  });
  const counts: Record<string, number> = {};
  for (const step of plan.steps) {
    if (step.kind === 'milestone.upsert')
      counts[step.id] = milestones.filter((m) => (m.description ?? '').includes(keyMarker(step.key))).length;
    else if (step.kind === 'issue.create') {
      const marker = idempotencyMarker(createKey(step));
      counts[step.id] = issues.filter((i) => (i.body ?? '').includes(marker)).length;
    } else if (step.kind === 'comment.upsert') {
      const comments = await github.paginate(github.rest.issues.listComments, {
        ...base,
        issue_number: step.issue,
        per_page: 100,
      });
      counts[step.id] = comments.filter((c) => (c.body ?? '').includes(keyMarker(step.key))).length;
    }
  }
  return counts;
}

interface ApprovedRoadmap {
  planFile: string;
  plan: Plan;
  runId: string;
  epoch: string;
  statusCommentId: number;
}

/**
 * The roadmap plan approved: the probe runs against the sandbox and its evidence (GitHub does not
 * refuse stale writes) is committed, then the plan is previewed on #90, approved and consumed.
 */
async function approveRoadmap(demo: Demo): Promise<ApprovedRoadmap> {
  const env = demo.env('404');
  const probed = await runStage({
    stage: 'probe',
    inputs: {
      repository: SANDBOX,
      'confirm-sandbox': SANDBOX,
      token: PROBE_TOKEN,
      'repository-token': WORKFLOW_TOKEN,
      'dry-run': 'false',
    },
    env,
    workspace: demo.scratch,
    cleanup: true,
  });
  await demo.note(
    'probe (sandbox)',
    probed.outputs.outcome ?? '',
    probed.outputs.reason ?? '',
    `cases ${(probed.outputs.cases ?? '').replaceAll(',', ', ')}`,
    `The probe tried stale conditional writes in ${SANDBOX}: GitHub applied them, so no case is proven and require-proof opens no step kind.`,
  );
  await commitFile(
    demo.maintainer,
    EVIDENCE_PATH,
    readFileSync(join(demo.scratch, EVIDENCE_PATH), 'utf8'),
    'Writ probe evidence',
  );
  demo.requestsSince();

  const planFile = join(REPO_ROOT, 'examples/roadmap-plan.json');
  const plan = loadPlanFile(planFile);
  const preview = await demo.stage(
    'preview',
    { 'plan-file': planFile, 'status-issue': '90', ...demo.ledgerInputs },
    '404',
  );
  const runId = preview.outputs['run-id'] ?? '';
  await demo.note(
    'preview roadmap-plan.json',
    preview.outputs.outcome ?? '',
    preview.outputs.reason ?? '',
    `run ${runId}, ${plan.steps.length} steps, status comment on #90`,
    'A second plan, eight milestone, issue, label and comment steps and one external step, was proposed in the ledger.',
  );
  const event = await postApproval(demo, 90, preview.outputs['approve-command'] ?? '');
  const consume = await demo.stage(
    'consume-approval',
    { 'plan-file': planFile, ...demo.ledgerInputs, 'actions-token': DEMO_ACTIONS_TOKEN },
    '404',
    event,
  );
  const epoch = consume.outputs.epoch ?? '';
  await demo.note(
    'consume-approval (roadmap)',
    consume.outputs.outcome ?? '',
    consume.outputs.reason ?? '',
    `epoch ${epoch}`,
    `The writer ${WRITER} approved the roadmap plan on #90 and the approval was consumed, taking the repository lease.`,
  );
  return { planFile, plan, runId, epoch, statusCommentId: Number(preview.outputs['status-comment-id']) };
}

/** The roadmap run's status comment as it stands. */
async function roadmapStatus(demo: Demo, roadmap: ApprovedRoadmap): Promise<string> {
  const { data } = await demo.maintainer.rest.issues.getComment({
    owner: OWNER,
    repo: REPO,
    comment_id: roadmap.statusCommentId,
  });
  return data.body ?? '';
}

/**
 * The approved roadmap persisted: the committed evidence keeps the gate closed under `require-proof`;
 * the owner chooses `best-effort`; the run is killed between a write and its checkpoint; the re-run
 * reconciles it, the external step goes through claim-checkpoint, and the run completes with every
 * marker on exactly one resource.
 */
async function persistRoadmap(
  demo: Demo,
  roadmap: ApprovedRoadmap,
): Promise<
  Pick<DemoResult, 'markers' | 'duplicates' | 'afterKill' | 'afterKillStatus' | 'roadmapStatusComment'>
> {
  const { runId, epoch, planFile, plan } = roadmap;
  const persistInputs = {
    ...demo.ledgerInputs,
    'run-id': runId,
    'plan-file': planFile,
    epoch,
    'persistence-enabled': 'true',
  };
  const closed = await demo.stage('persist', persistInputs, '404');
  await demo.note(
    'persist (require-proof)',
    closed.outputs.outcome ?? '',
    closed.outputs.reason ?? '',
    `steps done ${closed.outputs['steps-done'] ?? ''} of ${closed.outputs['steps-total'] ?? ''}, no write`,
    'The gate read the committed evidence and the default policy: GitHub cannot refuse a stale write, so no step ran.',
  );

  const bestEffort = Object.fromEntries(POLICY_KINDS.map((kind) => [kind, 'best-effort'])) as Parameters<
    typeof renderPolicy
  >[0]['kinds'];
  await commitFile(
    demo.maintainer,
    POLICY_PATH,
    renderPolicy({ schema: 1, kinds: bestEffort }),
    'Writ policy: best-effort',
  );
  demo.requestsSince();
  const { afterKill, afterKillStatus } = await persistKilled(demo, roadmap, persistInputs);

  const resumed = await demo.stage('persist', persistInputs, '404');
  await demo.note(
    'persist (re-run)',
    resumed.outputs.outcome ?? '',
    resumed.outputs.reason ?? '',
    `steps done ${resumed.outputs['steps-done'] ?? ''} of ${resumed.outputs['steps-total'] ?? ''}, next ${resumed.outputs['next-step'] ?? ''}`,
    'The re-run found the epic by its marker and recorded it without creating it again, then stopped at the external step.',
  );
  const external = plan.steps.find((step) => step.kind === 'external')?.id ?? '';
  for (const operation of ['claim', 'checkpoint']) {
    const done = await demo.stage(
      'claim-checkpoint',
      {
        ...demo.ledgerInputs,
        'run-id': runId,
        epoch,
        'step-id': external,
        operation,
        ...(operation === 'checkpoint' ? { 'step-outcome': 'done' } : {}),
      },
      '404',
    );
    await demo.note(
      `claim-checkpoint ${operation} ${external}`,
      done.outputs.outcome ?? '',
      done.outputs.reason ?? '',
      `step ${done.outputs['step-status'] ?? ''}`,
      operation === 'claim'
        ? 'The workflow claimed the external step before telling the release planner.'
        : 'The external side effect was recorded in the ledger.',
    );
  }
  const completed = await demo.stage('persist', persistInputs, '404');
  await demo.note(
    'persist (after the external step)',
    completed.outputs.outcome ?? '',
    completed.outputs.reason ?? '',
    `steps done ${completed.outputs['steps-done'] ?? ''} of ${completed.outputs['steps-total'] ?? ''}`,
    'Every step of the roadmap plan is done, the run completed and the repository lease was released.',
  );
  return {
    ...(await countDuplicates(demo, plan)),
    afterKill,
    afterKillStatus,
    roadmapStatusComment: await roadmapStatus(demo, roadmap),
  };
}

/**
 * Persist under best-effort, killed (SIGKILL, from the emulator's crash point) once GitHub applied the
 * epic's create and before persist heard back, so before its checkpoint; then what it left: the step's
 * ledger status, the resources carrying its marker, the status comment.
 */
async function persistKilled(
  demo: Demo,
  roadmap: ApprovedRoadmap,
  persistInputs: Record<string, string>,
): Promise<Pick<DemoResult, 'afterKill' | 'afterKillStatus'>> {
  const epic = roadmap.plan.steps.find((step) => step.id === KILLED_STEP);
  if (epic?.kind !== 'issue.create') throw new Error(`the roadmap plan has no issue.create ${KILLED_STEP}`);
  const marker = idempotencyMarker(createKey(epic));
  const createIssue = requestTo('POST', /^\/repos\/[^/]+\/[^/]+\/issues$/);
  const epicCreate = (entry: RequestLogEntry, body: unknown): boolean => {
    const text = (body as { body?: unknown } | undefined)?.body;
    return createIssue(entry, body) && typeof text === 'string' && text.includes(marker);
  };
  let killed: StageRun;
  try {
    killed = await runStage({
      stage: 'persist',
      inputs: persistInputs,
      env: demo.env('404'),
      workspace: REPO_ROOT,
      cleanup: true,
      onSpawn: (child) => demo.crash.arm(epicCreate, () => child.kill('SIGKILL')),
    });
  } finally {
    demo.crash.disarm();
  }
  await demo.note(
    'persist (best-effort, killed)',
    killed.status === null ? 'killed' : `exit ${String(killed.status)}`,
    '',
    `after the write of ${KILLED_STEP}, before its checkpoint`,
    `The owner chose best-effort in ${POLICY_PATH}; persist ran the steps in order and was killed after it created the epic issue but before recording it.`,
  );
  const afterKill = {
    status:
      (await readRun(demo.world.ledger, roadmap.runId)).run?.steps.find((step) => step.id === KILLED_STEP)
        ?.status ?? '',
    resources: (await countMarkers(demo.maintainer, roadmap.plan))[KILLED_STEP] ?? 0,
  };
  const afterKillStatus = await roadmapStatus(demo, roadmap);
  demo.requestsSince();
  return { afterKill, afterKillStatus };
}

/** Each step's marker counted on the emulator, the duplicates among them, printed. */
async function countDuplicates(demo: Demo, plan: Plan): Promise<Pick<DemoResult, 'markers' | 'duplicates'>> {
  const markers = await countMarkers(demo.maintainer, plan);
  const duplicates = Object.values(markers).reduce((sum, count) => sum + Math.max(0, count - 1), 0);
  demo.log(`    duplicates: ${duplicates}`);
  for (const line of wrapText(
    `Counted on the emulator: the milestones, issues and comments carrying each step's marker (${Object.entries(
      markers,
    )
      .map(([step, count]) => `${step} ${count}`)
      .join(', ')}).`,
    '    ',
  ))
    demo.log(line);
  demo.log('');
  return { markers, duplicates };
}

/** Wraps prose at `width` columns (default 100), each line starting with `indent`. */
export function wrapText(text: string, indent: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((part) => part !== '')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(`${indent}${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines;
}

export const WHERE_NEXT = [
  'Where to look next:',
  '  README.md                  using Writ in your repository, the GitHub App, recovering a run',
  '  docs/errors.md             every failure code: what it means and what to do',
  "  actions/<stage>/README.md  each action's inputs and outputs",
  "  writ --help                every command (writ run <stage> --help lists a stage's inputs)",
  '  docs/glossary.md           the words Writ uses: epoch, lease, claim, checkpoint, marker…',
  '  writ init --github --ref <commit>   set up your own repository (README: Using Writ…)',
];

/** Prints the demo: the timeline as it happens, then the final ledger, then where to look next. */
export async function printDemo(): Promise<number> {
  const print = (line: string): void => console.log(line);
  const result = await runDemo({ log: print });
  const { lease } = result.ledger;
  print(`Final ledger (bot/writ-ledger), head ${result.ledger.headOid.slice(0, 12)}:`);
  print(
    `  lease: epoch ${lease.epoch}, ${lease.holder === null ? 'free (released when the run completed)' : `held by ${lease.holder.run_id} until ${lease.lease_expires_at ?? '-'}`}`,
  );
  for (const run of result.ledger.runs) {
    for (const line of wrapText(
      `run ${run.run_id}: ${run.state}, approved by ${run.approval?.actor_login ?? '-'} (comment ${run.approval?.comment_id ?? '-'}), steps ${run.steps.map((s) => `${s.id}=${s.status}`).join(', ')}`,
      '  ',
    ))
      print(line);
  }
  print('\nStatus comment on the issue (first lines):');
  for (const line of result.statusComment.split('\n').slice(1, 6)) {
    for (const wrapped of wrapText(line, '  ')) print(wrapped);
  }
  print('');
  for (const line of WHERE_NEXT) print(line);
  const failed = result.timeline.filter((entry) => entry.reason !== (EXPECTED_REFUSALS[entry.stage] ?? ''));
  return failed.length === 0 && result.duplicates === 0 ? 0 : 1;
}
