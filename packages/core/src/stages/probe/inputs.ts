import { WritError } from '../../errors.js';
import type { StageIo } from '../../io/action-io.js';
import { parseRepository } from '../../ledger/paths.js';
import type { CaseId, PrimitiveId } from '../../probe/evidence.js';
import { validateEvidenceFile } from '../../probe/evidence-file.js';
import { validateAllowlistFile } from '../../probe/guard.js';
import { WRIT_VERSION, parseCaseSelection } from '../../probe/probe.js';
import { readRunnerContext } from '../context.js';

export interface ProbeStageSettings {
  apiUrl: string;
  /** The repository the workflow runs in. */
  current: string;
  sandbox: string;
  confirmSandbox: string;
  allowlistFile: string;
  evidenceFile: string;
  workspace: string;
  cases: CaseId[];
  primitives: PrimitiveId[];
  token: string;
  repositoryToken: string;
  dryRun: boolean;
  probeRun: string;
  writ: { version: string; commit: string | null };
}

export function readProbeSettings(io: StageIo<'probe'>): ProbeStageSettings {
  const context = readRunnerContext();
  const sandbox = io.input('repository');
  parseRepository(sandbox, "input 'repository'");
  const confirmSandbox = io.input('confirm-sandbox');
  const allowlistFile = validateAllowlistFile(io.input('allowlist-file'));
  const evidenceFile = validateEvidenceFile(io.input('evidence-file'));
  const { cases, primitives } = parseCaseSelection(io.input('cases'));
  const dryRun = io.booleanInput('dry-run');
  const token = io.input('token');
  const repositoryToken = io.input('repository-token');
  if (token === '')
    throw new WritError('invalid-input', "input 'token' (the sandbox-only token) is required");
  if (repositoryToken === '' || repositoryToken.startsWith('${{')) {
    throw new WritError(
      'invalid-input',
      "input 'repository-token' (the workflow's token, contents: read, to read the allow-list) is required",
    );
  }
  // The Writ commit the action runs from, when the runner says (uses: …/actions/probe@<sha>).
  const ref = process.env.GITHUB_ACTION_REF ?? '';
  return {
    apiUrl: context.apiUrl,
    current: context.repository.full,
    sandbox,
    confirmSandbox,
    allowlistFile,
    evidenceFile,
    workspace: context.workspace,
    cases,
    primitives,
    token,
    repositoryToken,
    dryRun,
    probeRun: `gh-${context.workflowRunId}-${context.attempt}`,
    writ: { version: WRIT_VERSION, commit: /^[0-9a-f]{40}$/.test(ref) ? ref : null },
  };
}
