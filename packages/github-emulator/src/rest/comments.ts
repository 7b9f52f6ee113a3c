/**
 * Issue comments: create, get, update and delete, listed per issue (ascending id) and per repository.
 * Last write wins; an author or a writer may edit or delete a comment.
 */
import { hasPush } from '../access.js';
import type { Ctx } from '../http.js';
import { bodyObject, HttpError, notFound, paginate, patForbidden, requireString } from '../http.js';
import { comment, issue } from '../represent.js';
import type { Router } from '../router.js';
import type { Account, Comment, CommentEdit, Repo } from '../state.js';
import { nodeId, roleAtLeast } from '../state.js';
import { intParam, loadRepo, recordRepoEvent, urlsOf } from './common.js';
import { conditional, withEtag } from './conditional.js';
import { findIssue } from './issue-records.js';

const COMMENTS_DOC = 'https://docs.github.com/rest/issues/comments';

function canEditComment(ctx: Ctx, repo: Repo, target: Comment): boolean {
  const token = ctx.token;
  if (!token) return false;
  if (token.kind !== 'pat') return true;
  return token.account.id === target.user.id || roleAtLeast(ctx.world.roleOf(token.account, repo), 'write');
}

function commentEvent(
  ctx: Ctx,
  repo: Repo,
  target: Comment,
  action: string,
  extra: Record<string, unknown> = {},
): void {
  const parent = repo.issues.get(target.issue_number);
  if (!parent) return;
  const urls = urlsOf(ctx);
  recordRepoEvent(ctx, repo, 'issue_comment', action, {
    issue: issue(urls, ctx.world, repo, parent),
    comment: comment(urls, ctx.world, repo, target),
    ...extra,
  });
}

/**
 * Adds an accepted PATCH to the comment's edit record (GraphQL `lastEditedAt`, `editor`,
 * `includesCreatedEdit`, `userContentEdits`), at the emulator's clock, which may be the second the
 * comment was created (REST `updated_at` then still equals `created_at`: one-second resolution). The
 * first edit also records the created revision. Every accepted PATCH is recorded, an unchanged body
 * included (a consumer that must refuse an edited comment is tested against the stricter record).
 */
function recordEdit(ctx: Ctx, target: Comment, previous: string): void {
  const editor = ctx.token?.account ?? target.user;
  // Edit IDs are the comment's and a sequence number: no draw on the world's ID counter.
  const revision = (account: Account, at: string, body: string): CommentEdit => {
    const key = `${target.id}:${target.edits.length}`;
    return { key, node_id: nodeId('UCE', key), editor: account, edited_at: at, body };
  };
  if (target.edits.length === 0) target.edits.push(revision(target.user, target.created_at, previous));
  target.edits.push(revision(editor, target.updated_at, target.body));
}

/** The comment named by the path, if the caller may edit or delete it (its author, or a writer). */
function editableComment(ctx: Ctx, anchor: string): { repo: Repo; found: Comment } {
  const repo = loadRepo(ctx, 'issues', 'write');
  const found = repo.comments.get(intParam(ctx, 'id'));
  if (!found) throw notFound(`${COMMENTS_DOC}#${anchor}`);
  if (!canEditComment(ctx, repo, found)) throw patForbidden(COMMENTS_DOC);
  return { repo, found };
}

export function registerCommentRoutes(router: Router): void {
  router.add('GET', '/repos/:owner/:repo/issues/comments', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const since = ctx.query.get('since');
    let items = [...repo.comments.values()];
    if (since) items = items.filter((entry) => Date.parse(entry.updated_at) >= Date.parse(since));
    const sort = ctx.query.get('sort');
    if (sort === 'updated')
      items.sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at) || a.id - b.id);
    else items.sort((a, b) => a.id - b.id);
    if (sort && ctx.query.get('direction') === 'desc') items.reverse();
    return {
      status: 200,
      body: paginate(ctx, items).map((entry) => comment(urlsOf(ctx), ctx.world, repo, entry)),
    };
  });

  router.add('GET', '/repos/:owner/:repo/issues/comments/:id', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const found = repo.comments.get(intParam(ctx, 'id'));
    if (!found) throw notFound(`${COMMENTS_DOC}#get-an-issue-comment`);
    return withEtag(comment(urlsOf(ctx), ctx.world, repo, found));
  });

  router.add('PATCH', '/repos/:owner/:repo/issues/comments/:id', (ctx) => {
    const { repo, found } = editableComment(ctx, 'update-an-issue-comment');
    const text = requireString(bodyObject(ctx), 'body', `${COMMENTS_DOC}#update-an-issue-comment`);
    const { refuse, apply } = conditional(ctx, comment(urlsOf(ctx), ctx.world, repo, found));
    if (apply) {
      const previous = found.body;
      found.body = text;
      found.updated_at = ctx.world.now();
      recordEdit(ctx, found, previous);
      if (previous !== text)
        commentEvent(ctx, repo, found, 'edited', { changes: { body: { from: previous } } });
    }
    if (refuse) return refuse;
    return withEtag(comment(urlsOf(ctx), ctx.world, repo, found));
  });

  router.add('DELETE', '/repos/:owner/:repo/issues/comments/:id', (ctx) => {
    const { repo, found } = editableComment(ctx, 'delete-an-issue-comment');
    commentEvent(ctx, repo, found, 'deleted');
    repo.comments.delete(found.id);
    return { status: 204 };
  });

  router.add('GET', '/repos/:owner/:repo/issues/:number/comments', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'read');
    const number = intParam(ctx, 'number');
    findIssue(repo, number, `${COMMENTS_DOC}#list-issue-comments`);
    const since = ctx.query.get('since');
    const items = [...repo.comments.values()]
      .filter((entry) => entry.issue_number === number)
      .filter((entry) => !since || Date.parse(entry.updated_at) >= Date.parse(since))
      .sort((a, b) => a.id - b.id);
    return {
      status: 200,
      body: paginate(ctx, items).map((entry) => comment(urlsOf(ctx), ctx.world, repo, entry)),
    };
  });

  router.add('POST', '/repos/:owner/:repo/issues/:number/comments', (ctx) => {
    const repo = loadRepo(ctx, 'issues', 'write');
    const number = intParam(ctx, 'number');
    const parent = findIssue(repo, number, `${COMMENTS_DOC}#create-an-issue-comment`);
    const text = requireString(bodyObject(ctx), 'body', `${COMMENTS_DOC}#create-an-issue-comment`);
    if (parent.locked && !hasPush(ctx.world, ctx.token, repo)) {
      throw new HttpError(403, {
        message: 'Unable to create comment because issue is locked.',
        documentation_url: COMMENTS_DOC,
        status: '403',
      });
    }
    const token = ctx.token;
    if (!token) throw notFound();
    const id = ctx.world.id();
    const now = ctx.world.now();
    const created: Comment = {
      id,
      node_id: nodeId('IC', id),
      issue_number: number,
      body: text,
      user: token.account,
      app: token.kind === 'pat' ? null : token.app,
      created_at: now,
      updated_at: now,
      edits: [],
      reactions: [],
    };
    repo.comments.set(id, created);
    parent.updated_at = now;
    commentEvent(ctx, repo, created, 'created');
    const body = comment(urlsOf(ctx), ctx.world, repo, created);
    return { status: 201, body, headers: { location: String(body.url) } };
  });
}
