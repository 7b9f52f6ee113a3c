/**
 * Webhook events. Each write that would fire a webhook records the payload GitHub would send. Payloads
 * are built from the REST representations and then fitted to GitHub's published webhook schema for that
 * event and action (`@octokit/webhooks-schemas`): properties the schema does not allow are dropped, so a
 * payload carries exactly the webhook shape. Nothing is invented to fill a gap — the conformance suite
 * validates every recorded payload against the same schema.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dependencyFile } from './resources.js';
import type { Token, World } from './state.js';

type JsonSchema = Record<string, unknown>;

let webhookSchema: { definitions: Record<string, JsonSchema> } | undefined;

function webhookDefinitions(): Record<string, JsonSchema> {
  if (!webhookSchema) {
    webhookSchema = JSON.parse(
      readFileSync(dependencyFile('@octokit/webhooks-schemas/schema.json'), 'utf8'),
    ) as {
      definitions: Record<string, JsonSchema>;
    };
  }
  return webhookSchema.definitions;
}

function resolve(schema: JsonSchema, definitions: Record<string, JsonSchema>): JsonSchema {
  let current = schema;
  for (let depth = 0; depth < 20 && typeof current.$ref === 'string'; depth++) {
    const name = current.$ref.replace('#/definitions/', '');
    current = definitions[name] ?? {};
  }
  return current;
}

function typeMatches(schema: JsonSchema, value: unknown, definitions: Record<string, JsonSchema>): boolean {
  const resolved = resolve(schema, definitions);
  const type = resolved.type;
  const kind =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? 'integer'
            : 'number'
          : typeof value;
  if (type === undefined) {
    if (Array.isArray(resolved.allOf))
      return (resolved.allOf as JsonSchema[]).every((part) => typeMatches(part, value, definitions));
    return true;
  }
  const types = Array.isArray(type) ? (type as string[]) : [type as string];
  return types.includes(kind) || (kind === 'integer' && types.includes('number'));
}

/** Drops properties the schema does not allow, recursively (follows $ref, allOf, oneOf/anyOf branches). */
function fitToSchema(value: unknown, schema: JsonSchema, definitions: Record<string, JsonSchema>): unknown {
  const resolved = resolve(schema, definitions);
  const branches = (resolved.oneOf ?? resolved.anyOf) as JsonSchema[] | undefined;
  if (branches) {
    const branch = branches.find((candidate) => typeMatches(candidate, value, definitions));
    return branch ? fitToSchema(value, branch, definitions) : value;
  }
  if (Array.isArray(value)) {
    const items = resolved.items as JsonSchema | undefined;
    return items ? value.map((item) => fitToSchema(item, items, definitions)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const parts = [
    resolved,
    ...((resolved.allOf as JsonSchema[] | undefined) ?? []).map((part) => resolve(part, definitions)),
  ];
  const properties = new Map<string, JsonSchema[]>();
  let closed = false;
  for (const part of parts) {
    if (part.additionalProperties === false) closed = true;
    for (const [key, sub] of Object.entries(
      (part.properties as Record<string, JsonSchema> | undefined) ?? {},
    )) {
      const list = properties.get(key) ?? [];
      list.push(sub);
      properties.set(key, list);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const subs = properties.get(key);
    if (!subs) {
      if (!closed) out[key] = child;
      continue;
    }
    let fitted = child;
    for (const sub of subs) fitted = fitToSchema(fitted, sub, definitions);
    out[key] = fitted;
  }
  return out;
}

/** Records one webhook delivery for `event` / `action` (`''` for an event that has no actions). */
export function recordEvent(
  world: World,
  token: Token | null,
  event: string,
  action: string,
  payload: Record<string, unknown>,
): void {
  const definitions = webhookDefinitions();
  // An event without actions (`status`, `workflow_dispatch`, `push`): action '' and no `action` field.
  const full: Record<string, unknown> = action === '' ? { ...payload } : { action, ...payload };
  if (token && token.kind !== 'pat' && token.app) {
    full.installation = {
      id: token.app.installation_id,
      node_id: `MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u${token.app.installation_id}`,
    };
  }
  const schema = definitions[`${event}$${action === '' ? 'event' : action}`];
  const fitted = schema ? (fitToSchema(full, schema, definitions) as Record<string, unknown>) : full;
  const seq = world.events.length === 0 ? 1 : (world.events[world.events.length - 1]?.seq ?? 0) + 1;
  world.events.push({
    seq,
    event,
    action,
    delivery: createHash('sha256').update(`${world.seed}:${seq}`).digest('hex').slice(0, 32),
    at: world.now(),
    payload: fitted,
  });
}
