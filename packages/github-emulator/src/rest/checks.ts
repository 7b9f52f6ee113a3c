/**
 * Check runs. Only a GitHub App (an installation token, or the workflow's GITHUB_TOKEN, which is the
 * `github-actions` app's) may create one — a personal access token is refused 403 as on GitHub — and it
 * needs `checks: write`; the check run records the creating app, which GitHub shows as `app` and which
 * alone may update it. `head_sha` is fixed at creation. Events `check_run` `created` / `completed`.
 */
import {
  HttpError,
  bodyObject,
  notFound,
  optionalString,
  paginate,
  requireString,
  unprocessable,
  validationFailed,
} from '../http.js';
import type { Ctx } from '../http.js';
import { recordEvent } from '../events.js';
import { checkRun, integration, repository, simpleUser } from '../represent.js';
import type { Router } from '../router.js';
import type { App, CheckRun, Repo } from '../state.js';
import { nodeId } from '../state.js';
import { intParam, loadRepo, resolveCommitish, urlsOf } from './common.js';

const CHECKS_DOC = 'https://docs.github.com/rest/checks/runs';
const STATUSES = ['queued', 'in_progress', 'completed'];
const CONCLUSIONS = [
  'action_required',
  'cancelled',
  'failure',
  'neutral',
  'success',
  'skipped',
  'stale',
  'timed_out',
];

function checkEvent(ctx: Ctx, repo: Repo, value: CheckRun, action: 'created' | 'completed'): void {
  const urls = urlsOf(ctx);
  const shaped = checkRun(urls, repo, value);
  const api = `${urls.api}/repos/${repo.owner.login}/${repo.name}`;
  recordEvent(ctx.world, ctx.token, 'check_run', action, {
    check_run: {
      ...shaped,
      check_suite: {
        id: value.check_suite_id,
        node_id: nodeId('CS', value.check_suite_id),
        head_branch: value.head_branch,
        head_sha: value.head_sha,
        status: value.status === 'completed' ? 'completed' : 'queued',
        conclusion: value.status === 'completed' ? value.conclusion : null,
        url: `${api}/check-suites/${value.check_suite_id}`,
        before: null,
        after: value.head_sha,
        pull_requests: shaped.pull_requests,
        app: integration(urls, value.app),
        created_at: value.started_at ?? ctx.world.now(),
        updated_at: ctx.world.now(),
      },
    },
    repository: { ...repository(urls, repo), custom_properties: {} },
    sender: ctx.token ? simpleUser(urls, ctx.token.account) : undefined,
  });
}

function findCheck(repo: Repo, id: number): CheckRun {
  const found = repo.checkRuns.get(id);
  if (!found) throw notFound(`${CHECKS_DOC}#get-a-check-run`);
  return found;
}

/** The creating app of a request: an app's token, else GitHub's 403. */
function appOf(ctx: Ctx): App {
  const token = ctx.token;
  if (!token || token.kind === 'pat' || !token.app) {
    throw new HttpError(403, {
      message: 'You must authenticate via a GitHub App.',
      documentation_url: `${CHECKS_DOC}#create-a-check-run`,
      status: '403',
    });
  }
  return token.app;
}

function optionalTime(body: Record<string, unknown>, field: string): string | undefined {
  const value = optionalString(body, field);
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms))
    throw validationFailed([{ resource: 'CheckRun', field, code: 'invalid' }], CHECKS_DOC);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Applies the writable fields of a create or update body to a check run (GitHub's 422s on bad values). */
function applyFields(ctx: Ctx, value: CheckRun, body: Record<string, unknown>, creating: boolean): void {
  const name = optionalString(body, 'name');
  if (name !== undefined) value.name = name;
  const details = optionalString(body, 'details_url');
  if (details !== undefined) value.details_url = details;
  const external = optionalString(body, 'external_id');
  if (external !== undefined) value.external_id = external;
  const started = optionalTime(body, 'started_at');
  if (started !== undefined) value.started_at = started;
  const status = optionalString(body, 'status');
  const conclusion = optionalString(body, 'conclusion');
  if (status !== undefined && !STATUSES.includes(status)) {
    throw validationFailed([{ resource: 'CheckRun', field: 'status', code: 'invalid' }], CHECKS_DOC);
  }
  if (conclusion !== undefined && !CONCLUSIONS.includes(conclusion)) {
    throw validationFailed([{ resource: 'CheckRun', field: 'conclusion', code: 'invalid' }], CHECKS_DOC);
  }
  // A conclusion completes the check run; `completed` needs one.
  const nextStatus = conclusion !== undefined ? 'completed' : (status ?? value.status);
  if (nextStatus === 'completed' && conclusion === undefined && value.conclusion === null) {
    throw unprocessable('Invalid request.\n\n"conclusion" wasn\'t supplied.', CHECKS_DOC);
  }
  value.status = nextStatus;
  if (conclusion !== undefined) value.conclusion = conclusion;
  if (value.status === 'completed') {
    value.completed_at = optionalTime(body, 'completed_at') ?? value.completed_at ?? ctx.world.now();
  }
  if (creating) value.started_at ??= ctx.world.now();
  const output = body.output;
  if (output !== undefined && output !== null) {
    if (typeof output !== 'object' || Array.isArray(output)) {
      throw unprocessable(
        `Invalid request.\n\nFor 'properties/output', ${JSON.stringify(output)} is not an object.`,
        CHECKS_DOC,
      );
    }
    const fields = output as Record<string, unknown>;
    const title = requireString(fields, 'title', CHECKS_DOC);
    const summary = requireString(fields, 'summary', CHECKS_DOC);
    value.output = { title, summary, text: optionalString(fields, 'text') ?? null };
  }
}

export function registerCheckRoutes(router: Router): void {
  router.add('POST', '/repos/:owner/:repo/check-runs', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const app = appOf(ctx);
    loadRepo(ctx, 'checks', 'write');
    const body = bodyObject(ctx);
    const name = requireString(body, 'name', CHECKS_DOC);
    const headSha = requireString(body, 'head_sha', CHECKS_DOC);
    if (!/^[0-9a-f]{40}$/.test(headSha) || !repo.git.has(headSha, 'commit')) {
      throw unprocessable(`No commit found for SHA: ${headSha}`, CHECKS_DOC);
    }
    const suiteKey = `${app.id}:${headSha}`;
    let suite = repo.checkSuites.get(suiteKey);
    if (suite === undefined) {
      suite = ctx.world.id();
      repo.checkSuites.set(suiteKey, suite);
    }
    const id = ctx.world.id();
    const branch = [...repo.refs.entries()].find(
      ([ref, sha]) => sha === headSha && ref.startsWith('refs/heads/'),
    )?.[0];
    const value: CheckRun = {
      id,
      node_id: nodeId('CR', id),
      name,
      head_sha: headSha,
      head_branch: branch ? branch.replace(/^refs\/heads\//, '') : null,
      status: 'queued',
      conclusion: null,
      started_at: null,
      completed_at: null,
      output: { title: null, summary: null, text: null },
      external_id: '',
      details_url: null,
      app,
      check_suite_id: suite,
    };
    applyFields(ctx, value, body, true);
    repo.checkRuns.set(id, value);
    checkEvent(ctx, repo, value, 'created');
    if (value.status === 'completed') checkEvent(ctx, repo, value, 'completed');
    return { status: 201, body: checkRun(urlsOf(ctx), repo, value) };
  });

  router.add('GET', '/repos/:owner/:repo/check-runs/:check_run_id', (ctx) => {
    const repo = loadRepo(ctx, 'checks', 'read');
    return { status: 200, body: checkRun(urlsOf(ctx), repo, findCheck(repo, intParam(ctx, 'check_run_id'))) };
  });

  router.add('PATCH', '/repos/:owner/:repo/check-runs/:check_run_id', (ctx) => {
    const repo = loadRepo(ctx, 'metadata', 'read');
    const app = appOf(ctx);
    loadRepo(ctx, 'checks', 'write');
    const value = findCheck(repo, intParam(ctx, 'check_run_id'));
    if (value.app.id !== app.id) {
      throw new HttpError(403, {
        message: `Invalid app_id \`${app.id}\` - check run can only be modified by the GitHub App that created it.`,
        documentation_url: `${CHECKS_DOC}#update-a-check-run`,
        status: '403',
      });
    }
    const wasCompleted = value.status === 'completed';
    applyFields(ctx, value, bodyObject(ctx), false);
    if (!wasCompleted && value.status === 'completed') checkEvent(ctx, repo, value, 'completed');
    return { status: 200, body: checkRun(urlsOf(ctx), repo, value) };
  });

  router.add('GET', '/repos/:owner/:repo/commits/:ref/check-runs', (ctx) => {
    const repo = loadRepo(ctx, 'checks', 'read');
    const sha = resolveCommitish(repo, ctx.params.ref ?? '');
    if (!sha) {
      throw unprocessable(
        `No commit found for SHA: ${ctx.params.ref ?? ''}`,
        `${CHECKS_DOC}#list-check-runs-for-a-git-reference`,
      );
    }
    const name = ctx.query.get('check_name');
    const status = ctx.query.get('status');
    const appId = ctx.query.get('app_id');
    const filter = ctx.query.get('filter') ?? 'latest';
    let runs = [...repo.checkRuns.values()]
      .filter((entry) => entry.head_sha === sha)
      .sort((a, b) => b.id - a.id);
    if (filter === 'latest') {
      const seen = new Set<string>();
      runs = runs.filter((entry) => {
        const key = `${entry.app.id}\u0000${entry.name}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }
    runs = runs
      .filter((entry) => !name || entry.name === name)
      .filter((entry) => !status || entry.status === status)
      .filter((entry) => !appId || String(entry.app.id) === appId);
    return {
      status: 200,
      body: {
        total_count: runs.length,
        check_runs: paginate(ctx, runs).map((entry) => checkRun(urlsOf(ctx), repo, entry)),
      },
    };
  });
}
