/**
 * A repository's GitHub Pages site, read-only as Writ's doctor reads it: `GET /repos/{o}/{r}/pages`
 * (the `page` schema of GitHub's description), 200 with `build_type` `legacy` (Source: "Deploy from a
 * branch") or `workflow` (Source: "GitHub Actions", what actions/deploy-pages needs), 404 when the
 * repository has no Pages site. An app needs `pages: read`, except on a public repository, which anyone
 * may read (https://docs.github.com/en/rest/pages/pages#get-a-apiname-pages-site, "Fine-grained access
 * tokens": `pages:read`; "If only public resources are requested, you can use this endpoint without
 * authentication or the additional permissions listed above"). A test seeds the site through the admin
 * API in the body shape of GitHub's `POST …/pages` (`build_type`, `source: {branch, path}`).
 */
import type { Ctx } from './http.js';
import { notFound } from './http.js';
import type { Router } from './router.js';
import type { PagesSite, Repo } from './state.js';
import { loadRepo, urlsOf } from './rest/common.js';

const DOCS = 'https://docs.github.com/rest/pages/pages#get-a-apiname-pages-site';

/** A seed the admin API refuses (the admin answers it as 400). */
export class InvalidPages extends Error {}

/**
 * Creates or replaces the repository's Pages site from the body of GitHub's `POST …/pages`
 * (`build_type`: `legacy` | `workflow`, default `legacy`; `source: {branch, path}` for `legacy`, default
 * the default branch and `/`); `null` removes it (Pages not enabled).
 */
export function setPages(repo: Repo, spec: Record<string, unknown> | null): PagesSite | null {
  if (spec === null) {
    repo.pages = null;
    return null;
  }
  const buildType = spec.build_type ?? 'legacy';
  if (buildType !== 'legacy' && buildType !== 'workflow')
    throw new InvalidPages('build_type must be legacy or workflow');
  const source = (spec.source ?? {}) as Record<string, unknown>;
  const branch = source.branch ?? repo.default_branch;
  const path = source.path ?? '/';
  if (typeof branch !== 'string' || branch === '' || (path !== '/' && path !== '/docs'))
    throw new InvalidPages('source needs a branch and a path of / or /docs');
  const site: PagesSite = { build_type: buildType, source: { branch, path } };
  repo.pages = site;
  return site;
}

/** The `page` schema; GitHub serves a private repository's site at a private address, not modelled. */
function pageBody(ctx: Ctx, repo: Repo, site: PagesSite): Record<string, unknown> {
  const urls = urlsOf(ctx);
  return {
    url: `${urls.api}/repos/${repo.owner.login}/${repo.name}/pages`,
    status: 'built',
    cname: null,
    custom_404: false,
    html_url: `https://${repo.owner.login.toLowerCase()}.github.io/${repo.name}/`,
    build_type: site.build_type,
    source: site.source,
    public: !repo.private,
    protected_domain_state: null,
    pending_domain_unverified_at: null,
    https_enforced: true,
  };
}

export function registerPagesRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/pages', (ctx: Ctx) => {
    const found = ctx.world.repo(ctx.params.owner ?? '', ctx.params.repo ?? '');
    const repo = loadRepo(ctx, found?.private === false ? 'metadata' : 'pages', 'read');
    if (repo.pages === null) throw notFound(DOCS);
    return { status: 200, body: pageBody(ctx, repo, repo.pages) };
  });
}
