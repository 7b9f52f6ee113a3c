/**
 * The typed I/O registry: every input and output of every action, exactly as its action.yml declares
 * it. A contract test holds each action.yml to this registry, and only `action-io.ts` reads inputs or
 * writes outputs.
 */

export interface InputSpec {
  readonly description: string;
  readonly required: boolean;
  readonly default?: string;
  /** Registered with core.setSecret and the redactor before first use. */
  readonly secret?: boolean;
}

export interface OutputSpec {
  readonly description: string;
}

export interface StageSpec {
  readonly name: string;
  readonly description: string;
  readonly inputs: Readonly<Record<string, InputSpec>>;
  readonly outputs: Readonly<Record<string, OutputSpec>>;
}

const OUTCOME_REASON = {
  reason: {
    description: 'The stable kebab-case code of the outcome: empty on success, a catalogue code otherwise.',
  },
} as const;

const TOKEN = {
  token: {
    description:
      'Installation token of the Writ GitHub App (from actions/create-github-app-token). Ledger commits made with it are app-authored and verified; never use GITHUB_TOKEN here.',
    required: true,
    secret: true,
  },
} as const;

const LEDGER = {
  'ledger-branch': { description: 'The ledger branch.', required: false, default: 'bot/writ-ledger' },
  'ledger-app-slug': {
    description: "Slug of the Writ GitHub App that alone writes the ledger (its bot is '<slug>[bot]').",
    required: true,
  },
  'ledger-app-id': {
    description: 'App ID of the Writ GitHub App (the ledger ruleset bypass actor).',
    required: true,
  },
  'lease-seconds': {
    description: 'Length of the repository lease taken or renewed, in seconds (judged on the server clock).',
    required: false,
    default: '600',
  },
} as const;

export const STAGES = {
  'publish-artifact': {
    name: 'Writ publish artifact',
    description:
      'Publish a generated file for an approved run: one compare-and-set commit on a stable bot branch, only on change, and exactly one pull request to the base. Never forced, never written to the base, never bypassed.',
    inputs: {
      ...TOKEN,
      'run-id': { description: 'The approved run ID.', required: true },
      epoch: {
        description:
          "The run's fencing epoch (consume-approval's `epoch` output). A publish under an epoch older than the lease's, or than the run's last recorded publish, is refused as `fenced` before any write.",
        required: true,
      },
      'plan-file': {
        description: "Path to the plan JSON, recomputed now; its digest must be the run's approved digest.",
        required: true,
      },
      path: {
        description:
          'Repository path of the published file, e.g. docs/reference/roadmap.md. It must be a path git accepts on every file system (no `.git` or any of its NTFS/HFS aliases, no `..`, no leading `/`, no empty segment, no `\\` or `:`), without control, bidi or other format characters, and outside `.github/workflows/` unless `allow-workflow-files` is true.',
        required: true,
      },
      'allow-workflow-files': {
        description:
          'Allow `path` under `.github/workflows/` (a pushed workflow file runs with the repository secrets).',
        required: false,
        default: 'false',
      },
      'content-file': {
        description:
          "Path to the rendered bytes to publish: a regular file whose real path is inside the workspace or the runner's temp directory. Bytes holding the token or a registered secret are refused.",
        required: true,
      },
      branch: {
        description:
          'The stable bot branch the file is committed on. Never the ledger branch or the default branch.',
        required: false,
        default: 'bot/writ-artifact',
      },
      base: {
        description:
          "Base branch of the pull request (never the ledger branch). Default: the repository's default branch.",
        required: false,
        default: '',
      },
      'pr-title': {
        description:
          'Pull request title (one line; control and format characters are shown as U+FFFD). Default: `docs: refresh <path>`.',
        required: false,
        default: '',
      },
      'pr-body-file': {
        description:
          'Path to the pull request body (Markdown), under the same rules as `content-file`. Optional.',
        required: false,
        default: '',
      },
      'on-closed-pr': {
        description:
          "When the branch's last pull request was closed without merging: `report` (refuse, a human decides) or `open-new`.",
        required: false,
        default: 'report',
      },
      'command-prefix': {
        description: 'Prefix of the approve command, to re-verify the approval comment.',
        required: false,
        default: 'writ',
      },
      'allowed-roles': {
        description: "Comma-separated roles the approver must still hold (live 'role_name').",
        required: false,
        default: 'admin,maintain,write',
      },
      'ledger-branch': LEDGER['ledger-branch'],
      'ledger-app-slug': LEDGER['ledger-app-slug'],
      'ledger-app-id': LEDGER['ledger-app-id'],
      'dry-run': {
        description:
          'Print the rendered file, its diff against the branch and the requests it would make, without writing.',
        required: false,
        default: 'true',
      },
    },
    outputs: {
      outcome: {
        description: '`created`, `updated`, `unchanged` (zero writes), `dry-run`, `refused`, or `failed`.',
      },
      'commit-oid': { description: 'The bot branch head holding the published file.' },
      'pr-number': { description: 'The pull request number.' },
      'pr-url': { description: 'The pull request URL (for artifact-pr-closed: the closed pull request).' },
      branch: { description: 'The bot branch.' },
      ...OUTCOME_REASON,
    },
  },
  'consume-approval': {
    name: 'Writ consume approval',
    description:
      'Consume a one-time approval from an issue comment: re-read the comment, its author and their live role, recompute the plan, and commit approval and repository lease in one compare-and-set ledger commit.',
    inputs: {
      ...TOKEN,
      'plan-file': {
        description: 'Path to the plan JSON, recomputed now from a fresh input.',
        required: true,
      },
      'command-prefix': {
        description: 'Prefix of the approve command: `<prefix>: approve <run_id> <sha256 hex>`.',
        required: false,
        default: 'writ',
      },
      'allowed-roles': {
        description:
          "Comma-separated repository roles (the live 'role_name', custom roles allowed) that may approve.",
        required: false,
        default: 'admin,maintain,write',
      },
      'require-distinct-approver': {
        description: 'Refuse an approver who proposed the run.',
        required: false,
        default: 'false',
      },
      ...LEDGER,
      'dry-run': {
        description: 'Evaluate everything and print the ledger commit that would be made, without writing.',
        required: false,
        default: 'true',
      },
    },
    outputs: {
      'run-id': { description: 'The approved run ID.' },
      digest: { description: 'The approved plan digest.' },
      epoch: { description: 'The fencing epoch of the lease taken.' },
      'lease-expires-at': { description: 'When the lease expires (server clock, ISO 8601).' },
      outcome: {
        description: '`approved`, `dry-run` (nothing written), `refused`, or `failed` on an internal error.',
      },
      ...OUTCOME_REASON,
    },
  },
  'claim-checkpoint': {
    name: 'Writ claim and checkpoint',
    description:
      'Fence a side effect the workflow performs itself: claim a step at the lease epoch before acting, checkpoint its outcome after, take over an expired run, or release the lease.',
    inputs: {
      ...TOKEN,
      operation: { description: 'One of claim, checkpoint, takeover, release.', required: true },
      'run-id': { description: 'The run ID.', required: true },
      'step-id': { description: 'The step ID (claim, checkpoint).', required: false, default: '' },
      epoch: {
        description: "The holder's fencing epoch (claim, checkpoint, release).",
        required: false,
        default: '',
      },
      'step-outcome': {
        description: 'The outcome to checkpoint: done, conflict or failed.',
        required: false,
        default: '',
      },
      'status-code': {
        description: 'HTTP status code observed by the side effect (checkpoint evidence).',
        required: false,
        default: '',
      },
      'error-code': {
        description: 'A sanitized kebab-case error code (checkpoint evidence); never free text.',
        required: false,
        default: '',
      },
      ...LEDGER,
      'dry-run': {
        description:
          'Evaluate the transition and print the ledger commit that would be made, without writing.',
        required: false,
        default: 'true',
      },
    },
    outputs: {
      'run-id': { description: 'The run ID.' },
      epoch: { description: 'The fencing epoch after the operation.' },
      'step-status': {
        description: 'The step status after the operation (pending, claimed, done, conflict, failed).',
      },
      'lease-expires-at': { description: 'When the lease expires (server clock, ISO 8601).' },
      'idempotency-key': {
        description: 'A key derived from the run, step and epoch, to pass to the external system.',
      },
      outcome: {
        description:
          '`claimed`, `checkpointed`, `taken-over`, `released`, `dry-run`, `refused` (a coded refusal such as fenced), or `failed`.',
      },
      ...OUTCOME_REASON,
    },
  },
  preview: {
    name: 'Writ preview',
    description:
      'Validate a plan, compute its digest, and render a deterministic preview with the exact approve command. Dry-run: writes nothing to GitHub.',
    inputs: {
      'plan-file': {
        description: 'Path to the plan JSON (validated against plan.schema.json).',
        required: true,
      },
      'run-id': {
        description:
          'Run ID (1-64 of [A-Za-z0-9_-]). Default: derived from the plan digest, so the same plan always gets the same run ID.',
        required: false,
        default: '',
      },
      'command-prefix': {
        description: 'Prefix of the approve command: `<prefix>: approve <run_id> <sha256 hex>`.',
        required: false,
        default: 'writ',
      },
      'dry-run': {
        description:
          'Only validate and render. When false, propose the run in the ledger and keep its status comment.',
        required: false,
        default: 'true',
      },
      token: {
        description:
          'Installation token of the Writ GitHub App (from actions/create-github-app-token); required when not a dry run. Never GITHUB_TOKEN.',
        required: false,
        default: '',
        secret: true,
      },
      'ledger-branch': { description: 'The ledger branch.', required: false, default: 'bot/writ-ledger' },
      'ledger-app-slug': {
        description:
          "Slug of the Writ GitHub App (its bot, '<slug>[bot]', owns the status comment); required when not a dry run.",
        required: false,
        default: '',
      },
      'ledger-app-id': {
        description:
          'App ID of the Writ GitHub App; required when not a dry run (every ledger commit replays the history above the last checkpoint, which names the app).',
        required: false,
        default: '',
      },
      'status-issue': {
        description: "Issue or pull request number that carries the run's one status comment (optional).",
        required: false,
        default: '',
      },
    },
    outputs: {
      'run-id': { description: 'The run ID.' },
      digest: { description: 'The plan digest, `sha256:<64 hex>` of its RFC 8785 canonical JSON.' },
      'approve-command': { description: 'The exact comment that approves this run.' },
      'preview-path': { description: 'Path of the rendered Markdown preview.' },
      'status-comment-id': { description: "ID of the run's status comment, when a status issue was given." },
      outcome: {
        description:
          '`previewed` (dry run), `proposed` (the run is in the ledger), `refused` (a coded refusal), or `failed` on an internal error.',
      },
      ...OUTCOME_REASON,
    },
  },
} as const satisfies Record<string, StageSpec>;

export type StageName = keyof typeof STAGES;
export type InputName<S extends StageName> = keyof (typeof STAGES)[S]['inputs'] & string;
export type OutputName<S extends StageName> = keyof (typeof STAGES)[S]['outputs'] & string;
