/**
 * Reactions to issue comments (GitHub's `reactions/*-for-issue-comment` operations): create, list and
 * delete. One reaction per account and content: creating one the caller already added answers 200
 * with the existing reaction, a new one 201 (GitHub documents both). The content must be one of
 * GitHub's eight (422 otherwise). A reaction changes neither the comment's `updated_at` nor its edit
 * record: it is not an edit. Its ID comes from a sequence of its own, so reacting never shifts the IDs
 * the world gives issues and comments. No webhook event is recorded (GitHub has no reaction event).
 *
 * Access as GitHub describes it: reacting needs issues write (a user: read access to the repository,
 * as for commenting; an installation: `issues: write`, or `pull_requests: write` on a pull request's
 * comment). A reaction is deleted only by the account that made it; anyone else's reaction ID
 * answers 404 (GitHub hides what a caller may not act on).
 */
import type { Ctx } from '../http.js';
import { bodyObject, HttpError, notFound, paginate, requireString, validationFailed } from '../http.js';
import { reaction } from '../represent.js';
import type { Router } from '../router.js';
import type { Comment, Reaction, ReactionContent, Repo, World } from '../state.js';
import { nodeId, REACTION_CONTENTS } from '../state.js';
import { intParam, loadRepo, urlsOf } from './common.js';

const REACTIONS_DOC = 'https://docs.github.com/rest/reactions/reactions';

/** Reaction IDs, per world: a sequence apart from the world's own ID counter. */
const sequences = new WeakMap<World, number>();

function nextReactionId(world: World): number {
  const next = (sequences.get(world) ?? 0) + 1;
  sequences.set(world, next);
  return next;
}

function isContent(value: string): value is ReactionContent {
  return (REACTION_CONTENTS as readonly string[]).includes(value);
}

/** The comment named by the path, after checking the caller may `level` its issues (or pull requests). */
function commentOf(ctx: Ctx, level: 'read' | 'write', anchor: string): { repo: Repo; found: Comment } {
  let repo: Repo;
  try {
    repo = loadRepo(ctx, 'issues', level);
  } catch (error: unknown) {
    // An installation with `pull_requests` but not `issues` may still react to a pull request's comment.
    if (!(error instanceof HttpError) || error.status !== 403) throw error;
    repo = loadRepo(ctx, 'pull_requests', level);
    const found = repo.comments.get(intParam(ctx, 'id'));
    if (!found || !repo.issues.get(found.issue_number)?.pull) throw error;
    return { repo, found };
  }
  const found = repo.comments.get(intParam(ctx, 'id'));
  if (!found) throw notFound(`${REACTIONS_DOC}#${anchor}`);
  return { repo, found };
}

export function registerReactionRoutes(router: Router): void {
  router.add('POST', '/repos/:owner/:repo/issues/comments/:id/reactions', (ctx) => {
    const { found } = commentOf(ctx, 'write', 'create-reaction-for-an-issue-comment');
    const content = requireString(bodyObject(ctx), 'content', REACTIONS_DOC);
    if (!isContent(content)) {
      throw validationFailed([{ resource: 'Reaction', field: 'content', code: 'invalid' }], REACTIONS_DOC);
    }
    const token = ctx.token;
    if (!token) throw notFound(REACTIONS_DOC);
    const existing = found.reactions.find(
      (entry) => entry.user.id === token.account.id && entry.content === content,
    );
    if (existing) return { status: 200, body: reaction(urlsOf(ctx), existing) };
    const id = nextReactionId(ctx.world);
    const created: Reaction = {
      id,
      node_id: nodeId('REA', id),
      user: token.account,
      content,
      created_at: ctx.world.now(),
    };
    found.reactions.push(created);
    return { status: 201, body: reaction(urlsOf(ctx), created) };
  });

  router.add('GET', '/repos/:owner/:repo/issues/comments/:id/reactions', (ctx) => {
    const { found } = commentOf(ctx, 'read', 'list-reactions-for-an-issue-comment');
    const content = ctx.query.get('content');
    const items = found.reactions.filter((entry) => content === null || entry.content === content);
    return { status: 200, body: paginate(ctx, items).map((entry) => reaction(urlsOf(ctx), entry)) };
  });

  router.add('DELETE', '/repos/:owner/:repo/issues/comments/:id/reactions/:reaction', (ctx) => {
    const { found } = commentOf(ctx, 'write', 'delete-an-issue-comment-reaction');
    const id = intParam(ctx, 'reaction');
    const at = found.reactions.findIndex(
      (entry) => entry.id === id && entry.user.id === ctx.token?.account.id,
    );
    if (at < 0) throw notFound(`${REACTIONS_DOC}#delete-an-issue-comment-reaction`);
    found.reactions.splice(at, 1);
    return { status: 204 };
  });
}
