/** Writing commits the way GitHub does, and the identities it writes them with. */
import type { GitIdentity } from './git.js';
import { encodeCommit } from './git.js';
import { webFlowSignature } from './signing.js';
import type { Account, Repo, World } from './state.js';

const WEB_FLOW_LOGIN = 'web-flow';

function noreplyEmail(account: Account): string {
  return `${account.id}+${account.login}@users.noreply.github.com`;
}

export function identityOf(world: World, account: Account): GitIdentity {
  return {
    name: account.type === 'Bot' ? account.login : (account.name ?? account.login),
    email: account.email ?? noreplyEmail(account),
    time: world.clock.epochSeconds(),
    tz: '+0000',
  };
}

/** The committer of web-UI and API-made commits: `GitHub <noreply@github.com>`. */
export function webFlowIdentity(world: World): GitIdentity {
  return { name: 'GitHub', email: 'noreply@github.com', time: world.clock.epochSeconds(), tz: '+0000' };
}

/** The account a commit identity belongs to, by noreply address or registered email (null if none). */
export function accountForEmail(world: World, email: string): Account | null {
  if (email === 'noreply@github.com') return world.account(WEB_FLOW_LOGIN) ?? null;
  const match = /^(\d+)\+(.+)@users\.noreply\.github\.com$/.exec(email);
  if (match) {
    const account = world.accountById(Number(match[1]));
    if (account && account.login === match[2]) return account;
  }
  for (const account of world.accounts.values()) if (account.email === email) return account;
  return null;
}

interface NewCommit {
  tree: string;
  parents: string[];
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
  /** Sign with the emulator's web-flow key (what GitHub does for commits it makes on your behalf). */
  sign: boolean;
  /** A caller-supplied signature (stored, never verified). */
  gpgsig?: string | null;
}

export function writeCommit(world: World, repo: Repo, commit: NewCommit): string {
  const unsigned = { ...commit, gpgsig: null };
  let gpgsig = commit.gpgsig ?? null;
  if (commit.sign && !gpgsig) gpgsig = webFlowSignature(world.seed, encodeCommit(unsigned).toString('utf8'));
  return repo.git.putCommit({ ...unsigned, gpgsig });
}
