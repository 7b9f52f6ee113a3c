/**
 * A branch that moves carries the open pull requests whose head it is: their `head.sha` follows it and
 * GitHub sends `pull_request` `synchronize` (with `before` and `after`). Called by every path that moves
 * a branch (`changeRefs`, the admin's `commitFiles`).
 */
import { recordEvent } from './events.js';
import { pull, repository, simpleUser } from './represent.js';
import type { Account, Repo, Token, World } from './state.js';

export function branchMoved(
  world: World,
  token: Token | null,
  sender: Account,
  repo: Repo,
  branch: string,
  before: string | null,
  after: string | null,
): void {
  if (before === null || after === null || before === after) return;
  for (const entry of repo.issues.values()) {
    const pr = entry.pull;
    if (!pr || entry.state !== 'open' || pr.head_ref !== branch) continue;
    pr.head_sha = after;
    entry.updated_at = world.now();
    const payload = pull(world.urls, world, repo, entry, true);
    for (const side of ['head', 'base']) {
      const shaped = payload[side] as { repo: Record<string, unknown> };
      shaped.repo = { ...shaped.repo, custom_properties: {} };
    }
    recordEvent(world, token, 'pull_request', 'synchronize', {
      number: entry.number,
      before,
      after,
      pull_request: payload,
      repository: { ...repository(world.urls, repo), custom_properties: {} },
      sender: simpleUser(world.urls, sender),
    });
  }
}
