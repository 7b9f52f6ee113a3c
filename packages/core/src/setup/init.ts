/**
 * `writ init --github` as a pure function: given the pin, the current state of every target path and the
 * last manifest, decide each file operation. The CLI gathers the state (git, filesystem) and applies the
 * operations. Rule: a file that is missing is created; one whose bytes equal the new render is left alone;
 * one that still matches the manifest (init wrote it and nobody changed it) is updated; anything else —
 * a file the user edited, or an unknown file at a target path — is a conflict, never overwritten.
 */
import { WritError } from '../errors.js';
import {
  ALLOWLIST_PATH,
  CONFIG_PATH,
  MANIFEST_PATH,
  POLICY_PATH,
  README_PATH,
  WORKFLOWS_DIR,
  checkWritFile,
  defaultConfig,
  defaultPolicy,
  renderAllowlist,
  renderConfig,
  renderManifest,
  renderPolicy,
  renderWritReadme,
  sha256,
} from './files.js';
import type { InitManifest, ProbeAllowlist, WritPolicy } from './files.js';
import { parseProjectInput } from '../projects/target.js';
import { ENVIRONMENT_NAME } from './environment-name.js';
import { renderIssueForm } from './issue-form.js';
import { renderWorkflows } from './templates.js';
import type { RenderSettings, RenderedFile, WritConfig, WritPin } from './types.js';

export type PathState =
  | { kind: 'missing' }
  | { kind: 'file'; text: string }
  /** A directory, a symlink or anything else that is not a regular file: refused. */
  | { kind: 'other'; what: string };

export type FileAction = 'create' | 'update' | 'unchanged' | 'conflict';

export interface FileOperation {
  path: string;
  action: FileAction;
  contents: string;
  sha256: string;
  reason?: string;
  written_beside?: string;
}

export interface InitRequest {
  /**
   * From the flags; each falls back to the manifest, then to the default. `ref` is a 40-hex commit or a
   * release tag `vX.Y.Z`, which `resolveTag` resolves to its commit (the tag becomes the version comment).
   */
  ref?: string;
  writRepository?: string;
  appSlug?: string;
  appId?: number;
  defaultWritRepository: string;
  /**
   * The version comment for the pinned commit, from the Writ clone: the `vX.Y.Z` tag that points at it,
   * else its short SHA. Throws (init-ref-unknown) when the clone does not have the commit.
   */
  versionOf(ref: string): string;
  /**
   * The commit a release tag points at in the Writ clone (an annotated tag peeled to its commit). Throws
   * (init-tag-unknown) when the clone has no such tag.
   */
  resolveTag(tag: string): string;
  /** `--environment`: the GitHub Environment of the jobs that write; else the config's; else none. */
  environment?: string;
  /** `--pages`: record `pages: true` (the Pages control tower); absent: the config's choice stands. */
  pages?: boolean;
  /** `--project OWNER/NUMBER`: the Projects (v2) project runs are shown on; else the config's; else none. */
  project?: string;
  /** The repository's default branch as detected (null: unknown); the ledger branch must differ from it. */
  defaultBranch?: string | null;
  writeConflicts: boolean;
  /** The state of a path relative to the repository root. */
  stateOf(path: string): PathState;
}

export interface InitPlan {
  pin: WritPin;
  config: WritConfig;
  operations: FileOperation[];
}

const REF = /^[0-9a-f]{40}$/;
/** A release tag `--ref` accepts in place of a commit: resolved in the Writ clone, pinned by its commit. */
const RELEASE_TAG = /^v[0-9]{1,9}\.[0-9]{1,9}\.[0-9]{1,9}$/;
/** A release tag (`v0.2.0`) or, for a commit no release tag points at, its short SHA. */
const VERSION = /^(?:v[0-9]+\.[0-9]+\.[0-9]+|[0-9a-f]{7,40})$/;
const WRIT_REPOSITORY = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/;

export function validateRef(ref: string): string {
  if (REF.test(ref)) return ref;
  const why = /^[0-9a-fA-F]{40}$/.test(ref)
    ? 'write the commit in lowercase hex'
    : 'a branch name can be moved to other code after you reviewed it; pin the commit you reviewed, or give its release tag vX.Y.Z, which init resolves to its commit in the Writ clone';
  throw new WritError(
    'invalid-input',
    `Invalid --ref ${JSON.stringify(ref.slice(0, 80))}. Expected a full 40-hex commit SHA or a release tag vX.Y.Z: ${why}.`,
  );
}

function readManifest(state: PathState): InitManifest | null {
  if (state.kind === 'missing') return null;
  if (state.kind === 'other') {
    throw new WritError(
      'init-refused',
      `${MANIFEST_PATH} is a ${state.what}, not a file; nothing was written.`,
    );
  }
  const { value, problems } = checkWritFile(MANIFEST_PATH, state.text);
  if (value === undefined) {
    throw new WritError(
      'init-refused',
      `${MANIFEST_PATH} is not a valid init manifest (${problems.slice(0, 3).join('; ')}); restore it from Git, or delete it to treat every existing file as unknown. Nothing was written.`,
    );
  }
  return value as InitManifest;
}

/** A settings file's current value when it is a valid file, else null (the default is rendered). */
function currentValue(path: string, state: PathState): unknown {
  if (state.kind !== 'file') return null;
  return checkWritFile(path, state.text).value ?? null;
}

/** Whether the clone's tag `tag` still points at `ref` (a tag gone from the clone does not). */
function tagNames(request: InitRequest, tag: string, ref: string): boolean {
  try {
    return request.resolveTag(tag) === ref;
  } catch (error: unknown) {
    if (error instanceof WritError && error.code === 'init-tag-unknown') return false;
    throw error;
  }
}

/** The pinned commit and its version comment: a release tag resolves to its commit and is the comment. */
function resolveRef(request: InitRequest, manifest: InitManifest | null): { ref: string; version: string } {
  if (request.ref !== undefined && RELEASE_TAG.test(request.ref)) {
    const ref = request.resolveTag(request.ref);
    if (!REF.test(ref)) {
      throw new WritError(
        'internal-error',
        `The tag ${request.ref} resolved to ${JSON.stringify(ref.slice(0, 80))}.`,
      );
    }
    return { ref, version: request.ref };
  }
  const ref = request.ref !== undefined ? validateRef(request.ref) : manifest?.writ.ref;
  if (ref === undefined) {
    throw new WritError(
      'invalid-input',
      'writ init needs --ref <40-hex commit or release tag vX.Y.Z> on its first run: the Writ commit you reviewed, which every Writ action is pinned to.',
    );
  }
  // A re-run keeps the release tag the manifest pins, while it still names this commit in the clone.
  const kept =
    manifest?.writ.ref === ref && RELEASE_TAG.test(manifest.writ.version) ? manifest.writ.version : null;
  return { ref, version: kept !== null && tagNames(request, kept, ref) ? kept : request.versionOf(ref) };
}

function resolvePin(request: InitRequest, manifest: InitManifest | null): WritPin {
  const { ref, version } = resolveRef(request, manifest);
  if (!VERSION.test(version)) {
    throw new WritError(
      'internal-error',
      `The version comment for ${ref} is ${JSON.stringify(version.slice(0, 40))}, not vX.Y.Z or a short SHA.`,
    );
  }
  const repository = request.writRepository ?? manifest?.writ.repository ?? request.defaultWritRepository;
  if (!WRIT_REPOSITORY.test(repository)) {
    throw new WritError(
      'invalid-input',
      `Invalid --writ-repo ${JSON.stringify(repository.slice(0, 140))}. Expected owner/name of Writ's repository.`,
    );
  }
  return { repository, ref, version };
}

/** What the templates render from: the pin, the config and, when one is named, the Environment. */
function renderSettings(pin: WritPin, config: WritConfig): RenderSettings {
  return { pin, config, ...(config.environment === undefined ? {} : { environment: config.environment }) };
}

/** `--project` (parsed by the one rule, projects/target.ts; empty removes it), else the config's. */
function projectOf(request: InitRequest, base: WritConfig): WritConfig['project'] {
  if (request.project === undefined) return base.project;
  const named = parseProjectInput(request.project);
  return named === null ? undefined : { owner: named.owner, number: named.number };
}

export function planInit(request: InitRequest): InitPlan {
  const manifest = readManifest(request.stateOf(MANIFEST_PATH));
  const pin = resolvePin(request, manifest);
  const base =
    (currentValue(CONFIG_PATH, request.stateOf(CONFIG_PATH)) as WritConfig | null) ?? defaultConfig();
  const environment = request.environment ?? base.environment;
  if (environment !== undefined && !ENVIRONMENT_NAME.test(environment)) {
    throw new WritError(
      'invalid-input',
      `Invalid --environment ${JSON.stringify(environment.slice(0, 80))}. Expected a GitHub Environment name of letters, digits, ".", "_" and "-" (at most 255).`,
    );
  }
  const project = projectOf(request, base);
  const kept: WritConfig = { ...base };
  delete kept.project;
  const config: WritConfig = {
    ...kept,
    app: {
      slug: request.appSlug ?? base.app.slug,
      id: request.appId ?? base.app.id,
    },
    ...(environment === undefined ? {} : { environment }),
    ...(request.pages === true ? { pages: true } : {}),
    ...(project === undefined ? {} : { project }),
  };
  if (request.defaultBranch != null && config.ledger_branch === request.defaultBranch) {
    throw new WritError(
      'init-ledger-branch-is-default',
      `The ledger branch ${config.ledger_branch} in ${CONFIG_PATH} is the repository's default branch: the ledger needs a branch of its own (the default bot/writ-ledger), append-only under its rulesets. Nothing was written.`,
    );
  }
  const policy =
    (currentValue(POLICY_PATH, request.stateOf(POLICY_PATH)) as WritPolicy | null) ?? defaultPolicy();
  const allowlist = (currentValue(
    ALLOWLIST_PATH,
    request.stateOf(ALLOWLIST_PATH),
  ) as ProbeAllowlist | null) ?? {
    schema: 1,
    repositories: [],
  };
  const rendered: RenderedFile[] = [
    { path: CONFIG_PATH, contents: renderConfig(config) },
    { path: POLICY_PATH, contents: renderPolicy(policy) },
    { path: ALLOWLIST_PATH, contents: renderAllowlist(allowlist) },
    { path: README_PATH, contents: renderWritReadme(pin, config) },
    ...renderWorkflows(renderSettings(pin, config)).map((file) => ({
      path: `${WORKFLOWS_DIR}/${file.path}`,
      contents: file.contents,
    })),
    renderIssueForm(),
  ];
  const known = manifest?.files ?? {};
  const refused = rendered
    .map((file) => ({ path: file.path, state: request.stateOf(file.path) }))
    .filter((entry) => entry.state.kind === 'other');
  if (refused.length > 0) {
    throw new WritError(
      'init-refused',
      `${refused.map((entry) => `${entry.path} is a ${(entry.state as { what: string }).what}`).join('; ')}: init writes only regular files. Nothing was written.`,
    );
  }
  const operations: FileOperation[] = [];
  const files: Record<string, string> = {};
  for (const file of rendered) {
    const state = request.stateOf(file.path);
    const hash = sha256(file.contents);
    const base = { path: file.path, contents: file.contents, sha256: hash };
    if (state.kind === 'missing') {
      operations.push({ ...base, action: 'create' });
      files[file.path] = hash;
    } else if (state.kind === 'file' && state.text === file.contents) {
      operations.push({ ...base, action: 'unchanged' });
      files[file.path] = hash;
    } else if (state.kind === 'file' && known[file.path] === sha256(state.text)) {
      operations.push({ ...base, action: 'update' });
      files[file.path] = hash;
    } else {
      const previous = known[file.path];
      if (previous !== undefined) files[file.path] = previous;
      operations.push({
        ...base,
        action: 'conflict',
        reason:
          previous === undefined
            ? 'a file writ init did not write is at this path'
            : 'changed since writ init wrote it',
        ...(request.writeConflicts ? { written_beside: `${file.path}.writ-new` } : {}),
      });
    }
  }
  const manifestText = renderManifest({ schema: 1, writ: pin, files });
  const manifestState = request.stateOf(MANIFEST_PATH);
  operations.push({
    path: MANIFEST_PATH,
    contents: manifestText,
    sha256: sha256(manifestText),
    action:
      manifestState.kind === 'missing'
        ? 'create'
        : manifestState.kind === 'file' && manifestState.text === manifestText
          ? 'unchanged'
          : 'update',
  });
  return { pin, config, operations };
}
