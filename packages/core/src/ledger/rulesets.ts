/**
 * The two rulesets that make the ledger branch append-only even for the Writ app's own token.
 *
 * A bypass actor is exempt from every rule of its ruleset, so the app (which must bypass the update
 * restriction to write at all) must not sit in the ruleset that blocks deletion and non-fast-forward:
 *  - `writ-ledger-append-only`: deletion + non_fast_forward, with NO bypass actors at all;
 *  - `writ-ledger-writers`: update, with the Writ app as its only bypass actor.
 * Both must exist, be active, and be unchanged since the ledger root commit. `ledgerRulesets` is the
 * one definition bootstrap prints, the emulator worlds install and doctor compares against.
 */
import { WritError } from '../errors.js';
import type { BranchRule, LedgerStore, RulesetInfo } from './store.js';
import type { LedgerApp } from './types.js';

/** A ruleset as `POST /repos/{owner}/{repo}/rulesets` takes it. */
export interface RulesetDefinition {
  name: string;
  target: 'branch';
  enforcement: 'active';
  conditions: { ref_name: { include: string[]; exclude: string[] } };
  rules: { type: string }[];
  bypass_actors: { actor_id: number; actor_type: 'Integration'; bypass_mode: 'always' }[];
}

/** The two rulesets the ledger branch needs, in the REST API's create format. */
export function ledgerRulesets(branch: string, appId: number): [RulesetDefinition, RulesetDefinition] {
  const conditions = { ref_name: { include: [`refs/heads/${branch}`], exclude: [] } };
  return [
    {
      name: 'writ-ledger-append-only',
      target: 'branch',
      enforcement: 'active',
      conditions,
      rules: [{ type: 'deletion' }, { type: 'non_fast_forward' }],
      bypass_actors: [],
    },
    {
      name: 'writ-ledger-writers',
      target: 'branch',
      enforcement: 'active',
      conditions,
      rules: [{ type: 'update' }],
      bypass_actors: [{ actor_id: appId, actor_type: 'Integration', bypass_mode: 'always' }],
    },
  ];
}

function unproven(rule: string, details: Record<string, string | number | boolean> = {}): WritError {
  return new WritError('ledger-provenance-unproven', rule, { details });
}

/** Which of the three rules a ruleset can stand for, given who may bypass it. */
function standsFor(ruleset: RulesetInfo, types: ReadonlySet<string>, app: LedgerApp): string[] {
  const actors = ruleset.bypassActors ?? [];
  if (actors.length === 0) return ['deletion', 'non_fast_forward', 'update'].filter((t) => types.has(t));
  const onlyApp = actors.every((actor) => actor.actorType === 'Integration' && actor.actorId === app.id);
  return onlyApp && types.has('update') ? ['update'] : [];
}

export interface RulesetCheck {
  rulesetIds: number[];
  requests: number;
}

/**
 * Proves the branch's rules: deletion and non_fast_forward each come from an active ruleset with no
 * bypass actor; update from an active ruleset whose only bypass actor is the ledger app; and every
 * ruleset relied on is unchanged since the root commit. Anything short of that fails closed.
 */
export async function checkRulesets(
  store: LedgerStore,
  app: LedgerApp,
  rootCommittedAt: number | null,
  /** The branch's rules as the ledger read already returned them (`Ref.rules`), complete; else listed here. */
  listed?: readonly BranchRule[] | null,
): Promise<RulesetCheck> {
  let requests = listed == null ? 1 : 0;
  const rules = listed ?? (await store.branchRules());
  const typesById = new Map<number, Set<string>>();
  for (const rule of rules) {
    const types = typesById.get(rule.rulesetId) ?? new Set<string>();
    types.add(rule.type);
    typesById.set(rule.rulesetId, types);
  }
  const relevant = [...typesById]
    .filter(([, types]) => types.has('deletion') || types.has('non_fast_forward') || types.has('update'))
    .sort(([a], [b]) => a - b);
  const covered = new Map<string, number>();
  const problems: string[] = [];
  for (const [id, types] of relevant) {
    requests += 1;
    const ruleset = await store.ruleset(id);
    if (ruleset.enforcement !== 'active') continue;
    if (ruleset.bypassActors === null) {
      throw unproven(
        `Ruleset ${id}'s bypass actors are not visible to this token, so the ledger branch cannot be proven append-only (the app needs administration read access).`,
        { ruleset: id },
      );
    }
    const stands = standsFor(ruleset, types, app);
    if (stands.length === 0) {
      problems.push(
        `ruleset ${id} has bypass actors, so its ${[...types].sort().join('/')} rules bind nobody who matters`,
      );
      continue;
    }
    // Compared in whole seconds: git commit dates have no milliseconds.
    if (
      rootCommittedAt !== null &&
      ruleset.updatedAt !== null &&
      Math.floor(ruleset.updatedAt / 1000) > Math.floor(rootCommittedAt / 1000)
    ) {
      throw unproven(
        `Ruleset ${id} was created or changed after the ledger root commit; the owner must re-provision the ledger (writ bootstrap on a new branch).`,
        { ruleset: id },
      );
    }
    for (const type of stands) if (!covered.has(type)) covered.set(type, id);
  }
  for (const [type, needs] of [
    ['deletion', 'an active ruleset with no bypass actors blocking deletion'],
    ['non_fast_forward', 'an active ruleset with no bypass actors blocking non-fast-forward updates'],
    ['update', 'an active ruleset restricting updates with the ledger app as its only bypass actor'],
  ] as const) {
    if (!covered.has(type)) {
      throw unproven(
        `The ledger branch ${store.location.branch} lacks ${needs}${problems.length > 0 ? ` (${problems.join('; ')})` : ''}; see writ bootstrap for the two rulesets.`,
        { rule: type },
      );
    }
  }
  return { rulesetIds: [...new Set(covered.values())].sort((a, b) => a - b), requests };
}
