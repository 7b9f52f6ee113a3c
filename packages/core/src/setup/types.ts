/** Types shared by the setup renderer, `writ init` and `writ doctor`. */

/** Where Writ's actions are pinned from: `<repository>/actions/<stage>@<ref> # <version>`. */
export interface WritPin {
  repository: string;
  ref: string;
  version: string;
}

/** `.writ/config.json` (schemas/writ/config.schema.json). */
export interface WritConfig {
  schema: 1;
  app: { slug: string | null; id: number | null };
  ledger_branch: string;
  command_prefix: string;
  allowed_roles: string[];
  /** The GitHub Environment of the jobs that write (`writ init --environment`); absent: none. */
  environment?: string;
  /** `writ init --pages`: the recovery workflow publishes the control tower to GitHub Pages. */
  pages?: boolean;
  /** The Projects (v2) project runs are shown on (`writ init --project OWNER/NUMBER`); absent: none. */
  project?: { owner: string; number: number };
}

export interface RenderSettings {
  pin: WritPin;
  config: WritConfig;
  /**
   * A GitHub Environment for the jobs that write (persist, publish): those jobs start only after the
   * Environment's required reviewers approve. Absent: no Environment.
   */
  environment?: string;
}

export interface RenderedFile {
  path: string;
  contents: string;
}

/** One line of `writ doctor`'s report (doctor.ts and the checks beside it). */
export type CheckStatus = 'PASS' | 'WARN' | 'FAIL' | 'UNKNOWN';

export interface Check {
  id: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}
