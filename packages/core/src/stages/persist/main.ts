import { runnerLogger } from '../../io/action-io.js';
import { connect } from '../connect.js';
import { runStage } from '../runner.js';
import { readPersistSettings } from './inputs.js';
import { persist } from './stage.js';

/**
 * Test hook, not an interface: `WRIT_TEST_KILL_AFTER_WRITE=<step id>` ends this process with SIGKILL
 * after that step's write was sent and before its checkpoint, as a crashed runner would (the demo and
 * the end-to-end tests set it). An environment variable only, so no action input can reach it.
 */
export const KILL_AFTER_WRITE_ENV = 'WRIT_TEST_KILL_AFTER_WRITE';

function killAfterWrite(): ((stepId: string) => void) | undefined {
  const target = process.env[KILL_AFTER_WRITE_ENV] ?? '';
  if (target === '') return undefined;
  return (stepId) => {
    if (stepId === target) process.kill(process.pid, 'SIGKILL');
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
    stage: (settings, deps) => {
      const afterWrite = killAfterWrite();
      return persist(settings, afterWrite === undefined ? deps : { ...deps, afterWrite });
    },
    // A closed gate or a stopped run is its own outcome, not a generic refusal.
    refusalOutputs(error) {
      const outcome = error.details.outcome;
      return outcome === 'gate-closed' || outcome === 'stopped' ? { outcome } : {};
    },
  });
}
