/**
 * The typed I/O registry: every input and output of every action, exactly as its action.yml declares
 * it. `STAGES` is generated from actions/<stage>/action.yml by scripts/build/generate-registry.mjs (into
 * src/generated/registry.ts, checked fresh by `npm run check-dist`), so descriptions, required flags
 * and defaults live in action.yml alone; only `action-io.ts` reads inputs or writes outputs.
 */
import { STAGES as GENERATED } from '../generated/registry.js';

export interface InputSpec {
  readonly description: string;
  readonly required: boolean;
  readonly default?: string;
  /** Registered with core.setSecret and the redactor before first use (inputs named `token`, `*-token`). */
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

export const STAGES = GENERATED satisfies Readonly<Record<string, StageSpec>>;

export type StageName = keyof typeof STAGES;
export type InputName<S extends StageName> = keyof (typeof STAGES)[S]['inputs'] & string;
export type OutputName<S extends StageName> = keyof (typeof STAGES)[S]['outputs'] & string;
