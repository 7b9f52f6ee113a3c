// Jest's global setup for every run, both tiers: prints the campaign sizes once (and fails the run on a
// size variable that is not a positive integer, before any suite starts), and keeps Git off the network
// for every suite (offline-git.mjs).
import { describeCampaigns } from './campaigns.mjs';
import { forbidNetworkGit } from './offline-git.mjs';

export default function printCampaigns() {
  forbidNetworkGit();
  process.stderr.write(`\n${describeCampaigns()}\n`);
}
