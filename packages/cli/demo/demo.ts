/**
 * `writ demo` (README's first command): Writ's whole approval lifecycle against an embedded GitHub
 * emulator, every stage started from its committed bundle the way the runner starts it.
 */
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { commitOnBranch } from '@writ/core/github/commit-on-branch.js';
import type { GitHubClient } from '@writ/core/github/client.js';
import { idempotencyMarker } from '@writ/core/idempotency/key.js';
import { bootstrapLedger, showLedger } from '@writ/core/ledger/bootstrap.js';
import type { LedgerContext } from '@writ/core/ledger/cas.js';
import { readRun } from '@writ/core/ledger/ledger.js';
import { createKey, keyMarker } from '@writ/core/persist/steps.js';
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
import {
  DEMO_ACTIONS_TOKEN,
  OWNER,
  REPO,
  REPOSITORY,
  emulatorClient,
  patOf,
  seedRoadmapRepository,
  startDemoWorld,
} from './demo-world.js';
import { REPO_ROOT, runStage } from './run-stage.js';
import type { StageRun } from './run-stage.js';

const APP = 'writ-demo';
const APP_TOKEN = 'ghs_DemoWritAppInstallationToken000000';
const MAINTAINER = 'ada';
const WRITER = 'wren';
const SANDBOX = `${OWNER}/${REPO}-sandbox`;
const PROBE_TOKEN = 'ghs_DemoWritProbeSandboxToken000000000';
const WORKFLOW_TOKEN = 'ghs_DemoWorkflowGithubToken0000000000';
/** The step the demo's persist run is killed after (its write sent, its checkpoint not). */
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

export async function runDemo(options: { log?: (line: string) => void } = {}): Promise<DemoResult> {
  const log = options.log ?? (() => undefined);
  const { emulator, app, ids, ledger } = await startDemoWorld({
    seed: 42,
    app: { slug: APP, token: APP_TOKEN },
    people: { [MAINTAINER]: 'maintain', [WRITER]: 'write' },
    files: { [ALLOWLIST_PATH]: renderAllowlist({ schema: 1, repositories: [SANDBOX] }) },
    // Private: the probe's sandbox token must not see the repository it runs from (a 404 by name and ID).
    private: true,
  });
  // The job's temp directory: the rendered page lives there, as it would under $RUNNER_TEMP.
  const scratch = mkdtempSync(join(tmpdir(), 'writ-demo-'));
  try {
    const { admin } = emulator;
    const timeline: TimelineEntry[] = [];
    let seq = 0;
    const requestsSince = (): number => {
      const log = admin.requests();
      const count = log.filter((entry) => entry.seq > seq).length;
      seq = log.length === 0 ? seq : (log[log.length - 1]?.seq ?? seq);
      return count;
    };
    const head = async (): Promise<string> => (await readRun(ledger, 'demo-probe')).headOid.slice(0, 12);
    const note = async (
      stage: string,
      outcome: string,
      reason: string,
      detail: string,
      explain: string,
    ): Promise<void> => {
      const requests = requestsSince();
      const entry = { stage, outcome, reason, ledgerHead: await head(), requests, detail, explain };
      requestsSince(); // the ledger head read above is the demo's own, not the stage's
      timeline.push(entry);
      log(
        `${String(timeline.length).padStart(2)}. ${stage}: ${outcome}${reason === '' ? '' : ` (${reason})`}`,
      );
      for (const line of wrapText(`[ledger ${entry.ledgerHead}, ${requests} API requests] ${detail}`, '    '))
        log(line);
      for (const line of wrapText(explain, '    ')) log(line);
      log('');
    };

    log(
      `Writ demo: a GitHub emulator on ${emulator.url} with repository ${OWNER}/${REPO}, the Writ app ${APP}[bot], ${MAINTAINER} (maintain) and ${WRITER} (write).`
        .split('\n')
        .flatMap((line) => wrapText(line, ''))
        .join('\n'),
    );
    log('Each row: the stage, its outcome, the ledger head after it and the API requests it made.\n');
    await seedRoadmapRepository(emulator, { person: patOf(MAINTAINER), app: APP_TOKEN });
    seedSandbox(emulator.admin);
    requestsSince();
    const boot = await bootstrapLedger(ledger, { apply: true });
    await note(
      'writ bootstrap --apply',
      'created',
      '',
      `parentless root ${boot.root_oid?.slice(0, 12) ?? ''}`,
      'The ledger branch got its parentless root commit, written by the app after checking that the branch was absent and both ledger rulesets were in place.',
    );

    const maintainer = emulatorClient(emulator, patOf(MAINTAINER));
    const { data: issue } = await maintainer.rest.issues.create({
      owner: OWNER,
      repo: REPO,
      title: 'Release v2.5 dispatch',
    });
    requestsSince();
    const env = (runId: string) => ({
      RUNNER_TEMP: scratch,
      GITHUB_API_URL: emulator.url,
      GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
      GITHUB_RUN_ID: runId,
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_ACTOR_ID: String(ids[MAINTAINER]),
    });
    const ledgerInputs = {
      token: APP_TOKEN,
      'ledger-app-slug': APP,
      'ledger-app-id': String(app.id),
      'dry-run': 'false',
    };
    const planFile = join(REPO_ROOT, 'examples/release-plan.json');
    const stage = async (
      name: string,
      inputs: Record<string, string>,
      workflowRun: string,
      event?: unknown,
    ): Promise<StageRun> =>
      runStage({
        stage: name,
        inputs,
        env: env(workflowRun),
        workspace: REPO_ROOT,
        cleanup: true,
        ...(event === undefined ? {} : { event, eventName: 'issue_comment' }),
      });

    const preview = await stage(
      'preview',
      {
        'plan-file': planFile,
        'dry-run': 'false',
        token: APP_TOKEN,
        'ledger-app-slug': APP,
        'ledger-app-id': String(app.id),
        'status-issue': String(issue.number),
      },
      '101',
    );
    const runId = preview.outputs['run-id'] ?? '';
    await note(
      'preview (dry-run: false)',
      preview.outputs.outcome ?? '',
      preview.outputs.reason ?? '',
      `run ${runId}, status comment ${preview.outputs['status-comment-id'] ?? ''} on #${issue.number}`,
      'The plan was validated and digested, the run proposed in the ledger, and a status comment showing every step and the approve command was posted on the issue.',
    );

    const writer = emulatorClient(emulator, patOf(WRITER));
    const { data: comment } = await writer.rest.issues.createComment({
      owner: OWNER,
      repo: REPO,
      issue_number: issue.number,
      body: preview.outputs['approve-command'] ?? '',
    });
    requestsSince();
    const event = admin
      .events()
      .find(
        (e) => e.event === 'issue_comment' && (e.payload.comment as { id: number }).id === comment.id,
      )?.payload;
    // The command alone on its line (it is 99 columns), exactly as it is posted.
    log(`    @${WRITER} comments on #${issue.number}:`);
    log(` ${preview.outputs['approve-command'] ?? ''}`);
    for (const line of wrapText(
      'A repository writer posted the approve command from the status comment, as the whole comment.',
      '    ',
    ))
      log(line);
    log('');

    const consume = await stage(
      'consume-approval',
      { 'plan-file': planFile, ...ledgerInputs, 'actions-token': DEMO_ACTIONS_TOKEN },
      '202',
      event,
    );
    const epoch = consume.outputs.epoch ?? '';
    await note(
      'consume-approval',
      consume.outputs.outcome ?? '',
      consume.outputs.reason ?? '',
      `epoch ${epoch}, lease until ${consume.outputs['lease-expires-at'] ?? ''}`,
      "The approval comment was re-read from GitHub, its author's live role checked and the plan recomputed, then the approval and the repository lease were recorded in one compare-and-set ledger commit.",
    );

    for (const step of ['build-artifacts', 'notify-packagers']) {
      const common = { ...ledgerInputs, 'run-id': runId, epoch, 'step-id': step };
      const claim = await stage('claim-checkpoint', { ...common, operation: 'claim' }, '202');
      await note(
        `claim-checkpoint claim ${step}`,
        claim.outputs.outcome ?? '',
        claim.outputs.reason ?? '',
        `key ${(claim.outputs['idempotency-key'] ?? '').slice(0, 19)}…`,
        'The step was claimed at the lease epoch before its side effect, and the idempotency key to hand to the external system was returned.',
      );
      const done = await stage(
        'claim-checkpoint',
        { ...common, operation: 'checkpoint', 'step-outcome': 'done', 'status-code': '202' },
        '202',
      );
      await note(
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
    const page = join(scratch, 'release-plan.md');
    writeFileSync(
      page,
      renderPreview({
        plan: loadPlanFile(planFile),
        planDigest: preview.outputs.digest ?? '',
        runId,
        commandPrefix: 'writ',
      }),
    );
    const publishInputs = {
      ...ledgerInputs,
      'run-id': runId,
      epoch,
      'plan-file': planFile,
      path: 'docs/reference/release-plan.md',
      'content-file': page,
    };
    const published = await stage('publish-artifact', publishInputs, '202');
    await note(
      'publish-artifact',
      published.outputs.outcome ?? '',
      published.outputs.reason ?? '',
      `PR #${published.outputs['pr-number'] ?? ''} ${published.outputs['pr-url'] ?? ''}`,
      'The approval was re-verified, then the rendered plan was committed to a bot branch and offered through exactly one pull request.',
    );
    const republished = await stage('publish-artifact', publishInputs, '202');
    await note(
      'publish-artifact (same bytes again)',
      republished.outputs.outcome ?? '',
      republished.outputs.reason ?? '',
      'no commit, no PR update',
      'Publishing the same bytes again changed nothing: no commit, no pull request update.',
    );

    const replay = await stage(
      'consume-approval',
      { 'plan-file': planFile, ...ledgerInputs, 'actions-token': DEMO_ACTIONS_TOKEN },
      '303',
      event,
    );
    await note(
      'consume-approval (replayed comment)',
      replay.outputs.outcome ?? '',
      replay.outputs.reason ?? '',
      'the approval is a one-time tombstone',
      'The same approval comment, delivered again, was refused: a consumed approval is a permanent tombstone.',
    );

    const roadmap = await persistRoadmap({
      stage,
      note,
      log,
      requestsSince,
      maintainer,
      writer,
      admin,
      scratch,
      env: env('404'),
      ledgerInputs,
      ledger,
    });

    const overview = await showLedger(ledger);
    const { data: status } = await maintainer.rest.issues.getComment({
      owner: OWNER,
      repo: REPO,
      comment_id: Number(preview.outputs['status-comment-id']),
    });
    return { timeline, ledger: overview, statusComment: status.body ?? '', ...roadmap };
  } finally {
    await emulator.close();
    rmSync(scratch, { recursive: true, force: true });
  }
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

/**
 * The roadmap plan persisted: the probe's evidence (GitHub does not refuse stale writes) keeps the gate
 * closed under `require-proof`; the owner chooses `best-effort`; the run is killed between a write and
 * its checkpoint; the re-run reconciles it, the external step goes through claim-checkpoint, and the
 * run completes with every marker on exactly one resource.
 */
async function persistRoadmap(ctx: {
  stage: Stage;
  note: Note;
  log: (line: string) => void;
  requestsSince: () => number;
  maintainer: GitHubClient;
  writer: GitHubClient;
  admin: DemoAdmin;
  scratch: string;
  env: Record<string, string>;
  ledgerInputs: Record<string, string>;
  ledger: LedgerContext;
}): Promise<
  Pick<DemoResult, 'markers' | 'duplicates' | 'afterKill' | 'afterKillStatus' | 'roadmapStatusComment'>
> {
  const { stage, note, maintainer, admin, scratch, ledgerInputs } = ctx;
  const probed = await runStage({
    stage: 'probe',
    inputs: {
      repository: SANDBOX,
      'confirm-sandbox': SANDBOX,
      token: PROBE_TOKEN,
      'repository-token': WORKFLOW_TOKEN,
      'dry-run': 'false',
    },
    env: ctx.env,
    workspace: scratch,
    cleanup: true,
  });
  await note(
    'probe (sandbox)',
    probed.outputs.outcome ?? '',
    probed.outputs.reason ?? '',
    `cases ${(probed.outputs.cases ?? '').replaceAll(',', ', ')}`,
    `The probe tried stale conditional writes in ${SANDBOX}: GitHub applied them, so no case is proven and require-proof opens no step kind.`,
  );
  await commitFile(
    maintainer,
    EVIDENCE_PATH,
    readFileSync(join(scratch, EVIDENCE_PATH), 'utf8'),
    'Writ probe evidence',
  );
  ctx.requestsSince();

  const planFile = join(REPO_ROOT, 'examples/roadmap-plan.json');
  const plan = loadPlanFile(planFile);
  const preview = await stage(
    'preview',
    { 'plan-file': planFile, 'status-issue': '90', ...ledgerInputs },
    '404',
  );
  const runId = preview.outputs['run-id'] ?? '';
  await note(
    'preview roadmap-plan.json',
    preview.outputs.outcome ?? '',
    preview.outputs.reason ?? '',
    `run ${runId}, ${plan.steps.length} steps, status comment on #90`,
    'A second plan, eight milestone, issue, label and comment steps and one external step, was proposed in the ledger.',
  );
  const { data: comment } = await ctx.writer.rest.issues.createComment({
    owner: OWNER,
    repo: REPO,
    issue_number: 90,
    body: preview.outputs['approve-command'] ?? '',
  });
  ctx.requestsSince();
  const event = admin
    .events()
    .find(
      (e) => e.event === 'issue_comment' && (e.payload.comment as { id: number }).id === comment.id,
    )?.payload;
  const consume = await stage(
    'consume-approval',
    { 'plan-file': planFile, ...ledgerInputs, 'actions-token': DEMO_ACTIONS_TOKEN },
    '404',
    event,
  );
  const epoch = consume.outputs.epoch ?? '';
  await note(
    'consume-approval (roadmap)',
    consume.outputs.outcome ?? '',
    consume.outputs.reason ?? '',
    `epoch ${epoch}`,
    `The writer ${WRITER} approved the roadmap plan on #90 and the approval was consumed, taking the repository lease.`,
  );

  const persistInputs = {
    ...ledgerInputs,
    'run-id': runId,
    'plan-file': planFile,
    epoch,
    'persistence-enabled': 'true',
  };
  const closed = await stage('persist', persistInputs, '404');
  await note(
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
    maintainer,
    POLICY_PATH,
    renderPolicy({ schema: 1, kinds: bestEffort }),
    'Writ policy: best-effort',
  );
  ctx.requestsSince();
  const killed = await runStage({
    stage: 'persist',
    inputs: persistInputs,
    env: { ...ctx.env, WRIT_TEST_KILL_AFTER_WRITE: KILLED_STEP },
    workspace: REPO_ROOT,
    cleanup: true,
  });
  await note(
    'persist (best-effort, killed)',
    killed.status === null ? 'killed' : `exit ${String(killed.status)}`,
    '',
    `after the write of ${KILLED_STEP}, before its checkpoint`,
    `The owner chose best-effort in ${POLICY_PATH}; persist ran the steps in order and was killed after it created the epic issue but before recording it.`,
  );
  const afterKill = {
    status:
      (await readRun(ctx.ledger, runId)).run?.steps.find((step) => step.id === KILLED_STEP)?.status ?? '',
    resources: (await countMarkers(maintainer, plan))[KILLED_STEP] ?? 0,
  };
  const statusComment = async (): Promise<string> =>
    (
      await maintainer.rest.issues.getComment({
        owner: OWNER,
        repo: REPO,
        comment_id: Number(preview.outputs['status-comment-id']),
      })
    ).data.body ?? '';
  const afterKillStatus = await statusComment();
  ctx.requestsSince();
  const resumed = await stage('persist', persistInputs, '404');
  await note(
    'persist (re-run)',
    resumed.outputs.outcome ?? '',
    resumed.outputs.reason ?? '',
    `steps done ${resumed.outputs['steps-done'] ?? ''} of ${resumed.outputs['steps-total'] ?? ''}, next ${resumed.outputs['next-step'] ?? ''}`,
    'The re-run found the epic by its marker and recorded it without creating it again, then stopped at the external step.',
  );
  const external = plan.steps.find((step) => step.kind === 'external')?.id ?? '';
  for (const operation of ['claim', 'checkpoint']) {
    const done = await stage(
      'claim-checkpoint',
      {
        ...ledgerInputs,
        'run-id': runId,
        epoch,
        'step-id': external,
        operation,
        ...(operation === 'checkpoint' ? { 'step-outcome': 'done' } : {}),
      },
      '404',
    );
    await note(
      `claim-checkpoint ${operation} ${external}`,
      done.outputs.outcome ?? '',
      done.outputs.reason ?? '',
      `step ${done.outputs['step-status'] ?? ''}`,
      operation === 'claim'
        ? 'The workflow claimed the external step before telling the release planner.'
        : 'The external side effect was recorded in the ledger.',
    );
  }
  const completed = await stage('persist', persistInputs, '404');
  await note(
    'persist (after the external step)',
    completed.outputs.outcome ?? '',
    completed.outputs.reason ?? '',
    `steps done ${completed.outputs['steps-done'] ?? ''} of ${completed.outputs['steps-total'] ?? ''}`,
    'Every step of the roadmap plan is done, the run completed and the repository lease was released.',
  );
  const markers = await countMarkers(maintainer, plan);
  const roadmapStatusComment = await statusComment();
  ctx.requestsSince();
  const duplicates = Object.values(markers).reduce((sum, count) => sum + Math.max(0, count - 1), 0);
  ctx.log(`    duplicates: ${duplicates}`);
  for (const line of wrapText(
    `Counted on the emulator: the milestones, issues and comments carrying each step's marker (${Object.entries(
      markers,
    )
      .map(([step, count]) => `${step} ${count}`)
      .join(', ')}).`,
    '    ',
  ))
    ctx.log(line);
  ctx.log('');
  return { markers, duplicates, afterKill, afterKillStatus, roadmapStatusComment };
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
  '  README.md                  quick start, the GitHub App, the ledger rulesets, recovering a run',
  '  docs/errors.md             every failure code: what it means and what to do',
  "  actions/<stage>/README.md  each action's inputs and outputs",
  "  writ --help                every command (writ run <stage> --help lists a stage's inputs)",
  '  writ init --github --ref <commit>   set up your own repository (README: Quick start)',
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
