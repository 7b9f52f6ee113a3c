/** `writ doctor --github`: the preflight report, as a table or `--json`; exit 1 on any FAIL. */
import { errorLink } from '@writ/core/errors.js';
import { renderDoctorReport, runDoctor } from '@writ/core/setup/doctor.js';
import { ENVIRONMENT_NAME } from '@writ/core/setup/environment-name.js';
import { Problems, parseOptionsInto } from '../args.js';
import type { CliEnv, CliIo } from '../cli-io.js';
import { githubFromEnv } from '../github-env.js';
import { DOCTOR_HELP } from '../help.js';
import { REPOSITORY_OPTIONS, repositoryTarget } from '../repository.js';

const OPTIONS = {
  github: { type: 'boolean' },
  ...REPOSITORY_OPTIONS,
  branch: { type: 'string' },
  'app-slug': { type: 'string' },
  'app-id': { type: 'string' },
  environment: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runDoctorCommand(args: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const problems = new Problems('writ doctor');
  const { values } = parseOptionsInto(args, OPTIONS, problems);
  if (values.help === true) {
    io.stdout(DOCTOR_HELP);
    return 0;
  }
  if (values.github !== true) problems.add('writ doctor needs --github');
  const target = problems.check(() => repositoryTarget(values, env));
  const slug = values['app-slug'] ?? env.WRIT_APP_SLUG;
  const idText = values['app-id'] ?? env.WRIT_APP_ID;
  if ((slug === undefined) !== (idText === undefined)) {
    problems.add('pass both --app-slug and --app-id (or WRIT_APP_SLUG and WRIT_APP_ID), or neither');
  }
  if (idText !== undefined && !/^[1-9][0-9]{0,15}$/.test(idText)) {
    problems.add('invalid --app-id (WRIT_APP_ID): expected the numeric GitHub App ID');
  }
  if (slug !== undefined && !/^[a-z0-9](?:[a-z0-9-]{0,33}[a-z0-9])?$/.test(slug)) {
    problems.add('invalid --app-slug (WRIT_APP_SLUG): expected the GitHub App slug');
  }
  const environment = values.environment;
  if (environment !== undefined && !ENVIRONMENT_NAME.test(environment)) {
    problems.add('invalid --environment: expected letters, digits, ".", "_" and "-" (at most 255)');
  }
  problems.done();
  if (target === undefined) throw new Error('unreachable');
  const { repository } = target;
  const github = githubFromEnv(env, target);
  const report = await runDoctor(
    { github },
    {
      repository,
      app: slug !== undefined && idText !== undefined ? { slug, id: Number(idText) } : null,
      ledgerBranch: values.branch ?? null,
      environment: environment ?? null,
    },
  );
  io.stdout(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorReport(report));
  if (report.result === 'FAIL') {
    const failing = report.checks.filter((entry) => entry.status === 'FAIL').map((entry) => entry.id);
    io.stderr(
      `preflight-failed: ${failing.length} check(s) FAIL: ${failing.join(', ')} — ${errorLink('preflight-failed')}\n`,
    );
    return 1;
  }
  return 0;
}
