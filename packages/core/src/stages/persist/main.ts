import { runnerLogger } from '../../io/action-io.js';
import type { PersistDeps } from '../../persist/persist.js';
import { connect } from '../connect.js';
import { runStage } from '../runner.js';
import { readPersistSettings } from './inputs.js';
import { persist } from './stage.js';

/**
 * Test hooks, not an interface: `WRIT_TEST_KILL_AFTER_WRITE=<step id>` ends this process with SIGKILL
 * after that step's write was sent and before its checkpoint, and `WRIT_TEST_KILL_AFTER_CLAIM=<step id>`
 * after the ledger commit that claimed that step and before anything of it is read or written, as a
 * crashed runner would (the demo and the end-to-end tests set them). Environment variables only, so no
 * action input can reach them; unset or empty, they do nothing.
 */
export const KILL_AFTER_WRITE_ENV = 'WRIT_TEST_KILL_AFTER_WRITE';
export const KILL_AFTER_CLAIM_ENV = 'WRIT_TEST_KILL_AFTER_CLAIM';

function killAt(name: string): ((stepIds: readonly string[]) => void) | undefined {
  const target = process.env[name] ?? '';
  if (target === '') return undefined;
  return (stepIds) => {
    if (stepIds.includes(target)) process.kill(process.pid, 'SIGKILL');
  };
}

/** The hooks the environment sets, as persist's dependencies (none when neither is set). */
export function testHooks(): Pick<PersistDeps, 'afterWrite' | 'afterClaim'> {
  const afterWrite = killAt(KILL_AFTER_WRITE_ENV);
  const afterClaim = killAt(KILL_AFTER_CLAIM_ENV);
  return {
    ...(afterWrite === undefined ? {} : { afterWrite: (stepId: string) => afterWrite([stepId]) }),
    ...(afterClaim === undefined ? {} : { afterClaim }),
  };
}

/** The persist action: an approved plan's writes, behind the gate, once, in order, resumable. */
export async function run(): Promise<void> {
  await runStage('persist', {
    inputs: readPersistSettings,
    connect: (settings) =>
      connect(
        { apiUrl: settings.apiUrl, repository: settings.repository.full },
        settings.ledger,
        runnerLogger,
      ),
    stage: (settings, deps) => persist(settings, { ...deps, ...testHooks() }),
    // A closed gate or a stopped run is its own outcome, not a generic refusal.
    refusalOutputs(error) {
      const outcome = error.details.outcome;
      return outcome === 'gate-closed' || outcome === 'stopped' ? { outcome } : {};
    },
  });
}
