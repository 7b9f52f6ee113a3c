/**
 * REST representations, shaped after the schemas in GitHub's OpenAPI description (`simple-user`,
 * `full-repository`, `git-ref`, `git-commit`, `issue`, …). The conformance suite validates every response
 * against those schemas.
 */
import { accountForEmail } from './commits.js';
import type { GitIdentity } from './git.js';
import type { WorkflowFile } from './workflows.js';
import { verify } from './signing.js';
import { nodeId } from './state.js';
import type {
  Account,
  App,
  BranchProtection,
  CheckRun,
  Comment,
  CommitStatus,
  Issue,
  Label,
  Milestone,
  Reaction,
  Repo,
  Ruleset,
  WorkflowRun,
  World,
} from './state.js';

export interface Urls {
  api: string;
  web: string;
}

export function simpleUser(urls: Urls, account: Account): Record<string, unknown> {
  const api = `${urls.api}/users/${encodeURIComponent(account.login)}`;
  return {
    login: account.login,
    id: account.id,
    node_id: account.node_id,
    avatar_url: `${urls.web}/avatars/u/${account.id}`,
    gravatar_id: '',
    url: api,
    html_url: `${urls.web}/${encodeURIComponent(account.login)}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: account.type,
    site_admin: false,
    user_view_type: 'public',
  };
}

export function integration(urls: Urls, app: App): Record<string, unknown> {
  return {
    id: app.id,
    slug: app.slug,
    node_id: app.node_id,
    client_id: `Iv1.${app.id.toString(16).padStart(16, '0')}`,
    owner: simpleUser(urls, app.owner),
    name: app.name,
    description: null,
    external_url: `${urls.web}/apps/${app.slug}`,
    html_url: `${urls.web}/apps/${app.slug}`,
    created_at: app.created_at,
    updated_at: app.created_at,
    permissions: { issues: 'write', contents: 'write', metadata: 'read', pull_requests: 'write' },
    events: [],
  };
}

export function repoUrls(urls: Urls, repo: Repo): { api: string; web: string } {
  return {
    api: `${urls.api}/repos/${repo.owner.login}/${repo.name}`,
    web: `${urls.web}/${repo.owner.login}/${repo.name}`,
  };
}

export function repository(
  urls: Urls,
  repo: Repo,
  permissions?: { admin: boolean; maintain: boolean; push: boolean; triage: boolean; pull: boolean },
): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const openIssues = [...repo.issues.values()].filter((issue) => issue.state === 'open').length;
  const host = new URL(urls.web).host;
  return {
    id: repo.id,
    node_id: repo.node_id,
    name: repo.name,
    full_name: `${repo.owner.login}/${repo.name}`,
    owner: simpleUser(urls, repo.owner),
    private: repo.private,
    html_url: web,
    description: repo.description,
    fork: false,
    url: api,
    archive_url: `${api}/{archive_format}{/ref}`,
    assignees_url: `${api}/assignees{/user}`,
    blobs_url: `${api}/git/blobs{/sha}`,
    branches_url: `${api}/branches{/branch}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    comments_url: `${api}/comments{/number}`,
    commits_url: `${api}/commits{/sha}`,
    compare_url: `${api}/compare/{base}...{head}`,
    contents_url: `${api}/contents/{+path}`,
    contributors_url: `${api}/contributors`,
    deployments_url: `${api}/deployments`,
    downloads_url: `${api}/downloads`,
    events_url: `${api}/events`,
    forks_url: `${api}/forks`,
    git_commits_url: `${api}/git/commits{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_url: `git://${host}/${repo.owner.login}/${repo.name}.git`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    issue_events_url: `${api}/issues/events{/number}`,
    issues_url: `${api}/issues{/number}`,
    keys_url: `${api}/keys{/key_id}`,
    labels_url: `${api}/labels{/name}`,
    languages_url: `${api}/languages`,
    merges_url: `${api}/merges`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    pulls_url: `${api}/pulls{/number}`,
    releases_url: `${api}/releases{/id}`,
    ssh_url: `git@${host}:${repo.owner.login}/${repo.name}.git`,
    stargazers_url: `${api}/stargazers`,
    statuses_url: `${api}/statuses/{sha}`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    tags_url: `${api}/tags`,
    teams_url: `${api}/teams`,
    trees_url: `${api}/git/trees{/sha}`,
    clone_url: `${web}.git`,
    mirror_url: null,
    hooks_url: `${api}/hooks`,
    svn_url: web,
    homepage: null,
    language: null,
    forks_count: 0,
    stargazers_count: 0,
    watchers_count: 0,
    size: 0,
    default_branch: repo.default_branch,
    open_issues_count: openIssues,
    is_template: false,
    topics: [],
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    has_pull_requests: true,
    pull_request_creation_policy: 'all',
    archived: false,
    disabled: false,
    visibility: repo.private ? 'private' : 'public',
    pushed_at: repo.pushed_at,
    created_at: repo.created_at,
    updated_at: repo.updated_at,
    ...(permissions ? { permissions } : {}),
    allow_rebase_merge: true,
    allow_squash_merge: true,
    allow_merge_commit: true,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    allow_update_branch: false,
    use_squash_pr_title_as_default: false,
    squash_merge_commit_title: 'COMMIT_OR_PR_TITLE',
    squash_merge_commit_message: 'COMMIT_MESSAGES',
    merge_commit_title: 'MERGE_MESSAGE',
    merge_commit_message: 'PR_TITLE',
    allow_forking: true,
    web_commit_signoff_required: false,
    // In the caller's view of a repository (with `permissions`): empty for one who can push, else null.
    ...(permissions ? { temp_clone_token: permissions.push ? '' : null } : {}),
    license: null,
    forks: 0,
    open_issues: openIssues,
    watchers: 0,
    network_count: 0,
    subscribers_count: 0,
    custom_properties: {},
  };
}

export function gitRef(urls: Urls, repo: Repo, ref: string, sha: string): Record<string, unknown> {
  const { api } = repoUrls(urls, repo);
  const type = repo.git.get(sha)?.type ?? 'commit';
  return {
    ref,
    node_id: `REF_${Buffer.from(`${repo.id}:${ref}`).toString('base64url')}`,
    url: `${api}/git/${ref}`,
    object: { sha, type, url: `${api}/git/${type}s/${sha}` },
  };
}

function gitActor(identity: GitIdentity): { name: string; email: string; date: string } {
  return {
    name: identity.name,
    email: identity.email,
    date: new Date(identity.time * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

export function gitCommit(urls: Urls, world: World, repo: Repo, sha: string): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const commit = repo.git.commit(sha);
  return {
    sha,
    node_id: `C_${Buffer.from(`${repo.id}:${sha}`).toString('base64url')}`,
    url: `${api}/git/commits/${sha}`,
    html_url: `${web}/commit/${sha}`,
    author: gitActor(commit.author),
    committer: gitActor(commit.committer),
    tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
    message: commit.message,
    parents: commit.parents.map((parent) => ({
      sha: parent,
      url: `${api}/git/commits/${parent}`,
      html_url: `${web}/commit/${parent}`,
    })),
    verification: verify(world.seed, commit),
  };
}

/** The `commit` schema (commits list/get). */
export function restCommit(urls: Urls, world: World, repo: Repo, sha: string): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const commit = repo.git.commit(sha);
  const author = accountForEmail(world, commit.author.email);
  const committer = accountForEmail(world, commit.committer.email);
  return {
    url: `${api}/commits/${sha}`,
    sha,
    node_id: `C_${Buffer.from(`${repo.id}:${sha}`).toString('base64url')}`,
    html_url: `${web}/commit/${sha}`,
    comments_url: `${api}/commits/${sha}/comments`,
    commit: {
      url: `${api}/git/commits/${sha}`,
      author: gitActor(commit.author),
      committer: gitActor(commit.committer),
      message: commit.message,
      comment_count: 0,
      tree: { sha: commit.tree, url: `${api}/git/trees/${commit.tree}` },
      verification: verify(world.seed, commit),
    },
    author: author ? simpleUser(urls, author) : null,
    committer: committer ? simpleUser(urls, committer) : null,
    parents: commit.parents.map((parent) => ({
      sha: parent,
      url: `${api}/commits/${parent}`,
      html_url: `${web}/commit/${parent}`,
    })),
  };
}

export function label(urls: Urls, repo: Repo, value: Label): Record<string, unknown> {
  return {
    id: value.id,
    node_id: value.node_id,
    url: `${repoUrls(urls, repo).api}/labels/${encodeURIComponent(value.name)}`,
    name: value.name,
    color: value.color,
    default: value.default === true,
    description: value.description,
  };
}

export function milestone(urls: Urls, repo: Repo, value: Milestone): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const issues = [...repo.issues.values()].filter((issue) => issue.milestone === value.number);
  return {
    url: `${api}/milestones/${value.number}`,
    html_url: `${web}/milestone/${value.number}`,
    labels_url: `${api}/milestones/${value.number}/labels`,
    id: value.id,
    node_id: value.node_id,
    number: value.number,
    state: value.state,
    title: value.title,
    description: value.description,
    creator: simpleUser(urls, value.creator),
    open_issues: issues.filter((issue) => issue.state === 'open').length,
    closed_issues: issues.filter((issue) => issue.state === 'closed').length,
    created_at: value.created_at,
    updated_at: value.updated_at,
    closed_at: value.closed_at,
    due_on: value.due_on,
  };
}

const REACTIONS = {
  total_count: 0,
  '+1': 0,
  '-1': 0,
  laugh: 0,
  hooray: 0,
  confused: 0,
  heart: 0,
  rocket: 0,
  eyes: 0,
};

/** A comment's reactions summary (`reaction-rollup`): the count of each content, and the total. */
export function reactionRollup(url: string, reactions: readonly Reaction[]): Record<string, unknown> {
  const counts: Record<string, number> = { ...REACTIONS };
  for (const value of reactions) counts[value.content] = (counts[value.content] ?? 0) + 1;
  return { url, ...counts, total_count: reactions.length };
}

/** One reaction (`reaction`): who reacted, with what, when. */
export function reaction(urls: Urls, value: Reaction): Record<string, unknown> {
  return {
    id: value.id,
    node_id: value.node_id,
    user: simpleUser(urls, value.user),
    content: value.content,
    created_at: value.created_at,
  };
}

/** The accounts that authored a commit on the default branch, cached per head. */
const contributorCache = new WeakMap<Repo, { head: string; ids: Set<number> }>();

function contributors(world: World, repo: Repo): Set<number> {
  const head = repo.refs.get(`refs/heads/${repo.default_branch}`);
  if (head === undefined) return new Set();
  const cached = contributorCache.get(repo);
  if (cached?.head === head) return cached.ids;
  const ids = new Set<number>();
  for (const sha of repo.git.history(head)) {
    const author = accountForEmail(world, repo.git.commit(sha).author.email);
    if (author) ids.add(author.id);
  }
  contributorCache.set(repo, { head, ids });
  return ids;
}

/**
 * `author_association` as GitHub computes it, strongest first: `OWNER` (owns the repository), `MEMBER`
 * (of the organization that owns it, owners included), `COLLABORATOR`, `CONTRIBUTOR` (authored a commit
 * on the default branch), `FIRST_TIME_CONTRIBUTOR` / `FIRST_TIMER` (opened a pull request here, without
 * such a commit here / in any repository), else `NONE`. `MANNEQUIN` (imported placeholders) never arises.
 */
export function authorAssociation(world: World, repo: Repo, account: Account): string {
  if (account.id === repo.owner.id) return 'OWNER';
  if (world.orgRole(repo.owner, account) !== null) return 'MEMBER';
  if (repo.collaborators.has(account.id)) return 'COLLABORATOR';
  if (contributors(world, repo).has(account.id)) return 'CONTRIBUTOR';
  const openedPull = [...repo.issues.values()].some(
    (entry) => entry.pull !== null && entry.user.id === account.id,
  );
  if (!openedPull) return 'NONE';
  const committedAnywhere = [...world.repos.values()].some((other) =>
    contributors(world, other).has(account.id),
  );
  return committedAnywhere ? 'FIRST_TIME_CONTRIBUTOR' : 'FIRST_TIMER';
}

export function issue(urls: Urls, world: World, repo: Repo, value: Issue): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const issueApi = `${api}/issues/${value.number}`;
  const assignees = value.assignees
    .map((id) => world.accountById(id))
    .filter((account): account is Account => account !== undefined)
    .map((account) => simpleUser(urls, account));
  const milestoneValue = value.milestone === null ? undefined : repo.milestones.get(value.milestone);
  const comments = [...repo.comments.values()].filter(
    (comment) => comment.issue_number === value.number,
  ).length;
  const out: Record<string, unknown> = {
    id: value.id,
    node_id: value.node_id,
    url: issueApi,
    repository_url: api,
    labels_url: `${issueApi}/labels{/name}`,
    comments_url: `${issueApi}/comments`,
    events_url: `${issueApi}/events`,
    html_url: `${web}/${value.pull ? 'pull' : 'issues'}/${value.number}`,
    number: value.number,
    state: value.state,
    state_reason: value.state_reason,
    title: value.title,
    body: value.body,
    user: simpleUser(urls, value.user),
    labels: value.labels
      .map((id) => repo.labels.get(id))
      .filter((entry): entry is Label => entry !== undefined)
      .map((entry) => label(urls, repo, entry)),
    assignee: assignees[0] ?? null,
    assignees,
    milestone: milestoneValue ? milestone(urls, repo, milestoneValue) : null,
    locked: value.locked,
    active_lock_reason: null,
    comments,
    closed_at: value.closed_at,
    created_at: value.created_at,
    updated_at: value.updated_at,
    closed_by: value.closed_by ? simpleUser(urls, value.closed_by) : null,
    author_association: authorAssociation(world, repo, value.user),
    performed_via_github_app: value.app ? integration(urls, value.app) : null,
    reactions: { url: `${issueApi}/reactions`, ...REACTIONS },
    timeline_url: `${issueApi}/timeline`,
  };
  if (value.pull) {
    out.draft = value.pull.draft;
    out.pull_request = {
      url: `${api}/pulls/${value.number}`,
      html_url: `${web}/pull/${value.number}`,
      diff_url: `${web}/pull/${value.number}.diff`,
      patch_url: `${web}/pull/${value.number}.patch`,
      merged_at: value.pull.merged_at,
    };
  }
  return out;
}

export function comment(urls: Urls, world: World, repo: Repo, value: Comment): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const target = repo.issues.get(value.issue_number);
  return {
    id: value.id,
    node_id: value.node_id,
    url: `${api}/issues/comments/${value.id}`,
    html_url: `${web}/${target?.pull ? 'pull' : 'issues'}/${value.issue_number}#issuecomment-${value.id}`,
    body: value.body,
    user: simpleUser(urls, value.user),
    created_at: value.created_at,
    updated_at: value.updated_at,
    issue_url: `${api}/issues/${value.issue_number}`,
    author_association: authorAssociation(world, repo, value.user),
    performed_via_github_app: value.app ? integration(urls, value.app) : null,
    reactions: reactionRollup(`${api}/issues/comments/${value.id}/reactions`, value.reactions),
  };
}

export function pull(
  urls: Urls,
  world: World,
  repo: Repo,
  value: Issue,
  full: boolean,
): Record<string, unknown> {
  const pr = value.pull;
  if (!pr) throw new Error('not a pull request');
  const { api, web } = repoUrls(urls, repo);
  const base = issue(urls, world, repo, value);
  const prApi = `${api}/pulls/${value.number}`;
  const headSha = repo.refs.get(`refs/heads/${pr.head_ref}`) ?? pr.head_sha;
  const baseSha = repo.refs.get(`refs/heads/${pr.base_ref}`) ?? pr.base_sha;
  const branch = (ref: string, sha: string): Record<string, unknown> => ({
    label: `${repo.owner.login}:${ref}`,
    ref,
    sha,
    user: simpleUser(urls, repo.owner),
    repo: repository(urls, repo),
  });
  const out: Record<string, unknown> = {
    url: prApi,
    id: pr.id,
    node_id: pr.node_id,
    html_url: `${web}/pull/${value.number}`,
    diff_url: `${web}/pull/${value.number}.diff`,
    patch_url: `${web}/pull/${value.number}.patch`,
    issue_url: `${api}/issues/${value.number}`,
    commits_url: `${prApi}/commits`,
    review_comments_url: `${prApi}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${value.number}/comments`,
    statuses_url: `${api}/statuses/${headSha}`,
    number: value.number,
    state: value.state,
    locked: value.locked,
    title: value.title,
    user: base.user,
    body: value.body,
    labels: base.labels,
    milestone: base.milestone,
    active_lock_reason: null,
    created_at: value.created_at,
    updated_at: value.updated_at,
    closed_at: value.closed_at,
    merged_at: pr.merged_at,
    merge_commit_sha: pr.merge_commit_sha,
    assignee: base.assignee,
    assignees: base.assignees,
    requested_reviewers: [],
    requested_teams: [],
    head: branch(pr.head_ref, headSha),
    base: branch(pr.base_ref, baseSha),
    _links: {
      self: { href: prApi },
      html: { href: `${web}/pull/${value.number}` },
      issue: { href: `${api}/issues/${value.number}` },
      comments: { href: `${api}/issues/${value.number}/comments` },
      review_comments: { href: `${prApi}/comments` },
      review_comment: { href: `${api}/pulls/comments{/number}` },
      commits: { href: `${prApi}/commits` },
      statuses: { href: `${api}/statuses/${headSha}` },
    },
    author_association: base.author_association,
    auto_merge: null,
    draft: pr.draft,
  };
  if (full) {
    const mergeable = value.state === 'open' && pr.merged_at === null ? true : null;
    Object.assign(out, {
      merged: pr.merged_at !== null,
      mergeable,
      rebaseable: mergeable,
      mergeable_state: mergeable ? 'clean' : 'unknown',
      merged_by: pr.merged_by ? simpleUser(urls, pr.merged_by) : null,
      comments: base.comments,
      review_comments: 0,
      maintainer_can_modify: pr.maintainer_can_modify,
      commits: 1,
      additions: 0,
      deletions: 0,
      changed_files: 0,
    });
  }
  return out;
}

export function ruleset(
  urls: Urls,
  repo: Repo,
  value: Ruleset,
  options: { showBypass: boolean; canBypass: string; summary: boolean },
): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const out: Record<string, unknown> = {
    id: value.id,
    name: value.name,
    target: value.target,
    source_type: 'Repository',
    source: `${repo.owner.login}/${repo.name}`,
    enforcement: value.enforcement,
    node_id: value.node_id,
    _links: { self: { href: `${api}/rulesets/${value.id}` }, html: { href: `${web}/rules/${value.id}` } },
    created_at: value.created_at,
    updated_at: value.updated_at,
  };
  if (options.showBypass) out.bypass_actors = value.bypass_actors;
  out.current_user_can_bypass = options.canBypass;
  if (!options.summary) {
    out.conditions = value.conditions;
    out.rules = value.rules;
  }
  return out;
}

export function workflowRun(urls: Urls, repo: Repo, run: WorkflowRun): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const runApi = `${api}/actions/runs/${run.id}`;
  const headCommit = repo.git.has(run.head_sha, 'commit') ? repo.git.commit(run.head_sha) : null;
  return {
    id: run.id,
    name: run.name,
    node_id: run.node_id,
    head_branch: run.head_branch,
    head_sha: run.head_sha,
    path: run.path,
    display_title: run.display_title ?? run.name,
    run_number: run.run_number,
    run_attempt: run.run_attempt,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflow_id,
    url: runApi,
    html_url: `${web}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.created_at,
    updated_at: run.updated_at,
    run_started_at: run.run_started_at,
    actor: simpleUser(urls, run.actor),
    triggering_actor: simpleUser(urls, run.triggering_actor ?? run.actor),
    check_suite_id: run.id,
    check_suite_node_id: nodeId('CS', run.id),
    previous_attempt_url: run.run_attempt > 1 ? `${runApi}/attempts/${run.run_attempt - 1}` : null,
    jobs_url: `${runApi}/jobs`,
    logs_url: `${runApi}/logs`,
    check_suite_url: `${api}/check-suites/${run.id}`,
    artifacts_url: `${runApi}/artifacts`,
    cancel_url: `${runApi}/cancel`,
    rerun_url: `${runApi}/rerun`,
    workflow_url: `${api}/actions/workflows/${run.workflow_id}`,
    head_commit: headCommit
      ? {
          id: run.head_sha,
          tree_id: headCommit.tree,
          message: headCommit.message,
          timestamp: new Date(headCommit.committer.time * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          author: { name: headCommit.author.name, email: headCommit.author.email },
          committer: { name: headCommit.committer.name, email: headCommit.committer.email },
        }
      : null,
    repository: minimalRepository(urls, repo),
    head_repository: minimalRepository(urls, repo),
  };
}

/** The `workflow` schema. */
export function workflow(urls: Urls, repo: Repo, value: WorkflowFile): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  return {
    id: value.id,
    node_id: value.node_id,
    name: value.name,
    path: value.path,
    state: 'active',
    created_at: value.created_at,
    updated_at: value.created_at,
    url: `${api}/actions/workflows/${value.id}`,
    html_url: `${web}/blob/${repo.default_branch}/${value.path}`,
    badge_url: `${web}/workflows/${encodeURIComponent(value.path.replace(/^\.github\/workflows\//, ''))}/badge.svg`,
  };
}

/** The `check-run` schema; `pulls` are the open pull requests whose head is the check run's SHA. */
export function checkRun(urls: Urls, repo: Repo, value: CheckRun): Record<string, unknown> {
  const { api, web } = repoUrls(urls, repo);
  const pulls = [...repo.issues.values()].filter(
    (entry) =>
      entry.state === 'open' &&
      entry.pull !== null &&
      (repo.refs.get(`refs/heads/${entry.pull.head_ref}`) ?? entry.pull.head_sha) === value.head_sha,
  );
  return {
    id: value.id,
    head_sha: value.head_sha,
    node_id: value.node_id,
    external_id: value.external_id,
    url: `${api}/check-runs/${value.id}`,
    html_url: `${web}/runs/${value.id}`,
    details_url: value.details_url ?? `${web}/runs/${value.id}`,
    status: value.status,
    conclusion: value.conclusion,
    started_at: value.started_at,
    completed_at: value.completed_at,
    output: {
      ...value.output,
      annotations_count: 0,
      annotations_url: `${api}/check-runs/${value.id}/annotations`,
    },
    name: value.name,
    check_suite: { id: value.check_suite_id },
    app: integration(urls, value.app),
    pull_requests: pulls.map((entry) => {
      const pr = entry.pull;
      const head = repo.refs.get(`refs/heads/${pr?.head_ref ?? ''}`) ?? pr?.head_sha ?? '';
      const base = repo.refs.get(`refs/heads/${pr?.base_ref ?? ''}`) ?? pr?.base_sha ?? '';
      const side = (ref: string, sha: string): Record<string, unknown> => ({
        ref,
        sha,
        repo: { id: repo.id, url: api, name: repo.name },
      });
      return {
        id: pr?.id,
        number: entry.number,
        url: `${api}/pulls/${entry.number}`,
        head: side(pr?.head_ref ?? '', head),
        base: side(pr?.base_ref ?? '', base),
      };
    }),
  };
}

/** The `status` schema (one commit status). */
export function commitStatus(urls: Urls, repo: Repo, value: CommitStatus): Record<string, unknown> {
  const { api } = repoUrls(urls, repo);
  const creator = simpleUser(urls, value.creator);
  return {
    url: `${api}/statuses/${value.sha}`,
    avatar_url: creator.avatar_url,
    id: value.id,
    node_id: value.node_id,
    state: value.state,
    description: value.description,
    target_url: value.target_url,
    context: value.context,
    created_at: value.created_at,
    updated_at: value.updated_at,
    creator,
  };
}

export function minimalRepository(urls: Urls, repo: Repo): Record<string, unknown> {
  const full = repository(urls, repo);
  const keep = [
    'id',
    'node_id',
    'name',
    'full_name',
    'owner',
    'private',
    'html_url',
    'description',
    'fork',
    'url',
    'archive_url',
    'assignees_url',
    'blobs_url',
    'branches_url',
    'collaborators_url',
    'comments_url',
    'commits_url',
    'compare_url',
    'contents_url',
    'contributors_url',
    'deployments_url',
    'downloads_url',
    'events_url',
    'forks_url',
    'git_commits_url',
    'git_refs_url',
    'git_tags_url',
    'git_url',
    'issue_comment_url',
    'issue_events_url',
    'issues_url',
    'keys_url',
    'labels_url',
    'languages_url',
    'merges_url',
    'milestones_url',
    'notifications_url',
    'pulls_url',
    'releases_url',
    'ssh_url',
    'stargazers_url',
    'statuses_url',
    'subscribers_url',
    'subscription_url',
    'tags_url',
    'teams_url',
    'trees_url',
    'hooks_url',
  ];
  return Object.fromEntries(keep.map((key) => [key, full[key]]));
}

/** The `branch-protection` schema (`GET …/branches/{branch}/protection`). */
export function branchProtection(
  urls: Urls,
  repo: Repo,
  branch: string,
  value: BranchProtection,
): Record<string, unknown> {
  const url = `${repoUrls(urls, repo).api}/branches/${encodeURIComponent(branch)}/protection`;
  const enabled = (flag: boolean): { enabled: boolean } => ({ enabled: flag });
  return {
    url,
    ...(value.required_status_checks === null
      ? {}
      : {
          required_status_checks: {
            url: `${url}/required_status_checks`,
            strict: value.required_status_checks.strict,
            contexts: value.required_status_checks.contexts,
            contexts_url: `${url}/required_status_checks/contexts`,
            checks: value.required_status_checks.contexts.map((context) => ({ context, app_id: null })),
          },
        }),
    ...(value.required_pull_request_reviews === null
      ? {}
      : {
          required_pull_request_reviews: {
            url: `${url}/required_pull_request_reviews`,
            ...value.required_pull_request_reviews,
          },
        }),
    required_signatures: { url: `${url}/required_signatures`, enabled: false },
    enforce_admins: { url: `${url}/enforce_admins`, enabled: value.enforce_admins },
    required_linear_history: enabled(value.required_linear_history),
    allow_force_pushes: enabled(value.allow_force_pushes),
    allow_deletions: enabled(value.allow_deletions),
    block_creations: enabled(value.block_creations),
    required_conversation_resolution: enabled(value.required_conversation_resolution),
    lock_branch: enabled(value.lock_branch),
    allow_fork_syncing: enabled(false),
  };
}
