/**
 * The persist action's entry (dist/persist): its inputs, its connection and its stage, run through the
 * stage runner. Nothing here reads a crash point: tests inject crashes through persist's dependencies
 * (afterWrite, afterClaim) in process, or kill the bundle's process from the emulator.
 */
import { runnerLogger } from '../../io/action-io.js';
import { connect } from '../connect.js';
import { runStage } from '../runner.js';
import { readPersistSettings } from './inputs.js';
import { persist } from './stage.js';

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
    stage: persist,
    // A closed gate or a stopped run is its own outcome, not a generic refusal.
    refusalOutputs(error) {
      const outcome = error.details.outcome;
      return outcome === 'gate-closed' || outcome === 'stopped' ? { outcome } : {};
    },
  });
}
