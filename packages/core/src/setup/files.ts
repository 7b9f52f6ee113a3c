/**
 * The `.writ/` files: their types, defaults, validation against `schemas/writ/*.schema.json`
 * (precompiled), and their rendering. Settings files a maintainer edits (config, policy, allow-list) are
 * rendered from their own current values when those are valid, so an edit in init's layout is never a
 * conflict on a re-run.
 */
import type { ValidateFunction } from 'ajv';
import validateConfig from '../generated/writ-config-validator.js';
import validateManifest from '../generated/writ-manifest-validator.js';
import validatePolicy from '../generated/writ-policy-validator.js';
import validateAllowlist from '../generated/writ-probe-allowlist-validator.js';
import { DEFAULT_LEDGER_BRANCH } from '../ledger/types.js';
import { parseChecked } from '../schema-check.js';
import { PENDING_STAGES } from './templates.js';
import type { WritPolicy } from './policy.js';
import { POLICY_KINDS, POLICY_PATH } from './policy.js';
import type { WritConfig, WritPin } from './types.js';

export type { WritPolicy } from './policy.js';
export { POLICY_KINDS, POLICY_PATH, defaultPolicy, sha256 } from './policy.js';

export interface ProbeAllowlist {
  schema: 1;
  repositories: string[];
}

export interface InitManifest {
  schema: 1;
  writ: WritPin;
  files: Record<string, string>;
}

export const WORKFLOWS_DIR = '.github/workflows';
export const CONFIG_PATH = '.writ/config.json';
export const ALLOWLIST_PATH = '.writ/probe-allowlist.json';
export const README_PATH = '.writ/README.md';
export const MANIFEST_PATH = '.writ/manifest.json';

export function defaultConfig(): WritConfig {
  return {
    schema: 1,
    app: { slug: null, id: null },
    ledger_branch: DEFAULT_LEDGER_BRANCH,
    command_prefix: 'writ',
    allowed_roles: ['admin', 'maintain', 'write'],
  };
}

export const WRIT_FILE_VALIDATORS: Record<string, ValidateFunction> = {
  [CONFIG_PATH]: validateConfig,
  [POLICY_PATH]: validatePolicy,
  [ALLOWLIST_PATH]: validateAllowlist,
  [MANIFEST_PATH]: validateManifest,
};

/** Parses and validates a `.writ/` JSON file: the value, or the problems (never both). */
export function checkWritFile(path: string, text: string): { value: unknown; problems: string[] } {
  const validate = WRIT_FILE_VALIDATORS[path];
  if (validate === undefined) throw new Error(`no schema for ${path}`);
  return parseChecked(validate, text);
}

/** JSON in init's layout: two-space indent, members in schema order, a final newline. */
function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function renderConfig(config: WritConfig): string {
  return json({
    schema: 1,
    app: { slug: config.app.slug, id: config.app.id },
    ledger_branch: config.ledger_branch,
    command_prefix: config.command_prefix,
    allowed_roles: config.allowed_roles,
    ...(config.environment === undefined ? {} : { environment: config.environment }),
    ...(config.pages === undefined ? {} : { pages: config.pages }),
    ...(config.project === undefined
      ? {}
      : { project: { owner: config.project.owner, number: config.project.number } }),
  });
}

export function renderPolicy(policy: WritPolicy): string {
  return json({
    schema: 1,
    kinds: Object.fromEntries(POLICY_KINDS.map((kind) => [kind, policy.kinds[kind]])),
  });
}

export function renderAllowlist(allowlist: ProbeAllowlist): string {
  return json({ schema: 1, repositories: allowlist.repositories });
}

export function renderManifest(manifest: InitManifest): string {
  const files = Object.fromEntries(Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : 1)));
  return json({ schema: 1, writ: manifest.writ, files });
}

export function renderWritReadme(pin: WritPin, config: WritConfig): string {
  return `${[
    '# `.writ/` — Writ configuration',
    '',
    `Rendered by \`writ init --github\` (Writ ${pin.version}, \`${pin.repository}@${pin.ref}\`). Re-run it to`,
    're-pin (`--ref <40-hex>`) or to pick up new templates: a file that still matches',
    '`manifest.json` is updated, a file you changed is never overwritten (it is reported as a conflict;',
    '`--write-conflicts` writes the new render beside it as `<file>.writ-new`).',
    '',
    '| file | what it is |',
    '|---|---|',
    '| `config.json` | the Writ app (slug, ID: fill them in once the app exists, for `writ doctor` and `writ bootstrap`), the ledger branch, the approve command prefix, the roles that may approve. Edit the values, keep the layout. |',
    '| `policy.json` | per step kind, `require-proof` (writes open only with fresh positive probe evidence) or `best-effort` |',
    '| `probe-allowlist.json` | sandbox repositories the probe may write to (empty: the probe refuses every repository) |',
    '| `manifest.json` | what init last wrote: the pinned Writ commit and the sha256 of every file. Do not edit. |',
    '',
    'Workflows under `.github/workflows/`:',
    '',
    '| file | does |',
    '|---|---|',
    '| `writ-preview.yml` | on dispatch or the `writ:preview` label: validate the plan, preview it, propose the run, keep one status comment |',
    `| \`writ-approval.yml\` | on an issue comment \`${config.command_prefix}: approve <run_id> <sha256>\`: consume the approval, persist the plan's writes (when the variable \`WRIT_PERSISTENCE_ENABLED\` is true), publish the artifact through one bot PR, release the lease |`,
    '| `writ-probe.yml` | by hand: the stale-write contract probe on a sandbox listed in `probe-allowlist.json` (secret `WRIT_PROBE_SANDBOX_TOKEN`, never the app token); commit its evidence as `probe-evidence.json` through a pull request |',
    '',
    'Waiting for a stage that is not released yet (re-run `writ init --github` when it is):',
    '',
    ...PENDING_STAGES.map((entry) => `- \`${entry.stage}\`: ${entry.what}`),
    '',
    'The workflows read the app from the repository variables `WRIT_APP_ID` and `WRIT_APP_SLUG` and its',
    'private key from the secret `WRIT_APP_PRIVATE_KEY`; no value is written into a file. Check the',
    'setup with `writ doctor --github`.',
  ].join('\n')}\n`;
}
