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

export const STAGES = {
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
    },
    outputs: {
      'run-id': { description: 'The run ID.' },
      digest: { description: 'The plan digest, `sha256:<64 hex>` of its RFC 8785 canonical JSON.' },
      'approve-command': { description: 'The exact comment that approves this run.' },
      'preview-path': { description: 'Path of the rendered Markdown preview.' },
      outcome: {
        description:
          '`previewed` when the plan is valid, `refused` when it is not, `failed` on an internal error.',
      },
      ...OUTCOME_REASON,
    },
  },
} as const satisfies Record<string, StageSpec>;

export type StageName = keyof typeof STAGES;
export type InputName<S extends StageName> = keyof (typeof STAGES)[S]['inputs'] & string;
export type OutputName<S extends StageName> = keyof (typeof STAGES)[S]['outputs'] & string;
