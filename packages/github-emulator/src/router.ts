/**
 * A small path router: templates like `/repos/:owner/:repo/git/ref/*ref` (`*` takes the rest); the first
 * matching route wins. The REST API routes `Ctx` handlers; the admin API its own context.
 */
import type { Ctx, Reply } from './http.js';

export type Handler<C = Ctx> = (ctx: C) => Reply | Promise<Reply>;

export interface Route<C = Ctx> {
  method: string;
  template: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler<C>;
}

export class Router<C = Ctx> {
  readonly routes: Route<C>[] = [];

  add(method: string, template: string, handler: Handler<C>): this {
    const keys: string[] = [];
    const source = template
      .split('/')
      .map((segment) => {
        if (segment.startsWith(':')) {
          keys.push(segment.slice(1));
          return '([^/]+)';
        }
        if (segment.startsWith('*')) {
          keys.push(segment.slice(1));
          return '(.+)';
        }
        return segment.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    this.routes.push({ method, template, pattern: new RegExp(`^${source}$`), keys, handler });
    return this;
  }

  /** The matching route and its decoded params; `methodMismatch` when only the method differs. */
  match(
    method: string,
    path: string,
  ): { route: Route<C>; params: Record<string, string> } | { methodMismatch: boolean } {
    let methodMismatch = false;
    for (const route of this.routes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        methodMismatch = true;
        continue;
      }
      const params: Record<string, string> = {};
      try {
        route.keys.forEach((key, index) => {
          params[key] = decodeURIComponent(found[index + 1] ?? '');
        });
      } catch {
        return { methodMismatch: false }; // a malformed %-escape names nothing: 404
      }
      return { route, params };
    }
    return { methodMismatch };
  }
}
