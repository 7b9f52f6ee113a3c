/**
 * `writ plan from-issue`: a submitted Writ work-request form turned into a plan, printed on stdout for
 * the preview and approval workflows' `./scripts/plan` (docs/intake.md). The form is read from the
 * issue over the API (`--issue N`, GITHUB_TOKEN needs only to read issues), or from `--body-file` for
 * a planner that already has the body (the workflow event's `issue.body`); nothing is written.
 */
import { readFileSync, statSync } from 'node:fs';
import { COMMAND_PREFIX_PATTERN } from '@writ/core/command/grammar.js';
import { WritError } from '@writ/core/errors.js';
import type { IntakeSource } from '@writ/core/plan/from-issue.js';
import { MAX_FORM_BODY, planFromIssueForm, readIntakeIssue } from '@writ/core/plan/from-issue.js';
import { parseRepository } from '@writ/core/ledger/paths.js';
import { Problems, parseOptionsInto } from '../args.js';
import type { CliEnv, CliIo } from '../cli-io.js';
import { githubFromEnv } from '../github-env.js';
import { PLAN_FROM_ISSUE_HELP, PLAN_HELP } from '../help.js';
import { REPOSITORY_OPTIONS, repositoryTarget } from '../repository.js';

const OPTIONS = {
  ...REPOSITORY_OPTIONS,
  issue: { type: 'string' },
  'body-file': { type: 'string' },
  title: { type: 'string' },
  prefix: { type: 'string' },
} as const;

/** A UTF-8 body can take up to 4 bytes a character; anything longer is refused before it is read. */
const MAX_BODY_BYTES = MAX_FORM_BODY * 4;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function readBodyFile(path: string): string {
  let size: number;
  try {
    const info = statSync(path);
    if (!info.isFile()) throw new Error('not a regular file');
    size = info.size;
  } catch {
    throw new WritError('invalid-input', '--body-file does not name a regular file.');
  }
  if (size > MAX_BODY_BYTES) {
    throw new WritError(
      'intake-form-malformed',
      `--body-file is ${size} bytes; a form body is at most ${MAX_FORM_BODY} characters`,
    );
  }
  try {
    return utf8.decode(readFileSync(path));
  } catch {
    throw new WritError('intake-form-malformed', '--body-file is not UTF-8 text');
  }
}

export async function runPlanFromIssue(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const problems = new Problems('writ plan from-issue');
  const { values } = parseOptionsInto(args, OPTIONS, problems);
  if (values.help === true) {
    io.stdout(PLAN_FROM_ISSUE_HELP);
    return 0;
  }
  const target = problems.check(() => repositoryTarget(values, env));
  const issueText = values.issue;
  if (issueText !== undefined && !/^[1-9][0-9]{0,9}$/.test(issueText)) {
    problems.add('invalid --issue: expected an issue number');
  }
  if (issueText === undefined && values['body-file'] === undefined) {
    problems.add('pass --issue <number> (read the issue over the API) or --body-file <path>');
  }
  const prefix = values.prefix ?? 'writ';
  if (!COMMAND_PREFIX_PATTERN.test(prefix)) {
    problems.add('invalid --prefix: expected 1-32 characters of [a-z0-9-] starting with a letter');
  }
  problems.done();
  if (target === undefined) throw new Error('unreachable');
  const issue = issueText === undefined ? undefined : Number(issueText);
  let body: string;
  let title = values.title;
  if (values['body-file'] !== undefined) {
    body = readBodyFile(values['body-file']);
  } else {
    const read = await readIntakeIssue(
      { github: githubFromEnv(env, target) },
      parseRepository(target.repository),
      issue as number,
    );
    body = read.body;
    title ??= read.title;
  }
  const source: IntakeSource = {
    repository: target.repository,
    ...(issue === undefined ? {} : { issue }),
    ...(title === undefined ? {} : { title }),
  };
  const plan = planFromIssueForm(body, source, { commandPrefix: prefix });
  io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
  return 0;
}

/** `writ plan <subcommand>`. */
export async function runPlanCommand(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(PLAN_HELP);
    return sub === undefined ? 1 : 0;
  }
  if (sub === 'from-issue') return runPlanFromIssue(rest, env, io);
  throw new WritError(
    'invalid-input',
    `Unknown plan command ${JSON.stringify(sub.slice(0, 40))}. Expected from-issue (see writ plan --help).`,
  );
}
