/**
 * The Actions API for one attempt of a workflow run (`GET /repos/{o}/{r}/actions/runs/{id}/attempts/{n}`):
 * what a recovery sweep reads to tell whether a lease holder's job is still running. Like GitHub, it
 * needs `actions: read` (403 without it) and answers 404 for an unknown run or an attempt it never had.
 * The run itself (`GET …/runs/{id}`) lives with the repository routes.
 */
import { notFound } from '../http.js';
import { workflowRun } from '../represent.js';
import type { Router } from '../router.js';
import { intParam, loadRepo, urlsOf } from './common.js';

const ATTEMPT_DOCS = 'https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run-attempt';

export function registerActionsRoutes(router: Router): void {
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
