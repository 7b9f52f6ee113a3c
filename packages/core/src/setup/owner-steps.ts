/**
 * The owner's remaining steps after `writ init --github`: what needs GitHub settings access, which init
 * never does itself (operations reference §3.11: no ruleset, secret, environment or administration is
 * touched). The ledger rulesets are `ledgerRulesets` — the one definition bootstrap and doctor check.
 */
import type { RulesetDefinition } from '../ledger/rulesets.js';
import { ledgerRulesets } from '../ledger/rulesets.js';
import type { AppScope } from './permissions.js';
import { JOB_PERMISSIONS } from './permissions.js';
import type { WritConfig } from './types.js';

export interface AppPermission {
  permission: string;
  access: 'read' | 'write';
  stages: string[];
  why: string;
}

export interface OwnerSteps {
  app: { name: string; slug: string | null; id: number | null; permissions: AppPermission[] };
  rulesets: RulesetDefinition[] | null;
  ruleset_commands: string[];
  secrets: { name: string; why: string }[];
  variables: { name: string; why: string }[];
  /** The Environment the writing jobs wait in (`writ init --environment`): the owner creates it. */
  environment?: { name: string; why: string };
  bootstrap: string;
}

/** The order stages are named in (the run's order; bootstrap and doctor are `writ` commands). */
const STAGE_ORDER = [
  'bootstrap',
  'preview',
  'consume-approval',
  'claim-checkpoint',
  'persist',
  'publish-artifact',
  'recovery',
  'doctor',
] as const;

/** The stages whose jobs' app tokens hold `scope`, from the one per-job table (permissions.ts). */
function stagesHolding(scope: AppScope): string[] {
  const held = new Set<string>(
    JOB_PERMISSIONS.flatMap((job) => (job.app?.[scope] === undefined ? [] : job.stages)),
  );
  return STAGE_ORDER.filter((stage) => held.has(stage));
}

/**
 * The Writ app's repository permissions, each with the stages that use it and why: the installation
 * grants their union, and each job's token narrows it to the job's row of JOB_PERMISSIONS.
 */
export const APP_PERMISSIONS: readonly AppPermission[] = [
  {
    permission: 'contents',
    access: 'write',
    stages: ['bootstrap', ...stagesHolding('contents')],
    why: 'every ledger commit (createCommitOnBranch on the ledger branch, the root through the Git data API) and the artifact commit on its bot branch',
  },
  {
    permission: 'issues',
    access: 'write',
    stages: stagesHolding('issues'),
    why: "persist writes the plan's milestones, issues, labels and comments; preview, consume-approval, persist and recovery keep the run's one status comment; every stage reads approval comments (the ledger replay re-reads each consumed approval)",
  },
  {
    permission: 'pull_requests',
    access: 'write',
    stages: stagesHolding('pull-requests'),
    why: "open and update the artifact's one bot pull request",
  },
  {
    permission: 'administration',
    access: 'write',
    stages: ['bootstrap', ...stagesHolding('administration'), 'doctor'],
    why: "read and write, though Writ never changes a setting: every stage that proves the ledger, and bootstrap, must see the ledger rulesets' bypass actors, and GitHub returns a ruleset's bypass_actors only to a token that can write rulesets (with administration read alone they are hidden and bootstrap refuses with ruleset-bypass-unreadable)",
  },
  {
    permission: 'metadata',
    access: 'read',
    stages: ['all'],
    why: 'mandatory for every GitHub App; rules on a branch and collaborator permissions',
  },
];

function appName(owner: string): string {
  return `${owner}-writ`.slice(0, 34);
}

export function ownerSteps(
  repository: { owner: string; repo: string; host: string },
  config: WritConfig,
): OwnerSteps {
  const full = `${repository.owner}/${repository.repo}`;
  const rulesets = config.app.id === null ? null : ledgerRulesets(config.ledger_branch, config.app.id);
  const hostname = repository.host === 'github.com' ? '' : ` --hostname ${repository.host}`;
  const commands = (rulesets ?? ledgerRulesets(config.ledger_branch, 0)).map((ruleset) => {
    const body = JSON.stringify(ruleset, null, 2).replace(/"actor_id": 0/g, '"actor_id": <WRIT_APP_ID>');
    return `gh api${hostname} --method POST /repos/${full}/rulesets --input - <<'JSON'\n${body}\nJSON`;
  });
  const app = config.app;
  return {
    app: { name: appName(repository.owner), slug: app.slug, id: app.id, permissions: [...APP_PERMISSIONS] },
    rulesets,
    ruleset_commands: commands,
    secrets: [
      {
        name: 'WRIT_APP_PRIVATE_KEY',
        why: "the app's private key (PEM); actions/create-github-app-token mints the installation token from it",
      },
      {
        name: 'WRIT_PROBE_SANDBOX_TOKEN',
        why: 'only when you run writ-probe.yml: a token that reaches only your sandbox repository (never the app token)',
      },
    ],
    variables: [
      {
        name: 'WRIT_APP_ID',
        why: "the app's numeric ID (workflows, and the writers ruleset's bypass actor)",
      },
      {
        name: 'WRIT_APP_SLUG',
        why: "the app's slug (its bot '<slug>[bot]' authors the ledger and owns the status comment)",
      },
      {
        name: 'WRIT_PERSISTENCE_ENABLED',
        why: "false until you decide otherwise: writ-approval.yml's persist job runs only when it is true, so no plan write is made without it",
      },
    ],
    ...(config.environment === undefined
      ? {}
      : {
          environment: {
            name: config.environment,
            why: "create it under Settings → Environments with required reviewers (not the run's own approvers alone) and deployment branches limited to protected branches; the persist and publish jobs wait there until a reviewer approves, and writ doctor checks its protection",
          },
        }),
    bootstrap: `GITHUB_TOKEN=<the app's installation token> writ bootstrap --repo ${full} --branch ${config.ledger_branch} --app-slug ${app.slug ?? '<WRIT_APP_SLUG>'} --app-id ${app.id ?? '<WRIT_APP_ID>'} --apply`,
  };
}

/**
 * The steps as the text `writ init --github` prints. `apiUrl` is the REST URL of the remote's host:
 * step 5 names it with the token doctor needs.
 */
export function renderOwnerSteps(steps: OwnerSteps, full: string, apiUrl = 'https://api.github.com'): string {
  const lines = [
    'Remaining steps (they need GitHub settings access; writ init changes no setting itself):',
    '',
    `1. Create a GitHub App (suggested name ${steps.app.name}; webhook inactive; installable only on this`,
    `   account) and install it on ${full} only. Repository permissions (administration is read AND`,
    "   write: GitHub shows a ruleset's bypass actors only to a token that can write rulesets):",
    ...steps.app.permissions.map(
      (entry) => `   - ${entry.permission}: ${entry.access} (${entry.stages.join(', ')}): ${entry.why}`,
    ),
    '   Then fill in app.slug and app.id in .writ/config.json.',
    '',
    `2. Add the two ledger rulesets, in this order, before bootstrapping (the ledger is proven only by`,
    '   rulesets created before its root and unchanged since). Append-only has NO bypass actor (a bypass',
    '   actor is exempt from every rule of its ruleset); the writers ruleset has the app as its only one.',
    ...(steps.rulesets === null
      ? ['   (The app ID is not known yet: replace <WRIT_APP_ID>, or re-run init once config.json has it.)']
      : []),
    '',
    ...steps.ruleset_commands.map((command) => command.replace(/^/gm, '   ')),
    '',
    `3. Add the repository secret and variables (Settings → Secrets and variables → Actions)${steps.environment === undefined ? '' : ', and the Environment'}:`,
    ...steps.secrets.map((entry) => `   - secret ${entry.name}: ${entry.why}`),
    ...steps.variables.map((entry) => `   - variable ${entry.name}: ${entry.why}`),
    ...(steps.environment === undefined
      ? []
      : [`   - environment ${steps.environment.name}: ${steps.environment.why}`]),
    '',
    '4. Commit .writ/ and .github/workflows/, then create the ledger root (dry run first, without --apply):',
    `   ${steps.bootstrap}`,
    '',
    '5. Check everything, from this clone (doctor finds the repository from its Git remote, as init did),',
    "   with a repository admin's token (or the app's installation token) for the API at " + apiUrl + ':',
    `   GITHUB_TOKEN=<token>${apiUrl === 'https://api.github.com' ? '' : ` GITHUB_API_URL=${apiUrl}`} writ doctor --github`,
    `   (elsewhere: add --repo ${full}${apiUrl === 'https://api.github.com' ? '' : ` and set GITHUB_API_URL=${apiUrl}`})`,
  ];
  return `${lines.join('\n')}\n`;
}
