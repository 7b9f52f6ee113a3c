/**
 * The typed I/O registry: every input and output of every action, exactly as its action.yml declares
 * it. `STAGES` is generated from actions/<stage>/action.yml by scripts/build/generate-registry.mjs (into
 * src/generated/registry.ts, checked fresh by `npm run check-dist`), so descriptions, required flags,
 * defaults and value limits (`x-limits` beside the default) live in action.yml alone; only
 * `action-io.ts` reads inputs or writes outputs, and it enforces the limits.
 */
import { STAGES as GENERATED } from '../generated/registry.js';

export interface InputSpec {
  readonly description: string;
  readonly required: boolean;
  readonly default?: string;
  /** An integer input's bounds, both inclusive (action.yml `x-limits: { min, max }`). */
  readonly min?: number;
  readonly max?: number;
  /** Keywords an integer input may take instead of a number (action.yml `x-limits: { min, max, or: [...] }`). */
  readonly or?: readonly string[];
  /** The values a string input may take (action.yml `x-limits: { one-of: [...] }`). */
  readonly oneOf?: readonly string[];
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
/**
 * The inputs of stage S that declare integer bounds and no keyword (one that may take a keyword is read
 * with `boundedOrKeywordInput`), and those that declare allowed values.
 */
export type BoundedInputName<S extends StageName> = {
  [N in InputName<S>]: (typeof STAGES)[S]['inputs'][N] extends { readonly or: readonly string[] }
    ? never
    : (typeof STAGES)[S]['inputs'][N] extends { readonly min: number }
      ? N
      : never;
}[InputName<S>];
export type ChoiceInputName<S extends StageName> = {
  [N in InputName<S>]: (typeof STAGES)[S]['inputs'][N] extends { readonly oneOf: readonly string[] }
    ? N
    : never;
}[InputName<S>];
/** The inputs of stage S that declare integer bounds and keywords allowed instead of a number. */
export type KeywordInputName<S extends StageName> = {
  [N in InputName<S>]: (typeof STAGES)[S]['inputs'][N] extends { readonly or: readonly string[] } ? N : never;
}[InputName<S>];
/** The keywords action.yml allows instead of a number for the input N of stage S. */
export type Keyword<
  S extends StageName,
  N extends KeywordInputName<S>,
> = (typeof STAGES)[S]['inputs'][N] extends {
  readonly or: readonly (infer K)[];
}
  ? K
  : never;
/** The values action.yml allows for the input N of stage S. */
export type Choice<
  S extends StageName,
  N extends ChoiceInputName<S>,
> = (typeof STAGES)[S]['inputs'][N] extends {
  readonly oneOf: readonly (infer C)[];
}
  ? C
  : never;
