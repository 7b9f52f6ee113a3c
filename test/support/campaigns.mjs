// The sizes of the test suite's campaigns, in one place, each with the environment variable that
// overrides it (a positive integer; anything else fails the run rather than running no trials). Jest's
// global setup prints them once per run (print-campaigns.mjs); the suites read them from here.
// The recovery campaigns run a seeded sample here; the full campaigns run nightly
// (.github/workflows/campaigns.yml) and are scripts of their own: `npm run race:recovery` (every kill
// point), `npm run race:recovery -- --sweepers` and `npm run race:ledger -w @writ/cli`.

/** name → [environment variable, default, what one unit of it is, the suite that runs it] */
export const CAMPAIGN_DEFAULTS = {
  recoverySweeperTrials: [
    'WRIT_RECOVERY_SWEEPER_TRIALS',
    10,
    'seeded trials of 4 concurrent recovery sweepers',
    'test/e2e/recovery-race.test.ts',
  ],
  recoveryKillPoints: [
    'WRIT_RECOVERY_KILL_POINTS',
    16,
    'kill points over preview, consume-approval and publish-artifact',
    'test/e2e/recovery-race.test.ts',
  ],
  recoveryPersistKillPoints: [
    'WRIT_RECOVERY_PERSIST_KILL_POINTS',
    12,
    'kill points in persist',
    'test/e2e/recovery-race.test.ts',
  ],
  ledgerRaceTrials: [
    'WRIT_RACE_TRIALS',
    25,
    'trials of 8 processes consuming one approval',
    'packages/core/test/ledger/race/race.test.ts',
  ],
  refusalFuzzRuns: [
    'WRIT_FUZZ_RUNS',
    40,
    'hostile cases per stage',
    'packages/core/test/stages/refusals-fuzz.test.ts',
  ],
  ledgerModelRuns: [
    'WRIT_MODEL_RUNS',
    2000,
    'command sequences of the ledger against its model',
    'packages/core/test/ledger/model.test.ts',
  ],
  grammarMutants: [
    'WRIT_GRAMMAR_MUTANTS',
    10000,
    'mutated approval commands',
    'packages/core/test/command/grammar.test.ts',
  ],
};

/** One campaign's size: its environment variable when set, else its default. */
export function sizeOf(name, env = process.env) {
  const [variable, fallback] = CAMPAIGN_DEFAULTS[name];
  const raw = env[variable];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[1-9][0-9]*$/.test(raw)) {
    throw new Error(`${variable} must be a positive integer (campaign size), not ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** Every campaign's size, as this run's environment sets them. */
export function campaignSizes(env = process.env) {
  return Object.fromEntries(Object.keys(CAMPAIGN_DEFAULTS).map((name) => [name, sizeOf(name, env)]));
}

/** The one line jest's global setup prints: each size, its variable, and whether it was overridden. */
export function describeCampaigns(env = process.env) {
  const parts = Object.entries(CAMPAIGN_DEFAULTS).map(([name, [variable, fallback]]) => {
    const size = sizeOf(name, env);
    return `${name} ${size}${size === fallback ? '' : ' (set)'} [${variable}]`;
  });
  return `campaign sizes (test/support/campaigns.mjs): ${parts.join(', ')}; persist matrix: every cell`;
}

export const CAMPAIGNS = campaignSizes();
