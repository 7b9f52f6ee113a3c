/**
 * Workflows: a repository's `.github/workflows/*.yml|yaml` files, read from a commit's tree (the default
 * branch's for the workflow list, the dispatched ref's for a dispatch), and parsed the way GitHub reads
 * what this emulator needs of them: `name`, `run-name`, the triggers of `on` (a string, a list or a map)
 * and `on.workflow_dispatch.inputs` (type, required, default, options). A file that does not parse is
 * still a workflow (GitHub lists it, named by its path) with no triggers.
 *
 * `run-name` is rendered for a dispatched run's `display_title` with `${{ inputs.X }}`,
 * `${{ github.event.inputs.X }}`, `${{ github.actor }}`, `${{ github.ref_name }}` (and `github.ref`,
 * `github.sha`, `github.event_name`, `github.triggering_actor`, `github.repository`) substituted; an
 * input not given renders empty, as on GitHub. Any other expression is not evaluated: it stays in the
 * title as written (`${{ … }}`), so a test sees at once that the emulator did not model it — never a guess.
 */
import { parse } from 'yaml';
import { nodeId } from './state.js';
import type { Repo, World } from './state.js';

export const WORKFLOWS_DIR = '.github/workflows';

/** GitHub's limit on a dispatch's `inputs` (the OpenAPI description's `maxProperties`, raised from 10). */
export const MAX_DISPATCH_INPUTS = 25;

export interface DispatchInput {
  type: 'string' | 'boolean' | 'choice' | 'number' | 'environment';
  required: boolean;
  default: string | null;
  options: string[];
}

export interface WorkflowFile {
  id: number;
  node_id: string;
  path: string;
  /** `name:`, else the file's path (GitHub's default). */
  name: string;
  runName: string | null;
  /** The events of `on`. */
  triggers: string[];
  /** `on.workflow_dispatch.inputs`, or null without a `workflow_dispatch` trigger. */
  dispatchInputs: Map<string, DispatchInput> | null;
  created_at: string;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function scalar(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function parseInputs(dispatch: unknown): Map<string, DispatchInput> {
  const inputs = new Map<string, DispatchInput>();
  const declared = asRecord(asRecord(dispatch)?.inputs);
  if (!declared) return inputs;
  for (const [name, raw] of Object.entries(declared)) {
    const spec = asRecord(raw) ?? {};
    const type = scalar(spec.type) ?? 'string';
    inputs.set(name, {
      type: (['string', 'boolean', 'choice', 'number', 'environment'].includes(type)
        ? type
        : 'string') as DispatchInput['type'],
      required: spec.required === true || spec.required === 'true',
      default: scalar(spec.default),
      options: Array.isArray(spec.options)
        ? spec.options.map(scalar).filter((entry): entry is string => entry !== null)
        : [],
    });
  }
  return inputs;
}

/** Parses one workflow file's text (identity fields are filled by the caller). */
export function parseWorkflow(
  text: string,
  path: string,
): Pick<WorkflowFile, 'name' | 'runName' | 'triggers' | 'dispatchInputs'> {
  let doc: Record<string, unknown> | null = null;
  try {
    doc = asRecord(parse(text));
  } catch {
    doc = null;
  }
  if (!doc) return { name: path, runName: null, triggers: [], dispatchInputs: null };
  // YAML 1.1 readers turn a bare `on` key into `true`; the `yaml` package (1.2) keeps it a string.
  const on = doc.on ?? doc.true;
  let triggers: string[] = [];
  let dispatch: unknown = undefined;
  if (typeof on === 'string') triggers = [on];
  else if (Array.isArray(on)) triggers = on.map(scalar).filter((entry): entry is string => entry !== null);
  else {
    const map = asRecord(on);
    if (map) {
      triggers = Object.keys(map);
      dispatch = map.workflow_dispatch;
    }
  }
  return {
    name: scalar(doc.name) ?? path,
    runName: scalar(doc['run-name']),
    triggers,
    dispatchInputs: triggers.includes('workflow_dispatch') ? parseInputs(dispatch) : null,
  };
}

function identity(
  world: World,
  repo: Repo,
  path: string,
): { id: number; node_id: string; created_at: string } {
  let known = repo.workflows.get(path);
  if (!known) {
    const id = world.id();
    known = { id, node_id: nodeId('W', id), created_at: world.now() };
    repo.workflows.set(path, known);
  }
  return known;
}

/** The workflow files in a commit's tree, in path order. */
export function workflowsAt(world: World, repo: Repo, commitSha: string | undefined): WorkflowFile[] {
  if (!commitSha || !repo.git.has(commitSha, 'commit')) return [];
  const tree = repo.git.commit(commitSha).tree;
  const dir = repo.git.lookup(tree, WORKFLOWS_DIR);
  if (dir?.mode !== '40000') return [];
  const out: WorkflowFile[] = [];
  for (const entry of repo.git.tree(dir.sha)) {
    if (entry.mode === '40000' || !/\.ya?ml$/.test(entry.name)) continue;
    const path = `${WORKFLOWS_DIR}/${entry.name}`;
    const blob = repo.git.get(entry.sha);
    const text = blob?.type === 'blob' ? blob.body.toString('utf8') : '';
    out.push({ ...identity(world, repo, path), path, ...parseWorkflow(text, path) });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The default branch's workflows (what `GET …/actions/workflows` lists). */
export function repoWorkflows(world: World, repo: Repo): WorkflowFile[] {
  return workflowsAt(world, repo, repo.refs.get(`refs/heads/${repo.default_branch}`));
}

/** A workflow by numeric ID or file name (`writ.yml`), as `{workflow_id}` takes either; undefined if none. */
export function findWorkflow(world: World, repo: Repo, idOrFile: string): WorkflowFile | undefined {
  const all = repoWorkflows(world, repo);
  if (/^\d+$/.test(idOrFile)) return all.find((workflow) => workflow.id === Number(idOrFile));
  return all.find(
    (workflow) => workflow.path === `${WORKFLOWS_DIR}/${idOrFile}` || workflow.path === idOrFile,
  );
}

export interface RunNameContext {
  inputs: Record<string, string>;
  actor: string;
  triggeringActor: string;
  ref: string;
  refName: string;
  sha: string;
  eventName: string;
  repository: string;
}

/** `run-name` rendered (see the module comment); the workflow's name when there is no run-name. */
export function renderRunName(
  workflow: Pick<WorkflowFile, 'name' | 'runName'>,
  context: RunNameContext,
): string {
  if (workflow.runName === null) return workflow.name;
  const github: Record<string, string> = {
    actor: context.actor,
    triggering_actor: context.triggeringActor,
    ref: context.ref,
    ref_name: context.refName,
    sha: context.sha,
    event_name: context.eventName,
    repository: context.repository,
  };
  return workflow.runName.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (whole, expression: string) => {
    const input = /^(?:inputs|github\.event\.inputs)\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(expression);
    if (input?.[1] !== undefined) return context.inputs[input[1]] ?? '';
    const field = /^github\.([a-z_]+)$/.exec(expression);
    if (field?.[1] !== undefined && Object.hasOwn(github, field[1])) return github[field[1]] ?? '';
    return whole;
  });
}
