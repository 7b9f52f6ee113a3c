/**
 * The Actions API: workflows (the `.github/workflows` files of the default branch, `workflows.ts`),
 * `workflow_dispatch` (`POST …/dispatches`: validated like GitHub, it creates a queued run and records the
 * `workflow_dispatch` and `workflow_run requested` events), workflow runs (one run, the repository's and a
 * workflow's lists with GitHub's filters) and run attempts (each attempt's own status, as the admin API
 * set it; 404 for an unknown run or an attempt it never had).
 */
import { recordEvent } from '../events.js';
import type { Ctx } from '../http.js';
import { bodyObject, notFound, paginate, requireString, unprocessable, validationFailed } from '../http.js';
import { repository, simpleUser, workflow, workflowRun } from '../represent.js';
import type { Router } from '../router.js';
import type { Account, Repo, Token, World, WorkflowRun } from '../state.js';
import { nodeId } from '../state.js';
import type { WorkflowFile } from '../workflows.js';
import {
  findWorkflow,
  MAX_DISPATCH_INPUTS,
  renderRunName,
  repoWorkflows,
  workflowsAt,
} from '../workflows.js';
import { intParam, loadRepo, urlsOf } from './common.js';

const RUNS_DOC = 'https://docs.github.com/rest/actions/workflow-runs';
const WORKFLOWS_DOC = 'https://docs.github.com/rest/actions/workflows';
const ATTEMPT_DOCS = `${RUNS_DOC}#get-a-workflow-run-attempt`;
const DISPATCH_DOC = `${WORKFLOWS_DOC}#create-a-workflow-dispatch-event`;

/** The workflow a run belongs to, in the `workflow` shape (from the run when its file is gone). */
function workflowOfRun(world: World, repo: Repo, run: WorkflowRun): Record<string, unknown> {
  const known = repo.workflows.get(run.path);
  const file: WorkflowFile = {
    id: run.workflow_id,
    node_id: known?.node_id ?? nodeId('W', run.workflow_id),
    path: run.path,
    name: run.name,
    runName: null,
    triggers: [],
    dispatchInputs: null,
    created_at: known?.created_at ?? run.created_at,
  };
  return workflow(world.urls, repo, file);
}

/** Records `workflow_run` `requested` / `in_progress` / `completed` for a run (sent by its triggering actor). */
export function recordRunEvent(
  world: World,
  token: Token | null,
  repo: Repo,
  run: WorkflowRun,
  action: 'requested' | 'in_progress' | 'completed',
): void {
  const sender: Account = run.triggering_actor ?? run.actor;
  const repoShape = { ...repository(world.urls, repo), custom_properties: {} };
  recordEvent(world, token, 'workflow_run', action, {
    workflow: workflowOfRun(world, repo, run),
    workflow_run: {
      ...workflowRun(world.urls, repo, run),
      repository: repoShape,
      head_repository: repoShape,
    },
    repository: repoShape,
    sender: simpleUser(world.urls, sender),
  });
}

/** A `created` bound: a date (the whole day) or a date-time (its whole second); `*` is unbounded. */
function bound(text: string, end: boolean): number {
  if (text === '*') return end ? Infinity : -Infinity;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const start = Date.parse(`${text}T00:00:00Z`);
    return end ? start + 86_400_000 - 1 : start;
  }
  const ms = Date.parse(text);
  if (!Number.isFinite(ms))
    throw validationFailed([{ resource: 'WorkflowRun', field: 'created', code: 'invalid' }]);
  return end && !/\.\d+/.test(text) ? ms + 999 : ms;
}

/** GitHub's search-style date filter: `>=X`, `>X`, `<=X`, `<X`, `A..B`, or one date or instant. */
function createdMatcher(spec: string): (ms: number) => boolean {
  const trimmed = spec.trim();
  const op = /^(>=|<=|>|<)(.+)$/.exec(trimmed);
  if (op?.[1] !== undefined && op[2] !== undefined) {
    const value = op[2].trim();
    if (op[1] === '>=') {
      const low = bound(value, false);
      return (ms) => ms >= low;
    }
    if (op[1] === '>') {
      const low = bound(value, true);
      return (ms) => ms > low;
    }
    if (op[1] === '<=') {
      const high = bound(value, true);
      return (ms) => ms <= high;
    }
    const high = bound(value, false);
    return (ms) => ms < high;
  }
  const range = trimmed.split('..');
  const [from, to] = range.length === 2 ? [range[0] ?? '*', range[1] ?? '*'] : [trimmed, trimmed];
  const low = bound(from.trim(), false);
  const high = bound(to.trim(), true);
  return (ms) => ms >= low && ms <= high;
}

/** Runs as a list shows them: visible ones only (the visibility delay), filtered, newest first. */
function listRuns(ctx: Ctx, repo: Repo, workflowId: number | null): WorkflowRun[] {
  const now = ctx.world.clock.now();
  const query = ctx.query;
  const actor = query.get('actor')?.toLowerCase();
  const branch = query.get('branch');
  const event = query.get('event');
  const status = query.get('status');
  const headSha = query.get('head_sha');
  const created = query.get('created');
  const suite = query.get('check_suite_id');
  const matchCreated = created ? createdMatcher(created) : null;
  return [...repo.runs.values()]
    .filter((run) => run.visible_at === undefined || run.visible_at <= now)
    .filter((run) => workflowId === null || run.workflow_id === workflowId)
    .filter((run) => !actor || run.actor.login.toLowerCase() === actor)
    .filter((run) => !branch || run.head_branch === branch)
    .filter((run) => !event || run.event === event)
    .filter((run) => !status || run.status === status || run.conclusion === status)
    .filter((run) => !headSha || run.head_sha === headSha)
    .filter((run) => !suite || String(run.id) === suite)
    .filter((run) => !matchCreated || matchCreated(Date.parse(run.created_at)))
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);
}

function runsReply(ctx: Ctx, repo: Repo, runs: WorkflowRun[]): { status: number; body: unknown } {
  return {
    status: 200,
    body: {
      total_count: runs.length,
      workflow_runs: paginate(ctx, runs).map((run) => workflowRun(urlsOf(ctx), repo, run)),
    },
  };
}

function loadWorkflow(ctx: Ctx, repo: Repo, documentation: string): WorkflowFile {
  const found = findWorkflow(ctx.world, repo, ctx.params.workflow_id ?? '');
  if (!found) throw notFound(documentation);
  return found;
}

/** A dispatch ref (`main`, `refs/heads/main`, a tag) → its full name and commit; undefined if none. */
function resolveDispatchRef(repo: Repo, ref: string): { ref: string; name: string; sha: string } | undefined {
  const candidates = ref.startsWith('refs/') ? [ref] : [`refs/heads/${ref}`, `refs/tags/${ref}`];
  for (const full of candidates) {
    const sha = repo.refs.get(full);
    if (sha && repo.git.has(sha, 'commit')) {
      return { ref: full, name: full.replace(/^refs\/(?:heads|tags)\//, ''), sha };
    }
  }
  return undefined;
}

/** The dispatch's inputs checked against the workflow's (GitHub's 422s), defaults filled in. */
function dispatchInputs(
  declared: NonNullable<WorkflowFile['dispatchInputs']>,
  given: Record<string, unknown>,
): Record<string, string> {
  const keys = Object.keys(given);
  if (keys.length > MAX_DISPATCH_INPUTS) {
    throw unprocessable(
      `Invalid request.\n\nNo more than ${MAX_DISPATCH_INPUTS} properties are allowed; ${keys.length} were supplied.`,
      DISPATCH_DOC,
    );
  }
  const unexpected = keys.filter((key) => !declared.has(key));
  if (unexpected.length > 0) {
    throw unprocessable(`Unexpected inputs provided: ${JSON.stringify(unexpected)}`, DISPATCH_DOC);
  }
  const out: Record<string, string> = {};
  for (const [name, spec] of declared) {
    const raw = given[name];
    if (raw === undefined || raw === null) {
      if (spec.default !== null) out[name] = spec.default;
      else if (spec.required) throw unprocessable(`Required input '${name}' not provided`, DISPATCH_DOC);
      continue;
    }
    if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
      throw unprocessable(
        `Invalid request.\n\nFor 'properties/${name}', ${JSON.stringify(raw)} is not a string.`,
        DISPATCH_DOC,
      );
    }
    const value = String(raw);
    if (spec.type === 'choice' && !spec.options.includes(value)) {
      throw unprocessable(
        `Provided value '${value}' for input '${name}' not in the list of allowed values`,
        DISPATCH_DOC,
      );
    }
    if (spec.type === 'boolean' && value !== 'true' && value !== 'false') {
      throw unprocessable(
        `Provided value '${value}' for input '${name}' is not a valid boolean`,
        DISPATCH_DOC,
      );
    }
    if (spec.type === 'number' && (value.trim() === '' || !Number.isFinite(Number(value)))) {
      throw unprocessable(
        `Provided value '${value}' for input '${name}' is not a valid number`,
        DISPATCH_DOC,
      );
    }
    out[name] = value;
  }
  return out;
}

export function registerActionsRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/actions/workflows', (ctx) => {
    const repo = loadRepo(ctx, 'actions', 'read');
    const all = repoWorkflows(ctx.world, repo);
    return {
      status: 200,
      body: {
        total_count: all.length,
        workflows: paginate(ctx, all).map((entry) => workflow(urlsOf(ctx), repo, entry)),
      },
    };
  });

  router.add('GET', '/repos/:owner/:repo/actions/workflows/:workflow_id', (ctx) => {
    const repo = loadRepo(ctx, 'actions', 'read');
    const found = loadWorkflow(ctx, repo, `${WORKFLOWS_DOC}#get-a-workflow`);
    return { status: 200, body: workflow(urlsOf(ctx), repo, found) };
  });

  router.add('POST', '/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches', (ctx) => {
    const repo = loadRepo(ctx, 'actions', 'write');
    const token = ctx.token;
    if (!token) throw notFound(DISPATCH_DOC);
    const listed = loadWorkflow(ctx, repo, DISPATCH_DOC);
    const body = bodyObject(ctx);
    const refSpec = requireString(body, 'ref', DISPATCH_DOC);
    const rawInputs = body.inputs ?? {};
    if (typeof rawInputs !== 'object' || Array.isArray(rawInputs)) {
      throw unprocessable(
        `Invalid request.\n\nFor 'properties/inputs', ${JSON.stringify(rawInputs)} is not an object.`,
        DISPATCH_DOC,
      );
    }
    const ref = resolveDispatchRef(repo, refSpec);
    if (!ref) throw unprocessable(`No ref found for: ${refSpec}`, DISPATCH_DOC);
    // The workflow as it is at the dispatched ref is what runs (GitHub reads the file there).
    const atRef = workflowsAt(ctx.world, repo, ref.sha).find((entry) => entry.path === listed.path);
    if (!atRef?.dispatchInputs) {
      throw unprocessable("Workflow does not have 'workflow_dispatch' trigger", DISPATCH_DOC);
    }
    const inputs = dispatchInputs(atRef.dispatchInputs, rawInputs as Record<string, unknown>);
    const world = ctx.world;
    const id = world.id();
    const now = world.now();
    const nowMs = world.clock.now();
    const run: WorkflowRun = {
      id,
      node_id: nodeId('WFR', id),
      name: atRef.name,
      display_title: renderRunName(atRef, {
        inputs,
        actor: token.account.login,
        triggeringActor: token.account.login,
        ref: ref.ref,
        refName: ref.name,
        sha: ref.sha,
        eventName: 'workflow_dispatch',
        repository: `${repo.owner.login}/${repo.name}`,
      }),
      status: 'queued',
      conclusion: null,
      head_branch: ref.name,
      head_sha: ref.sha,
      event: 'workflow_dispatch',
      path: listed.path,
      workflow_id: listed.id,
      run_number: [...repo.runs.values()].filter((entry) => entry.workflow_id === listed.id).length + 1,
      run_attempt: 1,
      actor: token.account,
      triggering_actor: token.account,
      inputs,
      created_at: now,
      updated_at: now,
      run_started_at: now,
      visible_at: nowMs + world.runVisibilityDelayMs,
    };
    run.attempts = new Map([
      [1, { status: run.status, conclusion: null, updated_at: now, run_started_at: now }],
    ]);
    repo.runs.set(id, run);
    recordEvent(world, token, 'workflow_dispatch', '', {
      inputs: Object.keys(inputs).length > 0 ? inputs : null,
      ref: ref.ref,
      workflow: listed.path,
      repository: { ...repository(urlsOf(ctx), repo), custom_properties: {} },
      sender: simpleUser(urlsOf(ctx), token.account),
    });
    recordRunEvent(world, token, repo, run, 'requested');
    if (body.return_run_details === true) {
      const shaped = workflowRun(urlsOf(ctx), repo, run);
      return {
        status: 200,
        body: { workflow_run_id: id, run_url: shaped.url, html_url: shaped.html_url },
      };
    }
    return { status: 204 };
  });

  router.add('GET', '/repos/:owner/:repo/actions/workflows/:workflow_id/runs', (ctx) => {
    const repo = loadRepo(ctx, 'actions', 'read');
    const found = loadWorkflow(ctx, repo, `${RUNS_DOC}#list-workflow-runs-for-a-workflow`);
    return runsReply(ctx, repo, listRuns(ctx, repo, found.id));
  });

  router.add('GET', '/repos/:owner/:repo/actions/runs', (ctx) => {
    const repo = loadRepo(ctx, 'actions', 'read');
    return runsReply(ctx, repo, listRuns(ctx, repo, null));
  });

  router.add('GET', '/repos/:owner/:repo/actions/runs/:run_id', (ctx) => {
    const repo = loadRepo(ctx, 'actions', 'read');
    const run = repo.runs.get(intParam(ctx, 'run_id'));
    if (!run) throw notFound(`${RUNS_DOC}#get-a-workflow-run`);
    return { status: 200, body: workflowRun(urlsOf(ctx), repo, run) };
  });

  router.add('GET', '/repos/:owner/:repo/actions/runs/:run_id/attempts/:attempt_number', (ctx) => {
    const repo = loadRepo(ctx, 'actions', 'read');
    const run = repo.runs.get(intParam(ctx, 'run_id'));
    const number = intParam(ctx, 'attempt_number');
    if (!run || number < 1 || number > run.run_attempt) throw notFound(ATTEMPT_DOCS);
    const attempt = run.attempts?.get(number) ?? {
      status: run.status,
      conclusion: run.conclusion,
      updated_at: run.updated_at,
      run_started_at: run.run_started_at,
    };
    return {
      status: 200,
      body: { ...workflowRun(urlsOf(ctx), repo, run), ...attempt, run_attempt: number },
    };
  });
}
