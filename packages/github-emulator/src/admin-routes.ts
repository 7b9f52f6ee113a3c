/**
 * The HTTP admin API under `/_emulator`: one route table over the `Admin` operations, registered like the
 * REST routes. Bodies are JSON; an `AdminError` answers its status with `{message}`.
 */
import type { Admin, FaultInput } from './admin.js';
import { AdminError } from './admin.js';
import type { Reply } from './http.js';
import { createProject, deleteProject, editItemField, getProject, plantItem } from './projects.js';
import type { Router } from './router.js';
import type { ConditionalWrites, World } from './state.js';

export interface AdminCtx {
  admin: Admin;
  world: World;
  /** The emulator's own base URL (no trailing slash). */
  base: string;
  /** The REST and GraphQL URLs of the layout (`<base>/api/v3`, `<base>/api/graphql` on GHES). */
  apiUrl: string;
  graphqlUrl: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body when it is an object, `{}` otherwise. */
  input: Record<string, unknown>;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** `GET` of a log, entries after `?since=seq`. */
function since<T extends { seq: number }>(ctx: AdminCtx, entries: T[]): T[] {
  const after = Number(ctx.query.get('since') ?? '0');
  return entries.filter((entry) => entry.seq > after);
}

export function registerAdminRoutes(router: Router<AdminCtx>): void {
  router.add('GET', '/', (ctx) =>
    ok({
      url: ctx.apiUrl,
      graphqlUrl: ctx.graphqlUrl,
      serverUrl: ctx.base,
      adminUrl: `${ctx.base}/_emulator`,
      seed: ctx.world.seed,
    }),
  );
  router.add('POST', '/reset', (ctx) => {
    ctx.admin.reset();
    return ok({ ok: true });
  });
  router.add('POST', '/users', (ctx) => ok(ctx.admin.createUser(ctx.input as never), 201));
  router.add('POST', '/apps', (ctx) => ok(ctx.admin.createApp(ctx.input as never), 201));
  router.add('POST', '/tokens', (ctx) => ok(ctx.admin.createToken(ctx.input as never), 201));
  router.add('POST', '/repos', (ctx) => ok(ctx.admin.createRepo(ctx.input as never), 201));
  router.add('PUT', '/repos/:owner/:repo/collaborators/:login', (ctx) =>
    ok(
      ctx.admin.setCollaborator(
        ctx.params.owner ?? '',
        ctx.params.repo ?? '',
        ctx.params.login ?? '',
        str(ctx.input.role) || null,
        str(ctx.input.base_role) || undefined,
      ),
    ),
  );
  router.add('PUT', '/orgs/:org/members/:login', (ctx) =>
    ok(ctx.admin.setOrgMember(ctx.params.org ?? '', ctx.params.login ?? '', str(ctx.input.role) || 'member')),
  );
  router.add('POST', '/repos/:owner/:repo/rulesets', (ctx) =>
    ok(ctx.admin.addRuleset(ctx.params.owner ?? '', ctx.params.repo ?? '', ctx.input), 201),
  );
  router.add('POST', '/repos/:owner/:repo/actions/runs', (ctx) =>
    ok(ctx.admin.setRun(ctx.params.owner ?? '', ctx.params.repo ?? '', ctx.input), 201),
  );
  router.add('POST', '/repos/:owner/:repo/actions/runs/:id/start', (ctx) =>
    ok(ctx.admin.startRun(ctx.params.owner ?? '', ctx.params.repo ?? '', Number(ctx.params.id))),
  );
  router.add('POST', '/repos/:owner/:repo/actions/runs/:id/complete', (ctx) =>
    ok(
      ctx.admin.completeRun(
        ctx.params.owner ?? '',
        ctx.params.repo ?? '',
        Number(ctx.params.id),
        str(ctx.input.conclusion),
      ),
    ),
  );
  router.add('POST', '/repos/:owner/:repo/commits', (ctx) =>
    ok(
      ctx.admin.commitFiles(ctx.params.owner ?? '', ctx.params.repo ?? '', {
        branch: str(ctx.input.branch),
        ...(typeof ctx.input.base === 'string' ? { base: ctx.input.base } : {}),
        files: (ctx.input.files ?? null) as Record<string, string | null>,
        ...(typeof ctx.input.message === 'string' ? { message: ctx.input.message } : {}),
        ...(typeof ctx.input.author === 'string' ? { author: ctx.input.author } : {}),
      }),
      201,
    ),
  );
  router.add('PUT', '/repos/:owner/:repo/actions/permissions/workflow', (ctx) =>
    ok(ctx.admin.setWorkflowPermissions(ctx.params.owner ?? '', ctx.params.repo ?? '', ctx.input)),
  );
  for (const method of ['PUT', 'DELETE'] as const) {
    router.add(method, '/repos/:owner/:repo/branches/:branch/protection', (ctx) =>
      ok(
        ctx.admin.setBranchProtection(
          ctx.params.owner ?? '',
          ctx.params.repo ?? '',
          ctx.params.branch ?? '',
          method === 'DELETE' ? null : ctx.input,
        ),
      ),
    );
  }
  for (const method of ['PUT', 'DELETE'] as const) {
    router.add(method, '/repos/:owner/:repo/environments/:name', (ctx) =>
      ok(
        ctx.admin.setEnvironment(
          ctx.params.owner ?? '',
          ctx.params.repo ?? '',
          ctx.params.name ?? '',
          method === 'DELETE' ? null : ctx.input,
        ),
      ),
    );
  }
  for (const method of ['PUT', 'DELETE'] as const) {
    router.add(method, '/repos/:owner/:repo/pages', (ctx) =>
      ok(
        ctx.admin.setPages(
          ctx.params.owner ?? '',
          ctx.params.repo ?? '',
          method === 'DELETE' ? null : ctx.input,
        ),
      ),
    );
  }
  router.add('POST', '/repos/:owner/:repo/export', async (ctx) =>
    ok(await ctx.admin.exportRepo(ctx.params.owner ?? '', ctx.params.repo ?? '', str(ctx.input.dir))),
  );
  router.add('POST', '/faults', (ctx) => ok(ctx.admin.addFault(ctx.input as unknown as FaultInput), 201));
  router.add('GET', '/faults', (ctx) => ok(ctx.world.faults));
  router.add('DELETE', '/faults', (ctx) => {
    ctx.admin.clearFaults();
    return ok({ ok: true });
  });
  router.add('POST', '/clock', (ctx) => ok(ctx.admin.clock(ctx.input)));
  router.add('GET', '/clock', (ctx) => ok(ctx.admin.clock()));
  router.add('POST', '/settings', (ctx) => {
    if (ctx.input.world !== undefined) ctx.admin.setWorld(str(ctx.input.world));
    if (ctx.input.conditional_writes !== undefined) {
      ctx.admin.setConditionalWrites(ctx.input.conditional_writes as ConditionalWrites | boolean);
    }
    if (ctx.input.secondary_limits !== undefined) {
      ctx.admin.setSecondaryLimits(ctx.input.secondary_limits);
    }
    if (ctx.input.run_visibility_delay_ms !== undefined) {
      ctx.admin.setRunVisibilityDelay(Number(ctx.input.run_visibility_delay_ms));
    }
    return ok({
      conditional_writes: ctx.world.conditionalWrites,
      marker_creates: ctx.world.markerCreates,
      world: ctx.admin.contractWorld(),
      secondary_limits: ctx.world.secondaryLimits,
      run_visibility_delay_ms: ctx.world.runVisibilityDelayMs,
    });
  });
  // Projects (v2): create one with fields, read it back, delete it, plant an item, edit as a human.
  router.add('POST', '/projects', (ctx) => ok(createProject(ctx.world, ctx.input), 201));
  router.add('GET', '/projects/:owner/:number', (ctx) =>
    ok(getProject(ctx.world, ctx.params.owner ?? '', Number(ctx.params.number))),
  );
  router.add('DELETE', '/projects/:owner/:number', (ctx) =>
    ok(deleteProject(ctx.world, ctx.params.owner ?? '', Number(ctx.params.number))),
  );
  router.add('POST', '/projects/:owner/:number/items', (ctx) =>
    ok(plantItem(ctx.world, ctx.params.owner ?? '', Number(ctx.params.number), ctx.input), 201),
  );
  router.add('PATCH', '/projects/:owner/:number/items/:item', (ctx) =>
    ok(
      editItemField(
        ctx.world,
        ctx.params.owner ?? '',
        Number(ctx.params.number),
        ctx.params.item ?? '',
        ctx.input,
      ),
    ),
  );
  router.add('GET', '/requests', (ctx) => ok(since(ctx, ctx.admin.requests())));
  router.add('DELETE', '/requests', (ctx) => {
    ctx.world.requests = [];
    return ok({ ok: true });
  });
  router.add('GET', '/events', (ctx) => ok(since(ctx, ctx.admin.events())));
  router.add('DELETE', '/events', (ctx) => {
    ctx.world.events = [];
    return ok({ ok: true });
  });
}

/** Answers one admin request (`path` relative to `/_emulator`): the route's reply, or a 404 naming it. */
export async function answerAdmin(
  router: Router<AdminCtx>,
  method: string,
  path: string,
  ctx: Omit<AdminCtx, 'params'>,
): Promise<Reply> {
  const found = router.match(method, path);
  if (!('route' in found)) return { status: 404, body: { message: `No admin route ${method} ${path}` } };
  try {
    return await found.route.handler({ ...ctx, params: found.params });
  } catch (error) {
    if (error instanceof AdminError) return { status: error.status, body: { message: error.message } };
    throw error;
  }
}
