/**
 * What an in-process stage test runs against: the ledger world (real emulator, real ledger, rulesets,
 * bootstrapped root) with the ledger app allowed what the stages need (issues, pull requests), a
 * status issue, a workspace holding plan files, and the stage dependencies built by the stages' own
 * `connect` (the real client factory with its plugins, the real ledger context).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GitHubClient } from '../../../src/github/client.js';
import type { Logger } from '../../../src/redact.js';
import type { StageDeps } from '../../../src/stages/connect.js';
import { connect } from '../../../src/stages/connect.js';
import type { LedgerSettings } from '../../../src/stages/ledger-inputs.js';
import type { LedgerWorld } from '../../ledger/support/emulator.js';
import {
  APPROVER_TOKEN,
  BRANCH,
  LEDGER_TOKEN,
  OWNER,
  OWNER_TOKEN,
  REPO,
  REPOSITORY,
  emulatorClient,
  ledgerWorld,
} from '../../ledger/support/emulator.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** A logger that keeps every line, for asserting what a stage reported. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`info: ${message}`),
    warning: (message) => lines.push(`warning: ${message}`),
    debug: (message) => lines.push(`debug: ${message}`),
  };
}

export interface StageWorld {
  ledgerWorld: LedgerWorld;
  workspace: string;
  statusIssue: number;
  ledger: LedgerSettings;
  /** The owner's and the approver's clients (PATs), for acting as humans. */
  owner: GitHubClient;
  approver: GitHubClient;
  /** The dependencies a writing stage's `connect` builds, as its `main` builds them. */
  deps(logger?: Logger): StageDeps;
  /** Writes examples/release-plan.json (a changed title: another digest and run ID) into the workspace. */
  planFile(name: string, title?: string): string;
  /** Posts `body` as the approver (a maintainer) on the status issue; returns the comment ID. */
  comment(body: string): Promise<number>;
  /** The emulator's requests after `seq` that could write (not a GET, not a GraphQL query). */
  writesSince(seq: number): string[];
  lastSeq(): number;
  close(): Promise<void>;
}

export async function stageWorld(options: { seed?: number } = {}): Promise<StageWorld> {
  const world = await ledgerWorld({
    seed: options.seed ?? 1,
    appPermissions: { contents: 'write', administration: 'write', issues: 'write', pull_requests: 'write' },
  });
  const owner = emulatorClient(world.emulator, OWNER_TOKEN);
  const approver = emulatorClient(world.emulator, APPROVER_TOKEN);
  const { data: issue } = await owner.rest.issues.create({ owner: OWNER, repo: REPO, title: 'Releases' });
  const workspace = mkdtempSync(join(tmpdir(), 'writ-stage-'));
  const ledger: LedgerSettings = { token: LEDGER_TOKEN, branch: BRANCH, app: world.app, leaseMs: 600_000 };
  const requests = () => world.emulator.admin.requests();
  return {
    ledgerWorld: world,
    workspace,
    statusIssue: issue.number,
    ledger,
    owner,
    approver,
    deps: (logger = recordingLogger()) =>
      connect({ apiUrl: world.emulator.url, repository: REPOSITORY }, ledger, logger),
    planFile(name, title) {
      const plan = JSON.parse(readFileSync(join(ROOT, 'examples/release-plan.json'), 'utf8')) as {
        title: string;
      };
      if (title !== undefined) plan.title = title;
      const path = join(workspace, `${name}.json`);
      writeFileSync(path, JSON.stringify(plan));
      return path;
    },
    async comment(body) {
      const { data } = await approver.rest.issues.createComment({
        owner: OWNER,
        repo: REPO,
        issue_number: issue.number,
        body,
      });
      return data.id;
    },
    lastSeq: () => requests().at(-1)?.seq ?? 0,
    writesSince: (seq) =>
      requests()
        .filter(
          (r) => r.seq > seq && r.method !== 'GET' && !(r.path === '/graphql' && r.mutations.length === 0),
        )
        .map((r) => `${r.method} ${r.path} ${r.mutations.join(',')}`.trim()),
    close: () => world.close(),
  };
}
