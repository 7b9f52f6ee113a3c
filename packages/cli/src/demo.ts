/**
 * `writ demo` (README's first command): Writ's whole approval lifecycle against an embedded GitHub
 * emulator, every stage started from its committed bundle the way the runner starts it.
 */
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { bootstrapLedger, showLedger } from '@writ/core/ledger/bootstrap.js';
import { readRun } from '@writ/core/ledger/ledger.js';
import { loadPlanFile } from '@writ/core/plan/load.js';
import { renderPreview } from '@writ/core/preview/render.js';
import { OWNER, REPO, emulatorClient, patOf, startDemoWorld } from './demo-world.js';
import { REPO_ROOT, runStage } from './run-stage.js';
import type { StageRun } from './run-stage.js';

const APP = 'writ-demo';
const APP_TOKEN = 'ghs_DemoWritAppInstallationToken000000';
const MAINTAINER = 'ada';
const WRITER = 'wren';

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

export interface DemoResult {
  timeline: TimelineEntry[];
  ledger: Awaited<ReturnType<typeof showLedger>>;
  statusComment: string;
}

export async function runDemo(options: { log?: (line: string) => void } = {}): Promise<DemoResult> {
  const log = options.log ?? (() => undefined);
  const { emulator, app, ids, ledger } = await startDemoWorld({
    seed: 42,
    app: { slug: APP, token: APP_TOKEN },
    people: { [MAINTAINER]: 'maintain', [WRITER]: 'write' },
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

    const consume = await stage('consume-approval', { 'plan-file': planFile, ...ledgerInputs }, '202', event);
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

    const replay = await stage('consume-approval', { 'plan-file': planFile, ...ledgerInputs }, '303', event);
    await note(
      'consume-approval (replayed comment)',
      replay.outputs.outcome ?? '',
      replay.outputs.reason ?? '',
      'the approval is a one-time tombstone',
      'The same approval comment, delivered again, was refused: a consumed approval is a permanent tombstone.',
    );

    const overview = await showLedger(ledger);
    const { data: status } = await maintainer.rest.issues.getComment({
      owner: OWNER,
      repo: REPO,
      comment_id: Number(preview.outputs['status-comment-id']),
    });
    return { timeline, ledger: overview, statusComment: status.body ?? '' };
  } finally {
    await emulator.close();
    rmSync(scratch, { recursive: true, force: true });
  }
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
  const failed = result.timeline.filter((entry, index) =>
    index === result.timeline.length - 1 ? entry.reason !== 'approval-already-consumed' : entry.reason !== '',
  );
  return failed.length === 0 ? 0 : 1;
}
