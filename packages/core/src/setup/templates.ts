/**
 * The one source of every file `writ init --github` renders and of `workflows-templates/` (generated from
 * it by `scripts/build/generate-templates.ts`, checked fresh by `npm run check-dist`).
 *
 * Workflows follow the operations reference §10: `permissions: {}` at the top and,
 * per job, only what GITHUB_TOKEN itself does (checkout: `contents: read`; the Writ app's installation
 * token does every write), each job's app token minted with exactly its stages' scopes (both from the one
 * table in `permissions.ts`); with `environment`, the jobs that write the plan's effects (persist,
 * publish) run in that GitHub Environment (operations reference §11); concurrency on the jobs that write, never on every `issue_comment` run (a
 * workflow-level group would let any ordinary comment cancel a waiting approval); the app's ID and slug
 * from the repository variables `WRIT_APP_ID` / `WRIT_APP_SLUG`, its key from the secret
 * `WRIT_APP_PRIVATE_KEY` (references only); every action pinned by a 40-hex commit with its version.
 *
 * Every Writ step's `with:` is checked against the stage's declared inputs (`io/registry.ts`): a required
 * input without a value, or a value for an input the stage does not declare, is a render error, so a
 * template can never drift from the actions it calls.
 */
import { STAGES } from '../io/registry.js';
import { validateEnvironmentName } from './environment-name.js';
import type { JobPermissions, WorkflowFile } from './permissions.js';
import { ENVIRONMENT_JOBS, appTokenInputs, githubTokenLines, jobPermissions } from './permissions.js';
import type { RenderSettings, RenderedFile, WritConfig, WritPin } from './types.js';

/** The ref of the reference copies in `workflows-templates/` (init always pins a real commit). */
export const PLACEHOLDER_REF = '0'.repeat(40);

/** Reviewed third-party actions, pinned by commit. */
export const THIRD_PARTY = {
  checkout: 'actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2',
  appToken: 'actions/create-github-app-token@d72941d797fd3113feb6b93fd0dec494b13a2547 # v1.12.0',
  // The Pages control tower (`writ init --pages`, docs/pages.md).
  uploadPages: 'actions/upload-pages-artifact@fc324d3547104276b827a68afc52ff2a11cc49c9 # v5.0.0',
  deployPages: 'actions/deploy-pages@cd2ce8fcbc39b97be8ca5fce6e763baed58fa128 # v5.0.0',
} as const;

/** What waits for a stage that is not released yet; rendered when the stage lands in `actions/`. */
export const PENDING_STAGES: readonly { stage: string; what: string }[] = [];

type StageName = keyof typeof STAGES;

/**
 * A persist job writes until its time budget is spent (well inside GitHub's 6-hour job limit), then hands
 * over (`outcome: handover`); its job's timeout sits above the budget, so the hand-over always happens.
 */
export const PERSIST_TIME_BUDGET_MINUTES = 300;
export const PERSIST_TIMEOUT_MINUTES = 350;

/** The `with:` values of a step, by input name (each must be an input the stage declares). */
type Wiring = Record<string, string>;

const CONCURRENCY = (lane: string): string[] => [
  '    concurrency:',
  `      group: writ-${lane}-\${{ github.repository }}`,
  '      cancel-in-progress: false',
];

function quote(value: string): string {
  // Expressions and plain words go bare; anything else as a YAML single-quoted scalar.
  if (/^\$\{\{[^}]*\}\}$/.test(value) || /^[A-Za-z0-9_./-]+$/.test(value)) {
    return /^(true|false|yes|no|on|off|null|~|[0-9.]+)$/i.test(value) ? `'${value}'` : value;
  }
  return `'${value.replace(/'/g, "''")}'`;
}

function writStep(
  pin: WritPin,
  stage: StageName,
  name: string,
  id: string | null,
  wiring: Wiring,
  condition?: string,
): string[] {
  const declared = STAGES[stage].inputs as Record<string, { required: boolean }>;
  const lines = [`      - name: ${name}`];
  if (id !== null) lines.push(`        id: ${id}`);
  if (condition !== undefined) lines.push(`        if: ${condition}`);
  lines.push(`        uses: ${pin.repository}/actions/${stage}@${pin.ref} # ${pin.version}`, '        with:');
  for (const [input, value] of Object.entries(wiring)) {
    if (!Object.hasOwn(declared, input)) throw new Error(`template bug: ${stage} declares no input ${input}`);
    lines.push(`          ${input}: ${quote(value)}`);
  }
  for (const [input, spec] of Object.entries(declared)) {
    if (spec.required && !Object.hasOwn(wiring, input)) {
      throw new Error(`template bug: ${stage}'s required input ${input} has no value`);
    }
  }
  return lines;
}

function checkout(): string[] {
  return [`      - uses: ${THIRD_PARTY.checkout}`, '        with:', '          persist-credentials: false'];
}

/**
 * The job's app token: create-github-app-token (v1.12.0 is its first release with the `permission-<name>`
 * inputs) minted with the job's scopes from the table, never the installation's full set.
 */
function appToken(row: JobPermissions, project = false): string[] {
  return [
    '      - name: Writ app token',
    '        id: app-token',
    `        uses: ${THIRD_PARTY.appToken}`,
    '        with:',
    '          app-id: ${{ vars.WRIT_APP_ID }}',
    '          private-key: ${{ secrets.WRIT_APP_PRIVATE_KEY }}',
    ...appTokenInputs(row, project),
  ];
}

/** The `environment:` line of a job that writes the plan's effects, when the owner chose an Environment. */
function environmentLines(job: string, environment: string | undefined): string[] {
  if (environment === undefined || !ENVIRONMENT_JOBS.includes(job)) return [];
  return [
    "    # The Environment's protection rules (required reviewers) pass before this job starts.",
    `    environment: ${quote(validateEnvironmentName(environment))}`,
  ];
}

/** A job's GITHUB_TOKEN `permissions:` (from the table) and, for a job that writes, its Environment. */
function jobAccess(workflow: WorkflowFile, job: string, environment: string | undefined): string[] {
  return [...githubTokenLines(jobPermissions(workflow, job)), ...environmentLines(job, environment)];
}

/**
 * The app token step of a job, with the job's scopes from the table (and, with a project named in the
 * config, `organization-projects: write` for the jobs that keep the project item).
 */
function jobToken(workflow: WorkflowFile, job: string, config: WritConfig): string[] {
  return appToken(jobPermissions(workflow, job), config.project !== undefined);
}

/** The `project` input of the stages that keep the run's project item: `OWNER/NUMBER`, when named. */
function projectWiring(config: WritConfig): Wiring {
  return config.project === undefined ? {} : { project: `${config.project.owner}/${config.project.number}` };
}

function ledgerWiring(config: WritConfig): Wiring {
  return {
    'ledger-branch': config.ledger_branch,
    'ledger-app-slug': '${{ vars.WRIT_APP_SLUG }}',
    'ledger-app-id': '${{ vars.WRIT_APP_ID }}',
  };
}

const HEADER = (what: string, pin: WritPin, environment?: string): string[] => [
  `# Writ: ${what}`,
  pin.ref === PLACEHOLDER_REF
    ? '# Reference copy generated by scripts/build/generate-templates.ts: run writ init --github --ref <commit>.'
    : `# Rendered by writ init --github (Writ ${pin.version}, ${pin.repository}@${pin.ref}).`,
  '# Edit freely: init never overwrites a file you changed, it reports a conflict instead.',
  '# Needs the repository variables WRIT_APP_ID and WRIT_APP_SLUG and the secret WRIT_APP_PRIVATE_KEY',
  '# of the Writ GitHub App; replace ./scripts/plan with your planner (it must print the same plan',
  '# every time it runs on the same inputs).',
  ...(environment === undefined
    ? []
    : [
        `# The persist and publish jobs run in the GitHub Environment ${validateEnvironmentName(environment)}: they start only`,
        '# after its protection rules pass (its required reviewers approve). Create it before the first run.',
      ]),
];

export function renderPreviewWorkflow({ pin, config, environment }: RenderSettings): string {
  const lines = [
    ...HEADER('preview a plan and propose it for approval.', pin, undefined),
    'name: Writ preview',
    '',
    'on:',
    '  workflow_dispatch:',
    '    inputs:',
    '      status-issue:',
    "        description: Issue that carries the run's status comment",
    '        required: false',
    '        type: string',
    '  issues:',
    '    types: [labeled]',
    '',
    'permissions: {}',
    '',
    'jobs:',
    '  preview:',
    "    if: github.event_name == 'workflow_dispatch' || github.event.label.name == 'writ:preview'",
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 15',
    '    # GITHUB_TOKEN only checks out; the Writ app token does every write.',
    // The preview writes none of the plan's effects: it never runs in the Environment.
    ...jobAccess('writ-preview.yml', 'preview', undefined),
    ...CONCURRENCY('preview'),
    '    steps:',
    ...checkout(),
    '',
    '      - name: Plan',
    '        run: ./scripts/plan > "$RUNNER_TEMP/plan.json"',
    '',
    ...jobToken('writ-preview.yml', 'preview', config),
    '',
    ...writStep(pin, 'preview', 'Preview and propose', null, {
      'plan-file': '${{ runner.temp }}/plan.json',
      'command-prefix': config.command_prefix,
      'dry-run': 'false',
      token: '${{ steps.app-token.outputs.token }}',
      ...ledgerWiring(config),
      'status-issue': '${{ github.event.issue.number || inputs.status-issue }}',
      // What the preview states about its gate: who may approve, and the writing jobs' Environment.
      'allowed-roles': config.allowed_roles.join(','),
      ...(environment === undefined ? {} : { environment: validateEnvironmentName(environment) }),
      ...projectWiring(config),
    }),
  ];
  return `${lines.join('\n')}\n`;
}

/** The approve job: a cheap `if:` filter on the command verbs, then consume-approval verifies the comment. */
function approveJob(pin: WritPin, config: WritConfig, roles: string): string[] {
  const commands = ['approve', 'reconcile', 'cancel']
    .map((verb) => `startsWith(github.event.comment.body, '${config.command_prefix}: ${verb} ')`)
    .join(' || ');
  return [
    '  approve:',
    '    # A cheap filter only: consume-approval re-reads and verifies the comment server-side.',
    `    if: "${commands}"`,
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 30',
    ...jobAccess('writ-approval.yml', 'approve', undefined),
    ...CONCURRENCY('approve'),
    '    outputs:',
    '      run-id: ${{ steps.approval.outputs.run-id }}',
    '      epoch: ${{ steps.approval.outputs.epoch }}',
    '      outcome: ${{ steps.approval.outputs.outcome }}',
    '    steps:',
    ...checkout(),
    '',
    '      - name: Recompute the plan from a fresh input',
    '        run: ./scripts/plan > "$RUNNER_TEMP/plan.json"',
    '',
    // Minted before consume-approval, which is the authority check: it re-reads the comment and the
    // commenter's live role and proves the ledger (the rulesets' bypass actors, which only the app's
    // administration scope sees) in the same stage that consumes, so no GITHUB_TOKEN-only check can
    // stand before it; the job's `if:` keeps the token from ordinary comments.
    '      # The token comes before consume-approval because that stage is the authority check itself (the',
    "      # comment and the commenter's live role, read by the app that proves the ledger).",
    ...jobToken('writ-approval.yml', 'approve', config),
    '',
    ...writStep(pin, 'consume-approval', 'Consume the approval', 'approval', {
      token: '${{ steps.app-token.outputs.token }}',
      'actions-token': '${{ github.token }}',
      'plan-file': '${{ runner.temp }}/plan.json',
      'command-prefix': config.command_prefix,
      'allowed-roles': roles,
      ...ledgerWiring(config),
      ...projectWiring(config),
      'dry-run': 'false',
    }),
  ];
}

/** The approval workflow's persist job, behind the persistence gate (the repository variable WRIT_PERSISTENCE_ENABLED). */
function approvalPersistJob(
  pin: WritPin,
  config: WritConfig,
  roles: string,
  environment: string | undefined,
): string[] {
  return [
    '  persist:',
    "    # The plan's milestone, issue, label and comment writes, behind the persistence gate; skipped",
    '    # unless the owner set the repository variable WRIT_PERSISTENCE_ENABLED to true. The app token',
    '    # writes; GITHUB_TOKEN only checks out. An `external` step stops it with outcome',
    '    # waiting-external: perform that step under claim-checkpoint, then run persist again. Once its',
    '    # time budget is spent with steps left it hands over (outcome handover): the release job frees',
    '    # the lease and the handover job starts the recovery workflow, which resumes the run at once.',
    '    needs: approve',
    "    if: needs.approve.outputs.outcome == 'approved' && vars.WRIT_PERSISTENCE_ENABLED == 'true'",
    '    runs-on: ubuntu-latest',
    `    timeout-minutes: ${PERSIST_TIMEOUT_MINUTES}`,
    '    # GITHUB_TOKEN reads only: every issue and milestone write is made with the app token.',
    ...jobAccess('writ-approval.yml', 'persist', environment),
    ...CONCURRENCY('persist'),
    '    outputs:',
    '      outcome: ${{ steps.persist.outputs.outcome }}',
    '    steps:',
    ...checkout(),
    '',
    '      - name: Recompute the plan from a fresh input',
    '        run: ./scripts/plan > "$RUNNER_TEMP/plan.json"',
    '',
    ...jobToken('writ-approval.yml', 'persist', config),
    '',
    ...writStep(pin, 'persist', "Persist the plan's writes", 'persist', {
      token: '${{ steps.app-token.outputs.token }}',
      'run-id': '${{ needs.approve.outputs.run-id }}',
      'plan-file': '${{ runner.temp }}/plan.json',
      epoch: '${{ needs.approve.outputs.epoch }}',
      'persistence-enabled': '${{ vars.WRIT_PERSISTENCE_ENABLED }}',
      'time-budget-minutes': String(PERSIST_TIME_BUDGET_MINUTES),
      'command-prefix': config.command_prefix,
      'allowed-roles': roles,
      ...ledgerWiring(config),
      ...projectWiring(config),
      'dry-run': 'false',
    }),
  ];
}

/**
 * The handover job: persist spent its time budget with steps left and the lease is free, so the recovery
 * workflow is started now (its sweep takes the released run over at once and resumes it) instead of at
 * its next scheduled tick. GITHUB_TOKEN may start a `workflow_dispatch` run, and that is all it does
 * here (`actions: write`, nothing else); no expression reaches the shell, only environment variables.
 */
function handoverJob(workflow: WorkflowFile, needs: string, condition: string): string[] {
  return [
    '  handover:',
    '    # persist spent its time budget with steps left and the lease is free: start the recovery',
    '    # workflow now, which takes the run over and resumes it, instead of waiting for its schedule.',
    `    needs: ${needs}`,
    `    if: ${condition}`,
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 5',
    '    # GITHUB_TOKEN only starts the recovery workflow (a workflow_dispatch event).',
    ...jobAccess(workflow, 'handover', undefined),
    '    steps:',
    '      - name: Start the recovery workflow',
    '        env:',
    '          GH_TOKEN: ${{ github.token }}',
    '          GH_REPO: ${{ github.repository }}',
    '        run: gh workflow run writ-recovery.yml',
  ];
}

/** The release job: frees the lease once the approved work is done, unless persist completed and freed it. */
function releaseJob(pin: WritPin, config: WritConfig): string[] {
  return [
    '  release:',
    '    # Frees the repository lease once the approved work is done (add your own jobs to needs).',
    '    # A completed persist already released it; a reconcile or cancel command holds no lease to free.',
    '    # After a handover (time budget spent, steps left) it frees the lease for the recovery workflow.',
    '    needs: [approve, persist, publish]',
    "    if: always() && needs.approve.result == 'success' && needs.approve.outputs.outcome == 'approved' && needs.persist.outputs.outcome != 'completed'",
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 10',
    ...jobAccess('writ-approval.yml', 'release', undefined),
    ...CONCURRENCY('release'),
    '    steps:',
    ...jobToken('writ-approval.yml', 'release', config),
    '',
    ...writStep(pin, 'claim-checkpoint', 'Release the repository lease', null, {
      token: '${{ steps.app-token.outputs.token }}',
      operation: 'release',
      'run-id': '${{ needs.approve.outputs.run-id }}',
      epoch: '${{ needs.approve.outputs.epoch }}',
      ...ledgerWiring(config),
      ...projectWiring(config),
      'dry-run': 'false',
    }),
  ];
}

export function renderApprovalWorkflow({ pin, config, environment }: RenderSettings): string {
  const roles = config.allowed_roles.join(',');
  const lines = [
    ...HEADER(
      'consume a one-time approval (or a reconcile or cancel command) from an issue comment, persist, publish, release the lease.',
      pin,
      environment,
    ),
    '# Only the approve, persist, publish and release jobs wait in a concurrency group: an ordinary comment',
    '# skips every job, so it can never cancel a waiting approval.',
    'name: Writ approval',
    '',
    'on:',
    '  issue_comment:',
    '    types: [created]',
    '',
    'permissions: {}',
    '',
    'jobs:',
    ...approveJob(pin, config, roles),
    '',
    ...approvalPersistJob(pin, config, roles, environment),
    '',
    '  publish:',
    '    needs: approve',
    '    # A reconcile or cancel command is recorded by the approve job alone.',
    "    if: needs.approve.outputs.outcome == 'approved'",
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 15',
    ...jobAccess('writ-approval.yml', 'publish', environment),
    ...CONCURRENCY('publish'),
    '    steps:',
    ...publishSteps(pin, config, 'writ-approval.yml', {
      runId: '${{ needs.approve.outputs.run-id }}',
      epoch: '${{ needs.approve.outputs.epoch }}',
    }),
    '',
    ...releaseJob(pin, config),
    '',
    ...handoverJob(
      'writ-approval.yml',
      '[persist, release]',
      "always() && needs.persist.outputs.outcome == 'handover' && needs.release.result == 'success'",
    ),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The stale-write contract probe, by hand, on a sandbox: the sandbox-only secret `WRIT_PROBE_SANDBOX_TOKEN`
 * does every write, in the sandbox alone; the Writ app and its key never appear. GITHUB_TOKEN only reads
 * the allow-list from the default branch (`contents: read`). The evidence is in the job summary for the
 * owner to commit as `.writ/probe-evidence.json` through a normal pull request.
 */
export function renderProbeWorkflow({ pin }: RenderSettings): string {
  const lines = [
    `# Writ: the stale-write contract probe, run by hand on a sandbox repository.`,
    pin.ref === PLACEHOLDER_REF
      ? '# Reference copy generated by scripts/build/generate-templates.ts: run writ init --github --ref <commit>.'
      : `# Rendered by writ init --github (Writ ${pin.version}, ${pin.repository}@${pin.ref}).`,
    '# Edit freely: init never overwrites a file you changed, it reports a conflict instead.',
    '# Needs the secret WRIT_PROBE_SANDBOX_TOKEN: a token that reaches only the sandbox (issues and',
    '# contents write; admin lets cleanup delete its issues). Never the Writ app token. The sandbox must be',
    '# listed in .writ/probe-allowlist.json on the default branch and must not be this repository.',
    'name: Writ probe',
    '',
    'on:',
    '  workflow_dispatch:',
    '    inputs:',
    '      sandbox:',
    '        description: The sandbox repository (owner/name), never this one',
    '        required: true',
    '        type: string',
    '      confirm-sandbox:',
    '        description: The sandbox again, to confirm',
    '        required: true',
    '        type: string',
    '      cases:',
    '        description: all, or case and primitive IDs, comma-separated',
    '        required: false',
    '        default: all',
    '        type: string',
    '      dry-run:',
    '        description: Print what the probe would create, write nothing',
    '        required: false',
    '        default: true',
    '        type: boolean',
    '',
    'permissions: {}',
    '',
    'jobs:',
    '  probe:',
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 30',
    '    # GITHUB_TOKEN reads the allow-list; the sandbox-only secret does every write, in the sandbox.',
    ...jobAccess('writ-probe.yml', 'probe', undefined),
    ...CONCURRENCY('probe'),
    '    steps:',
    ...writStep(pin, 'probe', 'Probe the sandbox', null, {
      repository: '${{ inputs.sandbox }}',
      'confirm-sandbox': '${{ inputs.confirm-sandbox }}',
      cases: '${{ inputs.cases }}',
      'dry-run': '${{ inputs.dry-run }}',
      token: '${{ secrets.WRIT_PROBE_SANDBOX_TOKEN }}',
    }),
  ];
  return `${lines.join('\n')}\n`;
}

export function renderRecoveryWorkflow({ pin, config, environment }: RenderSettings): string {
  const roles = config.allowed_roles.join(',');
  const lines = [
    ...HEADER('recover interrupted runs every 15 minutes, then resume them with persist.', pin, environment),
    "# Recovery takes over an expired lease only when the holder's workflow run has finished (read with",
    "# GITHUB_TOKEN and actions: read), stops a step it cannot observe for a repository writer's",
    '# reconcile command, consumes an approval whose workflow run never did, and repairs status comments.',
    'name: Writ recovery',
    '',
    'on:',
    '  schedule:',
    "    - cron: '*/15 * * * *'",
    '  workflow_dispatch:',
    '',
    'permissions: {}',
    '',
    'jobs:',
    '  recovery:',
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 15',
    '    # GITHUB_TOKEN checks out and reads Actions runs (holder liveness); the Writ app token writes.',
    ...jobAccess('writ-recovery.yml', 'recovery', undefined),
    ...CONCURRENCY('recovery'),
    '    outputs:',
    '      resumable-runs: ${{ steps.recovery.outputs.resumable-runs }}',
    ...(config.pages === true ? ['      tower: ${{ steps.recovery.outputs.tower }}'] : []),
    '    steps:',
    ...checkout(),
    '',
    '      - name: Recompute the plan',
    '        run: ./scripts/plan > "$RUNNER_TEMP/plan.json"',
    '',
    ...jobToken('writ-recovery.yml', 'recovery', config),
    '',
    ...writStep(pin, 'recovery', 'Recover interrupted runs', 'recovery', {
      token: '${{ steps.app-token.outputs.token }}',
      'actions-token': '${{ github.token }}',
      'plan-file': '${{ runner.temp }}/plan.json',
      'command-prefix': config.command_prefix,
      'allowed-roles': roles,
      ...ledgerWiring(config),
      'dry-run': 'false',
      ...(config.pages === true ? { 'tower-dir': TOWER_DIR } : {}),
      ...projectWiring(config),
    }),
    ...(config.pages === true ? uploadTowerStep() : []),
  ];
  lines.push(
    ...(config.pages === true ? pagesJob() : []),
    ...persistJob(pin, config, environment),
    ...recoveredPublishJob(pin, config, environment),
    '',
    // After publish too: the dispatched sweep's takeover would fence a publish still under way.
    ...handoverJob(
      'writ-recovery.yml',
      '[persist, publish]',
      "always() && needs.persist.outputs.handover == 'true'",
    ),
  );
  return `${lines.join('\n')}\n`;
}

/** Where the recovery job writes the control tower (`writ init --pages`). */
const TOWER_DIR = '${{ runner.temp }}/writ-tower';

/**
 * The recovery job's last step with `--pages`: the tower the sweep wrote, as the Pages artifact. Only
 * when the stage says it wrote it (output `tower`), so a tower that could not be written fails no job.
 */
function uploadTowerStep(): string[] {
  return [
    '',
    '      - name: Upload the control tower for GitHub Pages',
    "        if: steps.recovery.outputs.tower == 'written'",
    `        uses: ${THIRD_PARTY.uploadPages}`,
    '        with:',
    `          path: '${TOWER_DIR}'`,
  ];
}

/**
 * The Pages job (`writ init --pages`, docs/pages.md): deploys the artifact the recovery job uploaded to
 * the `github-pages` Environment. GITHUB_TOKEN with `pages: write` and `id-token: write` only
 * (actions/deploy-pages' README), no app token, no checkout: the site has no authority over anything.
 */
function pagesJob(): string[] {
  return [
    '',
    '  pages:',
    '    # Publishes the read-only control tower the recovery job built from the ledger (docs/pages.md).',
    '    needs: recovery',
    "    if: needs.recovery.outputs.tower == 'written'",
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 10',
    ...githubTokenLines(jobPermissions('writ-recovery.yml', 'pages')),
    // One deployment at a time, never cancelled half-way (GitHub's Pages starter workflows do the same).
    '    concurrency:',
    '      group: writ-pages-${{ github.repository }}',
    '      cancel-in-progress: false',
    '    environment:',
    '      name: github-pages',
    '      url: ${{ steps.deployment.outputs.page_url }}',
    '    steps:',
    '      - name: Deploy the control tower to GitHub Pages',
    '        id: deployment',
    `        uses: ${THIRD_PARTY.deployPages}`,
  ];
}

/**
 * The artifact's steps: the plan recomputed, the run's ledger state read (per step its lifecycle, for
 * the renderer as `WRIT_LEDGER_STATE`), the artifact rendered, then one bot pull request for the run.
 */
function publishSteps(
  pin: WritPin,
  config: WritConfig,
  workflow: WorkflowFile,
  run: { runId: string; epoch: string },
): string[] {
  return [
    ...checkout(),
    '',
    '      - name: Recompute the plan',
    '        run: ./scripts/plan > "$RUNNER_TEMP/plan.json"',
    '',
    ...jobToken(workflow, 'publish', config),
    '',
    ...writStep(pin, 'publish-artifact', "Read the run's ledger state for the renderer", 'ledger-state', {
      token: '${{ steps.app-token.outputs.token }}',
      'run-id': run.runId,
      epoch: run.epoch,
      'plan-file': '${{ runner.temp }}/plan.json',
      path: 'docs/generated/artifact.md',
      'ledger-state-file': '${{ runner.temp }}/ledger-state.json',
      'command-prefix': config.command_prefix,
      'allowed-roles': config.allowed_roles.join(','),
      ...ledgerWiring(config),
    }),
    '',
    '      - name: Render the artifact',
    '        env:',
    '          WRIT_LEDGER_STATE: ${{ steps.ledger-state.outputs.ledger-state-file }}',
    '        run: ./scripts/render-artifact "$RUNNER_TEMP/plan.json" > "$RUNNER_TEMP/artifact.md"',
    '',
    ...writStep(pin, 'publish-artifact', 'Publish the artifact through one bot pull request', null, {
      token: '${{ steps.app-token.outputs.token }}',
      'run-id': run.runId,
      epoch: run.epoch,
      'plan-file': '${{ runner.temp }}/plan.json',
      path: 'docs/generated/artifact.md',
      'content-file': '${{ runner.temp }}/artifact.md',
      'command-prefix': config.command_prefix,
      'allowed-roles': config.allowed_roles.join(','),
      ...ledgerWiring(config),
      ...projectWiring(config),
      'dry-run': 'false',
    }),
  ];
}

/**
 * Publishes each run recovery resumed: an approve job killed after its consume commit never reached
 * the approval workflow's publish job. publish-artifact is idempotent (unchanged when the pull request
 * already shows the artifact; an unrecorded one is recorded), so a run published before costs reads only.
 */
function recoveredPublishJob(pin: WritPin, config: WritConfig, environment: string | undefined): string[] {
  return [
    '',
    '  publish:',
    '    # After persist, whether it ran or was skipped (persistence not enabled).',
    '    needs: [recovery, persist]',
    "    if: always() && needs.recovery.result == 'success' && needs.recovery.outputs.resumable-runs != '[]' && needs.recovery.outputs.resumable-runs != ''",
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 15',
    ...jobAccess('writ-recovery.yml', 'publish', environment),
    ...CONCURRENCY('publish'),
    '    strategy:',
    '      max-parallel: 1',
    '      fail-fast: false',
    '      matrix:',
    '        run: ${{ fromJSON(needs.recovery.outputs.resumable-runs) }}',
    '    steps:',
    ...publishSteps(pin, config, 'writ-recovery.yml', {
      runId: '${{ matrix.run.run_id }}',
      epoch: '${{ matrix.run.epoch }}',
    }),
  ];
}

function persistJob(pin: WritPin, config: WritConfig, environment: string | undefined): string[] {
  const roles = config.allowed_roles.join(',');
  return [
    '',
    '  persist:',
    '    # Resumes each run recovery now holds (same workflow run and attempt: the lease holder). A run',
    '    # that spends the time budget with steps left hands over: its lease is released here and the',
    '    # handover job starts this workflow again, whose sweep takes the run over at once.',
    '    needs: recovery',
    "    if: vars.WRIT_PERSISTENCE_ENABLED == 'true' && needs.recovery.outputs.resumable-runs != '[]' && needs.recovery.outputs.resumable-runs != ''",
    '    runs-on: ubuntu-latest',
    `    timeout-minutes: ${PERSIST_TIMEOUT_MINUTES}`,
    ...jobAccess('writ-recovery.yml', 'persist', environment),
    ...CONCURRENCY('persist'),
    '    # Set only by a leg that handed over (an empty value from another leg does not overwrite it).',
    '    outputs:',
    "      handover: ${{ steps.handover-release.outcome == 'success' && 'true' || '' }}",
    '    strategy:',
    '      max-parallel: 1',
    '      fail-fast: false',
    '      matrix:',
    '        run: ${{ fromJSON(needs.recovery.outputs.resumable-runs) }}',
    '    steps:',
    ...checkout(),
    '',
    '      - name: Recompute the plan',
    '        run: ./scripts/plan > "$RUNNER_TEMP/plan.json"',
    '',
    ...jobToken('writ-recovery.yml', 'persist', config),
    '',
    ...writStep(pin, 'persist', 'Resume the run', 'persist', {
      token: '${{ steps.app-token.outputs.token }}',
      'run-id': '${{ matrix.run.run_id }}',
      'plan-file': '${{ runner.temp }}/plan.json',
      epoch: '${{ matrix.run.epoch }}',
      'persistence-enabled': '${{ vars.WRIT_PERSISTENCE_ENABLED }}',
      'time-budget-minutes': String(PERSIST_TIME_BUDGET_MINUTES),
      'command-prefix': config.command_prefix,
      'allowed-roles': roles,
      ...ledgerWiring(config),
      ...projectWiring(config),
      'dry-run': 'false',
    }),
    '',
    ...writStep(
      pin,
      'claim-checkpoint',
      'Release the repository lease for the handover',
      'handover-release',
      {
        token: '${{ steps.app-token.outputs.token }}',
        operation: 'release',
        'run-id': '${{ matrix.run.run_id }}',
        epoch: '${{ matrix.run.epoch }}',
        ...ledgerWiring(config),
        ...projectWiring(config),
        'dry-run': 'false',
      },
      "steps.persist.outputs.outcome == 'handover'",
    ),
  ];
}

/** Every workflow init renders, by file name under `.github/workflows/`. */
export function renderWorkflows(settings: RenderSettings): RenderedFile[] {
  if (settings.environment !== undefined) validateEnvironmentName(settings.environment);
  return [
    { path: 'writ-approval.yml', contents: renderApprovalWorkflow(settings) },
    { path: 'writ-preview.yml', contents: renderPreviewWorkflow(settings) },
    { path: 'writ-probe.yml', contents: renderProbeWorkflow(settings) },
    { path: 'writ-recovery.yml', contents: renderRecoveryWorkflow(settings) },
  ];
}
