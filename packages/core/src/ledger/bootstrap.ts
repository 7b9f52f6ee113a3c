/**
 * Operator provisioning and inspection: `bootstrap` (the parentless, app-authored, verified root commit
 * holding ledger-root.json, made through the Git data API), `verifyLedger` (the provenance check, full
 * on demand) and `showLedger` (runs, states, lease, head).
 */
import { randomUUID } from 'node:crypto';
import { WritError } from '../errors.js';
import type { LedgerContext } from './cas.js';
import { countingStore, parseSnapshot, readCheckpoint } from './cas.js';
import { formatMessage, fullMessage } from './message.js';
import { LEASE_PATH, LEDGER_ROOT_PATH, PROVENANCE_PATH } from './paths.js';
import type { ProvenanceMode, ProvenanceReport } from './provenance.js';
import { verifyProvenance } from './provenance.js';
import type { RulesetDefinition } from './rulesets.js';
import { checkRulesets, ledgerRulesets } from './rulesets.js';
import { LEDGER_ROOT_FILE, RUN_FILE, parseLedgerFile, serializeLedgerFile } from './schemas.js';
import type { FileAddition } from './store.js';
import type { Lease, LedgerApp, LedgerRoot, RunFile } from './types.js';

/** One precondition bootstrap reads before its first write (and a dry run reports). */
export interface BootstrapCheck {
  check: 'branch-absent' | 'app-identity' | 'rulesets';
  status: 'PASS' | 'FAIL' | 'UNKNOWN';
  detail: string;
}

export interface BootstrapResult {
  dry_run: boolean;
  create_root: boolean;
  repository: string;
  branch: string;
  files: FileAddition[];
  /** The preconditions, all checked before the first write; --apply refuses on any that is not PASS. */
  checks: BootstrapCheck[];
  /** The two rulesets the branch needs (rulesets.ts), when the app ID is known. */
  rulesets: RulesetDefinition[] | null;
  /** After --apply: the root commit and the provenance check that re-ran on it. */
  root_oid?: string;
  provenance?: ProvenanceReport;
}

function requireApp(context: LedgerContext): NonNullable<LedgerContext['app']> {
  if (context.app === null) {
    throw new WritError(
      'invalid-input',
      'The ledger app identity is required: --app-slug and --app-id (or WRIT_APP_SLUG and WRIT_APP_ID).',
    );
  }
  return context.app;
}

export async function bootstrapLedger(
  context: LedgerContext,
  options: { apply: boolean },
): Promise<BootstrapResult> {
  const { store } = context;
  const { owner, repo, branch } = store.location;
  const repository = `${owner}/${repo}`;
  const root: LedgerRoot = { schema: 1, repository, branch };
  const existing = await store.read({ paths: [], historyFirst: 0 });
  if (existing !== null) {
    throw new WritError(
      'ledger-branch-exists',
      `Branch ${branch} already exists in ${repository}; it is never re-bootstrapped.`,
    );
  }
  // Every precondition that can be read is read before the first write, so a refused bootstrap leaves
  // nothing behind (a root on an unprotected branch could be neither re-bootstrapped nor deleted).
  const { checks, bypassUnreadable } = await readPreconditions(context, root);
  const app = context.app;
  const files = [
    { path: LEDGER_ROOT_PATH, contents: serializeLedgerFile(LEDGER_ROOT_FILE, LEDGER_ROOT_PATH, root) },
  ];
  const result: BootstrapResult = {
    dry_run: !options.apply,
    create_root: true,
    repository,
    branch,
    files,
    checks,
    rulesets: app === null ? null : ledgerRulesets(branch, app.id),
  };
  if (!options.apply) return result;
  const ready = requireApp(context);
  refuseUnlessReady(checks, bypassUnreadable);
  const created = await createRoot(context, files);
  result.root_oid = created;
  result.provenance = await proveRoot(context, ready, created);
  return result;
}

/**
 * The preconditions bootstrap reads before its first write (the branch is already known absent): the
 * app identity, and the two rulesets on the branch, whose pins it records in `root`. A token that cannot
 * see who may bypass them leaves the check UNKNOWN and its error in `bypassUnreadable`.
 */
async function readPreconditions(
  context: LedgerContext,
  root: LedgerRoot,
): Promise<{ checks: BootstrapCheck[]; bypassUnreadable: WritError | null }> {
  const { branch } = context.store.location;
  const checks: BootstrapCheck[] = [
    { check: 'branch-absent', status: 'PASS', detail: `${branch} does not exist yet` },
  ];
  const app = context.app;
  if (app === null) {
    checks.push({
      check: 'app-identity',
      status: 'UNKNOWN',
      detail: 'no --app-slug/--app-id (WRIT_APP_SLUG/WRIT_APP_ID) given',
    });
    checks.push({ check: 'rulesets', status: 'UNKNOWN', detail: 'the ruleset check needs the app ID' });
    return { checks, bypassUnreadable: null };
  }
  checks.push({ check: 'app-identity', status: 'PASS', detail: `${app.slug}[bot], app ID ${app.id}` });
  try {
    const proven = await checkRulesets(context.store, app, null);
    // Pinned in the root: every later check holds the branch to exactly these rulesets, unchanged.
    root.rulesets = proven.pins;
    checks.push({
      check: 'rulesets',
      status: 'PASS',
      detail: `rulesets ${proven.rulesetIds.join(', ')} protect ${branch}`,
    });
  } catch (error: unknown) {
    if (!(error instanceof WritError)) throw error;
    if (error.code === 'ruleset-bypass-unreadable') {
      // The rulesets exist; this token cannot see who may bypass them. Not a FAIL of the rulesets.
      checks.push({ check: 'rulesets', status: 'UNKNOWN', detail: error.message });
      return { checks, bypassUnreadable: error };
    }
    if (error.code !== 'ledger-provenance-unproven') throw error;
    checks.push({ check: 'rulesets', status: 'FAIL', detail: error.message });
  }
  return { checks, bypassUnreadable: null };
}

/** Refuses `--apply` before anything is written unless every precondition passed (the app identity is known). */
function refuseUnlessReady(checks: readonly BootstrapCheck[], bypassUnreadable: WritError | null): void {
  if (bypassUnreadable !== null) {
    throw new WritError(
      'ruleset-bypass-unreadable',
      `Bootstrap refused before writing anything: ${bypassUnreadable.message}`,
      { cause: bypassUnreadable, details: { check: 'rulesets', ...bypassUnreadable.details } },
    );
  }
  const failed = checks.find((check) => check.status !== 'PASS');
  if (failed !== undefined) {
    throw new WritError(
      'ledger-provenance-unproven',
      `Bootstrap refused before writing anything: ${failed.detail.replace(/\.$/, '')}. Create the two rulesets (writ bootstrap --json prints them) and run it again.`,
      { details: { check: failed.check } },
    );
  }
}

/** Creates the parentless root commit holding `files` (ledger-root.json); returns its OID. */
async function createRoot(context: LedgerContext, files: FileAddition[]): Promise<string> {
  const message = fullMessage(
    formatMessage({
      transition: 'bootstrap',
      runId: null,
      repository: null,
      epoch: 0,
      transitionId: `${randomUUID()}.1`,
      commentId: null,
    }),
  );
  return (await context.store.createRoot(files, message)).oid;
}

/** Reads the new branch back and runs the full provenance check on it; a root that does not prove says how to re-provision. */
async function proveRoot(context: LedgerContext, app: LedgerApp, rootOid: string): Promise<ProvenanceReport> {
  const { store } = context;
  const { branch } = store.location;
  const snapshot = await store.read({ paths: [LEDGER_ROOT_PATH], historyFirst: 100 });
  if (snapshot === null)
    throw new WritError('ledger-branch-missing', `Branch ${branch} vanished after bootstrap.`);
  parseSnapshot(store, snapshot, null);
  try {
    return await verifyProvenance(store, app, snapshot.headOid, {
      mode: 'full',
      firstPage: snapshot.history,
    });
  } catch (error: unknown) {
    if (!(error instanceof WritError) || error.code !== 'ledger-provenance-unproven') throw error;
    throw new WritError(
      'ledger-provenance-unproven',
      `The root ${rootOid} was created but does not prove: ${error.message} To re-provision: fix the cause, disable the append-only ruleset, delete ${branch}, re-enable the ruleset, then bootstrap again (the rulesets must predate the new root).`,
      { cause: error, details: { root: rootOid } },
    );
  }
}

export interface VerifyResult {
  headOid: string;
  report: ProvenanceReport;
  /** API requests the whole verification took (the read included). */
  requests: number;
}

/** The provenance check on demand: `full` walks the whole history; `incremental` starts at the checkpoint. */
export async function verifyLedger(
  context: LedgerContext,
  options: { mode?: ProvenanceMode } = {},
): Promise<VerifyResult> {
  const app = requireApp(context);
  const { store, count } = countingStore(context.store);
  const snapshot = await store.read({ paths: [LEDGER_ROOT_PATH, PROVENANCE_PATH], historyFirst: 100 });
  if (snapshot === null) {
    throw new WritError(
      'ledger-branch-missing',
      `The ledger branch ${store.location.branch} does not exist.`,
    );
  }
  const mode = options.mode ?? 'full';
  const report = await verifyProvenance(store, app, snapshot.headOid, {
    mode,
    checkpoint: readCheckpoint(snapshot),
    firstPage: snapshot.history,
  });
  parseSnapshot(store, snapshot, null);
  return { headOid: snapshot.headOid, report, requests: count() };
}

export interface LedgerOverview {
  repository: string;
  branch: string;
  headOid: string;
  serverTime: string;
  lease: Lease;
  runs: RunFile[];
}

export async function showLedger(context: LedgerContext): Promise<LedgerOverview> {
  const { store } = context;
  const snapshot = await store.read({
    paths: [LEDGER_ROOT_PATH, LEASE_PATH],
    historyFirst: 0,
    listRuns: true,
  });
  if (snapshot === null) {
    throw new WritError(
      'ledger-branch-missing',
      `The ledger branch ${store.location.branch} does not exist.`,
    );
  }
  const parsed = parseSnapshot(store, snapshot, null);
  const runs: RunFile[] = [];
  for (const [path, text] of [...(snapshot.runFiles ?? new Map<string, string>())].sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    runs.push(parseLedgerFile(RUN_FILE, path, text));
  }
  return {
    repository: parsed.root.repository,
    branch: parsed.root.branch,
    headOid: snapshot.headOid,
    serverTime: new Date(snapshot.serverTime).toISOString(),
    lease: parsed.lease,
    runs,
  };
}
