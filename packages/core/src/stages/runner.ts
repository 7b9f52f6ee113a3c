/**
 * What every stage's `run` shares: `runAction` reads the settings, builds the dependencies, calls the
 * stage, writes its summary and outputs, and holds the only `try/catch` that fails the step, with the
 * one refused/failed outcome mapping. Plus untrusted text in the log and dry-run commits.
 */
import { randomUUID } from 'node:crypto';
import { WritError } from '../errors.js';
import type { StageIo } from '../io/action-io.js';
import { explainRequestFailure, requestFailureOf } from '../github/request-failure.js';
import { failStep, logGroup, runnerLogger, stageIo, writeSummary } from '../io/action-io.js';
import type { OutputName, StageName } from '../io/registry.js';

export type StageOutputs<S extends StageName> = Partial<Record<OutputName<S>, string | number>>;

/** What a stage returns: its outputs and job summary, never written by the stage itself. */
export interface StageResult<S extends StageName> {
  outputs: StageOutputs<S>;
  /** Markdown for the job summary. */
  summary: string;
  /** Untrusted text (a rendered file) to show in the log, commands disabled. */
  untrusted?: { heading: string; text: string };
  /** A coded refusal raised after the stage's work was recorded: outputs stand, the step fails. */
  refusal?: WritError;
}

export interface StageParts<S extends StageName, Settings, Deps> {
  /** The action's inputs (and the runner's context) → one typed, validated settings object. */
  inputs(io: StageIo<S>): Settings;
  /** The client, ledger, clock and logger the stage runs with. */
  connect(settings: Settings): Deps | Promise<Deps>;
  stage(settings: Settings, deps: Deps): Promise<StageResult<S>>;
  /** Outputs a coded refusal carries besides `outcome` and `reason` (e.g. the closed PR's URL). */
  refusalOutputs?(error: WritError): StageOutputs<S>;
}

/** `refused` for a coded, user-fixable error; `failed` for anything else (an internal error). */
export function outcomeOf(error: unknown): 'refused' | 'failed' {
  return error instanceof WritError ? 'refused' : 'failed';
}

/**
 * What reaches the runner, as the step reports it. A GitHub request that failed and that no stage
 * turned into a code of its own (a 404 on a repository or issue the workflow named, a 401 on its
 * token, no answer at all) is GitHub's answer to what the workflow asked, not a bug in Writ: it is
 * `github-request-failed`, saying what was called and the likely fix, never GitHub's own text. It
 * is only reported: nothing is retried here, and a write it interrupted stays for the stage's own
 * read-back on the next run. Anything else not coded stays `internal-error`.
 */
export function codedFailure(error: unknown): unknown {
  if (error instanceof WritError || requestFailureOf(error) === null) return error;
  const explained = explainRequestFailure(error, {
    apiUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
  });
  return new WritError('github-request-failed', explained ?? 'A GitHub request failed.', { cause: error });
}

/** Runs an effect on the runner's files (summary, outputs); a failure is `output-write-failed`. */
async function runnerWrite(what: string, write: () => unknown): Promise<void> {
  try {
    await write();
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    throw new WritError(
      'output-write-failed',
      `could not write the step's ${what} (${typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : 'unwritable'})`,
      { cause: error },
    );
  }
}

export async function runAction<S extends StageName, Settings, Deps>(
  name: S,
  parts: StageParts<S, Settings, Deps>,
): Promise<void> {
  const io = stageIo(name);
  try {
    const settings = parts.inputs(io);
    const result = await parts.stage(settings, await parts.connect(settings));
    if (result.untrusted) logUntrusted(result.untrusted.heading, result.untrusted.text);
    await runnerWrite('summary (GITHUB_STEP_SUMMARY)', () => writeSummary(result.summary));
    await runnerWrite('outputs (GITHUB_OUTPUT)', () => io.setOutputs(result.outputs));
    if (result.refusal) throw result.refusal;
  } catch (thrown: unknown) {
    const error = codedFailure(thrown);
    const reason = failStep(error);
    const extra = error instanceof WritError ? parts.refusalOutputs?.(error) : undefined;
    try {
      io.setOutputs({ outcome: outcomeOf(error), reason, ...extra } as StageOutputs<S>);
    } catch {
      // GITHUB_OUTPUT is unwritable: the step has failed with its code all the same.
    }
  }
}

// Control characters but newline and tab, and the format characters (bidi overrides, zero-width, BOM...).
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\p{Cs}\u2028\u2029]/gu;

/** Untrusted text for a plain-text log: every unprintable character shown as `\u{…}`. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
}

/**
 * Logs untrusted multi-line text (a rendered file) in a collapsed group: the runner runs no workflow
 * command inside it (`::stop-commands::` with an unguessable token, resumed before the group closes)
 * and no escape or bidi sequence reaches the log raw.
 */
export function logUntrusted(heading: string, text: string): void {
  logGroup(`Writ: ${printable(heading)}`, () => {
    const token = randomUUID();
    runnerLogger.info(`::stop-commands::${token}`);
    runnerLogger.info(`${printable(heading)}\n${printable(text)}`);
    runnerLogger.info(`::${token}::`);
  });
}

/** Markdown showing a ledger commit (headline, trailers, files): what a dry run would write. */
export function describeCommit(commit: {
  expectedHeadOid: string;
  headline: string;
  body: string;
  additions: { path: string; contents: string }[];
}): string {
  const files = commit.additions.map((file) =>
    [`\`${file.path}\``, '', '```json', file.contents.trimEnd(), '```', ''].join('\n'),
  );
  return [
    '<details><summary>Ledger commit (dry run: not written)</summary>',
    '',
    `On \`${commit.expectedHeadOid}\`: **${commit.headline}**`,
    '',
    '```text',
    commit.body,
    '```',
    '',
    ...files,
    '</details>',
    '',
  ].join('\n');
}
