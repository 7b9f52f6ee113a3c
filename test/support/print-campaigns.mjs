// Jest's global setup for every run, both tiers: prints the campaign sizes once (and fails the run on a
// size variable that is not a positive integer, before any suite starts).
import { describeCampaigns } from './campaigns.mjs';

export default function printCampaigns() {
  process.stderr.write(`\n${describeCampaigns()}\n`);
}
