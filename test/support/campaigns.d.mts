/** Types of test/support/campaigns.mjs for the suites that import it. */
export type CampaignName =
  | 'recoverySweeperTrials'
  | 'recoveryKillPoints'
  | 'recoveryPersistKillPoints'
  | 'ledgerRaceTrials'
  | 'refusalFuzzRuns'
  | 'ledgerModelRuns'
  | 'grammarMutants';
export const CAMPAIGN_DEFAULTS: Record<CampaignName, [string, number, string, string]>;
export function sizeOf(name: CampaignName, env?: Record<string, string | undefined>): number;
export function campaignSizes(env?: Record<string, string | undefined>): Record<CampaignName, number>;
export function describeCampaigns(env?: Record<string, string | undefined>): string;
export const CAMPAIGNS: Record<CampaignName, number>;
