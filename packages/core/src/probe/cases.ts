/**
 * The stale-write contract cases (1, 2a, 2b, 3a, 3b, 4). Each makes its own fresh resources, carrying
 * the run's marker; then a fresh control write that must succeed; then the stale read; then an external
 * change (exactly the one the case names, nothing unrelated); then the original write replayed against
 * the stale read with the precondition the surface offers (`If-Match: <the stale read's ETag>`), as
 * Writ's persist would send it; then a read-back decides whether the stale write applied.
 */
import { idempotencyKey, idempotencyMarker } from '../idempotency/key.js';
import type { Answer, ProbeApi } from './api.js';
import { ok } from './api.js';
import type { AttemptObservation } from './classify.js';
import { classifyAttempt, staleStateRefusal, uniquenessRefusal } from './classify.js';
import type { CaseId, ProbeAttempt, ProbeCase, ReadBack } from './evidence.js';
import { combine } from './evidence.js';

/** Where the probe writes and what marks its resources. */
export interface ProbeTarget {
  owner: string;
  repo: string;
  /** The per-run marker ID (`probe_run`). */
  runId: string;
}

export const SURFACES = {
  milestoneEdit: 'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
  issueEdit: 'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
  issueCreate: 'POST /repos/{owner}/{repo}/issues',
  milestoneCreate: 'POST /repos/{owner}/{repo}/milestones',
} as const;

/** The marker every probe issue body and milestone description carries. */
export function runMarker(runId: string): string {
  return `<!-- writ-probe run=${runId} -->`;
}

/** The name of the probe's pin label (a `roadmap:pinned`-style label). */
export function pinLabel(runId: string): string {
  return `writ-probe-${runId}-pinned`;
}

/** A resource the case needed could not be created or read: the case proves nothing. */
class SetupFailed extends Error {
  constructor(readonly answer: Answer) {
    super('probe setup failed');
  }
}

function must(answer: Answer): Answer {
  if (!ok(answer)) throw new SetupFailed(answer);
  return answer;
}

function field(answer: Answer, name: string): unknown {
  const data = answer.data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[name] : undefined;
}

function numberField(answer: Answer, name: string): number {
  const value = field(answer, name);
  if (typeof value !== 'number') throw new SetupFailed(answer);
  return value;
}

function at(api: ProbeApi): string {
  return api.now() ?? '1970-01-01T00:00:00Z';
}

function setupFailed(api: ProbeApi, surface: string, answer: Answer): ProbeAttempt {
  return {
    surface,
    classification: 'inconclusive',
    control_status: answer.status,
    status: null,
    error_code: answer.errorCode,
    read_back: 'unknown',
    reason: 'setup-failed',
    at: at(api),
  };
}

function repoParams(target: ProbeTarget): { owner: string; repo: string } {
  return { owner: target.owner, repo: target.repo };
}

async function createMilestone(
  api: ProbeApi,
  target: ProbeTarget,
  caseId: string,
  role: string,
): Promise<number> {
  const answer = must(
    await api.rest(
      'POST /repos/{owner}/{repo}/milestones',
      {
        ...repoParams(target),
        title: `writ-probe-${target.runId} case ${caseId} ${role}`,
        description: `${runMarker(target.runId)}\nwrit-probe case ${caseId} ${role}: v0`,
      },
      { write: true },
    ),
  );
  return numberField(answer, 'number');
}

async function createIssue(
  api: ProbeApi,
  target: ProbeTarget,
  caseId: string,
  milestone: number,
): Promise<number> {
  const answer = must(
    await api.rest(
      'POST /repos/{owner}/{repo}/issues',
      {
        ...repoParams(target),
        title: `writ-probe-${target.runId} case ${caseId} item`,
        body: `${runMarker(target.runId)}\nwrit-probe case ${caseId}: the item whose milestone changes.`,
        milestone,
      },
      { write: true },
    ),
  );
  return numberField(answer, 'number');
}

function ifMatch(etag: string | null): { headers?: Record<string, string> } {
  return etag === null ? {} : { headers: { 'if-match': etag } };
}

interface StaleEdit {
  surface: string;
  read(): Promise<Answer>;
  /** The original write, with the precondition the surface offers. */
  write(value: string | number, etag: string | null): Promise<Answer>;
  controlValue: string | number;
  staleValue: string | number;
  /** The external change the case names. */
  external(): Promise<Answer>;
  /** The value the read-back compares (the written field). */
  value(answer: Answer): unknown;
  /** That field after the external change alone. */
  externalValue: string | number;
}

/** control write → stale read → external change → the original write replayed → read-back. */
async function runStaleEdit(api: ProbeApi, edit: StaleEdit): Promise<ProbeAttempt> {
  const fresh = must(await edit.read());
  const control = await edit.write(edit.controlValue, fresh.etag);
  const observation: AttemptObservation = {
    surface: edit.surface,
    control,
    stale: null,
    readBack: 'unknown',
    at: at(api),
    attributable: staleStateRefusal,
  };
  if (!ok(control)) return classifyAttempt(observation);
  const staleRead = must(await edit.read());
  const external = await edit.external();
  if (!ok(external)) return classifyAttempt({ ...observation, setup: external, at: at(api) });
  const stale = await edit.write(edit.staleValue, staleRead.etag);
  const staleAt = at(api);
  const back = await edit.read();
  let readBack: ReadBack = 'unknown';
  if (ok(back)) {
    const value = edit.value(back);
    if (value === edit.staleValue) readBack = 'applied';
    else if (value === edit.externalValue) readBack = 'unchanged';
  }
  return classifyAttempt({ ...observation, stale, readBack, at: staleAt });
}

function milestoneEdit(api: ProbeApi, target: ProbeTarget, number: number) {
  const params = { ...repoParams(target), milestone_number: number };
  return {
    read: () => api.rest('GET /repos/{owner}/{repo}/milestones/{milestone_number}', params),
    patch: (body: Record<string, unknown>, etag: string | null) =>
      api.rest(
        'PATCH /repos/{owner}/{repo}/milestones/{milestone_number}',
        { ...params, ...body },
        { write: true, ...ifMatch(etag) },
      ),
  };
}

function issueEdit(api: ProbeApi, target: ProbeTarget, number: number) {
  const params = { ...repoParams(target), issue_number: number };
  return {
    read: () => api.rest('GET /repos/{owner}/{repo}/issues/{issue_number}', params),
    patch: (body: Record<string, unknown>, etag: string | null) =>
      api.rest(
        'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
        { ...params, ...body },
        { write: true, ...ifMatch(etag) },
      ),
  };
}

function milestoneOf(answer: Answer): unknown {
  const value = field(answer, 'milestone');
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>).number : null;
}

/** Case 1: a milestone description (marker/pin) edit after an external description edit. */
async function caseOne(api: ProbeApi, target: ProbeTarget): Promise<ProbeAttempt[]> {
  const number = await createMilestone(api, target, '1', 'milestone');
  const milestone = milestoneEdit(api, target, number);
  const text = (what: string) => `${runMarker(target.runId)}\nwrit-probe case 1 milestone: ${what}`;
  return [
    await runStaleEdit(api, {
      surface: SURFACES.milestoneEdit,
      read: milestone.read,
      write: (value, etag) => milestone.patch({ description: value }, etag),
      controlValue: text('control'),
      staleValue: text('stale'),
      external: () => milestone.patch({ description: text('external') }, null),
      externalValue: text('external'),
      value: (answer) => field(answer, 'description'),
    }),
  ];
}

/**
 * Cases 2a, 2b, 3a, 3b: an issue's milestone change. The control moves the item from A to B; the stale
 * read sees it in B (B its source, A the target); after the external change, the original write (back
 * to A) is replayed with the stale read's ETag.
 */
async function assignmentCase(
  api: ProbeApi,
  target: ProbeTarget,
  id: '2a' | '2b' | '3a' | '3b',
): Promise<ProbeAttempt[]> {
  const a = await createMilestone(api, target, id, 'A');
  const b = await createMilestone(api, target, id, 'B');
  let externalValue: number = b;
  let external: () => Promise<Answer>;
  if (id === '2a') {
    const c = await createMilestone(api, target, id, 'C');
    externalValue = c;
    external = () => issueEdit(api, target, item).patch({ milestone: c }, null);
  } else if (id === '2b') {
    must(
      await api.rest(
        'POST /repos/{owner}/{repo}/labels',
        { ...repoParams(target), name: pinLabel(target.runId), color: 'ededed' },
        { write: true },
      ),
    );
    // Only the pin label changes: an unrelated edit would not show that the pin is protected.
    external = () =>
      api.rest(
        'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
        { ...repoParams(target), issue_number: item, labels: [pinLabel(target.runId)] },
        { write: true },
      );
  } else {
    // 3a: the source milestone's marker changes; 3b: the target's.
    const changed = id === '3a' ? b : a;
    external = () =>
      milestoneEdit(api, target, changed).patch(
        {
          description: `${runMarker(target.runId)}\nwrit-probe case ${id} ${id === '3a' ? 'B' : 'A'}: marker moved`,
        },
        null,
      );
  }
  const item = await createIssue(api, target, id, a);
  const issue = issueEdit(api, target, item);
  return [
    await runStaleEdit(api, {
      surface: SURFACES.issueEdit,
      read: issue.read,
      write: (value, etag) => issue.patch({ milestone: value }, etag),
      controlValue: b,
      staleValue: a,
      external,
      externalValue,
      value: milestoneOf,
    }),
  ];
}

/** Reads a primary list endpoint (state=all, unfiltered) to a cap; null when it fails or hits the cap. */
export async function listAll(
  api: ProbeApi,
  route: string,
  params: Record<string, unknown>,
  maxPages = 10,
): Promise<Record<string, unknown>[] | null> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const answer = await api.rest(route, { ...params, per_page: 100, page });
    if (!ok(answer) || !Array.isArray(answer.data)) return null;
    items.push(...(answer.data as Record<string, unknown>[]));
    if (answer.data.length < 100) return items;
  }
  return null;
}

/**
 * Case 4, on one surface: two writers both read the list and saw no marker; the first create (the
 * control) must succeed, the second (its read now stale) must be refused; the read-back counts the key.
 */
async function concurrentCreate(
  api: ProbeApi,
  target: ProbeTarget,
  kind: 'issue' | 'milestone',
): Promise<ProbeAttempt> {
  const pathTemplate = kind === 'issue' ? '/repos/{owner}/{repo}/issues' : '/repos/{owner}/{repo}/milestones';
  const route = `POST ${pathTemplate}`;
  const listRoute = `GET ${pathTemplate}`;
  const title = `writ-probe-${target.runId} case 4 ${kind}`;
  const text = `${runMarker(target.runId)}\nwrit-probe case 4: one ${kind} per key.`;
  const textField = kind === 'issue' ? 'body' : 'description';
  const marker = idempotencyMarker(
    idempotencyKey({ method: 'POST', pathTemplate, body: { title, [textField]: text } }),
  );
  const body = { title, [textField]: `${text}\n\n${marker}` };
  const count = async (): Promise<number | null> => {
    const items = await listAll(api, listRoute, { ...repoParams(target), state: 'all' });
    if (items === null) return null;
    return items.filter((item) => {
      const value = item[textField];
      return typeof value === 'string' && value.includes(marker);
    }).length;
  };
  const surface = kind === 'issue' ? SURFACES.issueCreate : SURFACES.milestoneCreate;
  const before = await count();
  if (before !== 0) {
    return setupFailed(api, surface, {
      status: null,
      data: null,
      etag: null,
      errorCode: null,
      message: '',
      rateLimited: false,
    });
  }
  const control = await api.rest(route, { ...repoParams(target), ...body }, { write: true });
  const observation: AttemptObservation = {
    surface,
    control,
    stale: null,
    readBack: 'unknown',
    at: at(api),
    attributable: (answer) => uniquenessRefusal(answer) || staleStateRefusal(answer),
  };
  if (!ok(control)) return classifyAttempt(observation);
  const stale = await api.rest(route, { ...repoParams(target), ...body }, { write: true });
  const staleAt = at(api);
  const after = await count();
  const readBack: ReadBack =
    after === 1 ? 'unchanged' : after !== null && after > 1 ? 'duplicate' : 'unknown';
  return classifyAttempt({ ...observation, stale, readBack, at: staleAt });
}

async function caseFour(api: ProbeApi, target: ProbeTarget): Promise<ProbeAttempt[]> {
  return [await concurrentCreate(api, target, 'issue'), await concurrentCreate(api, target, 'milestone')];
}

const CASE_SURFACE: Record<CaseId, string> = {
  '1': SURFACES.milestoneEdit,
  '2a': SURFACES.issueEdit,
  '2b': SURFACES.issueEdit,
  '3a': SURFACES.issueEdit,
  '3b': SURFACES.issueEdit,
  '4': SURFACES.issueCreate,
};

/** Runs one case; a resource it needed that could not be made leaves it inconclusive (`setup-failed`). */
export async function runCase(api: ProbeApi, target: ProbeTarget, id: CaseId): Promise<ProbeCase> {
  let attempts: ProbeAttempt[];
  try {
    if (id === '1') attempts = await caseOne(api, target);
    else if (id === '4') attempts = await caseFour(api, target);
    else attempts = await assignmentCase(api, target, id);
  } catch (error: unknown) {
    if (!(error instanceof SetupFailed)) throw error;
    attempts = [setupFailed(api, CASE_SURFACE[id], error.answer)];
  }
  return { id, classification: combine(attempts.map((attempt) => attempt.classification)), attempts };
}

/** What each case creates, for the dry run. */
export const CASE_RESOURCES: Record<CaseId, string> = {
  '1': '1 milestone; its description edited 3 times (control, external, stale with If-Match)',
  '2a': '3 milestones and 1 issue; the issue re-milestoned 3 times',
  '2b': '2 milestones, 1 label and 1 issue; the issue re-milestoned twice and labelled once',
  '3a': '2 milestones and 1 issue; the source milestone edited once, the issue re-milestoned twice',
  '3b': '2 milestones and 1 issue; the target milestone edited once, the issue re-milestoned twice',
  '4': '2 issue creates and 2 milestone creates with the same idempotency marker',
};
