/**
 * The two rulesets that make the ledger branch append-only even for the Writ app's own token.
 *
 * A bypass actor is exempt from every rule of its ruleset, so the app (which must bypass the update
 * restriction to write at all) must not sit in the ruleset that blocks deletion and non-fast-forward:
 *  - `writ-ledger-append-only`: deletion + non_fast_forward, with NO bypass actors at all;
 *  - `writ-ledger-writers`: update, with the Writ app as its only bypass actor.
 * Both must exist, be active, and be unchanged since the ledger root commit. `ledgerRulesets` is the
 * one definition bootstrap prints, the emulator worlds install and doctor compares against.
 *
 * Pinned at the root: bootstrap records in ledger-root.json each protecting ruleset's ID, `updated_at`
 * and a digest of its content (`rulesetDigest`), and every later check holds the branch to exactly
 * those rulesets. Rules of several rulesets aggregate (a ref change must pass each), and a bypass actor
 * is exempt only from its own ruleset, so a ruleset that is NOT pinned can only add restrictions: it is
 * not read and never refuses the ledger. A pinned ruleset that is gone, no longer applies to the branch
 * (deleted, enforcement `evaluate` or `disabled`, conditions narrowed: GitHub lists only active rules
 * that cover the branch), or whose `updated_at` or content differs (a bypass actor added, a rule
 * removed, anything else) makes the ledger `ledger-provenance-unproven`: the history may have been
 * rewritten while it was relaxed, whatever it says now. The same holds for an organization ruleset
 * (read through the repository endpoint, whose `includes_parents` defaults to true; its `source_type`
 * and `source` are part of the digest).
 */
import { digest } from '../canonical-json.js';
import { WritError } from '../errors.js';
import type { BranchRule, LedgerStore, RulesetInfo } from './store.js';
import type { LedgerApp, RulesetPin } from './types.js';

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
  /** The rulesets relied on, as the root pins them (what bootstrap writes into ledger-root.json). */
  pins: RulesetPin[];
}

function sortedBy<T>(values: readonly T[]): T[] {
  return [...values].sort((a, b) => {
    const x = digest(a);
    const y = digest(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * The digest of what a ruleset says: its target, source, enforcement, conditions, rules and bypass
 * actors, in canonical JSON with the order-free lists sorted (GitHub may list them in any order).
 * Names, links, node IDs, dates and `current_user_can_bypass` are left out; `updated_at` is pinned apart.
 */
export function rulesetDigest(ruleset: RulesetInfo): string {
  const content = ruleset.content ?? {
    enforcement: ruleset.enforcement,
    bypass_actors: (ruleset.bypassActors ?? []).map((actor) => ({
      actor_id: actor.actorId,
      actor_type: actor.actorType,
      bypass_mode: actor.bypassMode,
    })),
  };
  const normal: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(content)) {
    if (value === undefined) continue;
    normal[key] =
      (key === 'rules' || key === 'bypass_actors') && Array.isArray(value) ? sortedBy(value) : value;
  }
  return digest(normal);
}

function pinOf(ruleset: RulesetInfo): RulesetPin {
  return {
    id: ruleset.id,
    updated_at: ruleset.updatedAt === null ? null : new Date(ruleset.updatedAt).toISOString(),
    digest: rulesetDigest(ruleset),
  };
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
  /**
   * The rulesets the ledger root pinned: only these are relied on, and each must still apply to the
   * branch, unchanged. Absent (a root made before pins, or before any root): the rulesets on the
   * branch are judged as they are, and one changed after `rootCommittedAt` is not relied on.
   */
  pins?: readonly RulesetPin[] | null,
): Promise<RulesetCheck> {
  let requests = listed == null ? 1 : 0;
  const rules = listed ?? (await store.branchRules());
  const typesById = ruleTypesByRuleset(rules);
  const relevant = [...typesById]
    .filter(([, types]) => types.has('deletion') || types.has('non_fast_forward') || types.has('update'))
    .sort(([a], [b]) => a - b);
  const covered = new Map<string, number>();
  const problems: string[] = [];
  const used = new Map<number, RulesetPin>();
  const pinned = pins == null ? null : new Map(pins.map((pin) => [pin.id, pin]));
  if (pinned !== null) refuseUnappliedPins(store, pinned, typesById);
  for (const [id, types] of relevant) {
    // A ruleset the root did not pin only adds restrictions: it is neither read nor relied on.
    if (pinned !== null && !pinned.has(id)) continue;
    requests += 1;
    const ruleset = await store.ruleset(id);
    refuseUnreadableOrChanged(store, ruleset, pinned?.get(id));
    if (ruleset.enforcement !== 'active') continue;
    const stands = standsFor(ruleset, types, app);
    if (stands.length === 0) {
      problems.push(
        `ruleset ${id} has bypass actors, so its ${[...types].sort().join('/')} rules bind nobody who matters`,
      );
      continue;
    }
    // Without pins, a ruleset created or changed after the root is not relied on (an extra one is
    // harmless; a protecting one changed leaves its rule uncovered below). Compared in whole seconds:
    // git commit dates have no milliseconds.
    if (
      pinned === null &&
      rootCommittedAt !== null &&
      ruleset.updatedAt !== null &&
      Math.floor(ruleset.updatedAt / 1000) > Math.floor(rootCommittedAt / 1000)
    ) {
      problems.push(`ruleset ${id} was created or changed after the ledger root commit`);
      continue;
    }
    used.set(id, pinOf(ruleset));
    for (const type of stands) if (!covered.has(type)) covered.set(type, id);
  }
  requireCoverage(store, covered, problems);
  const rulesetIds = [...new Set(covered.values())].sort((a, b) => a - b);
  return {
    rulesetIds,
    requests,
    pins: rulesetIds.map((id) => used.get(id)).filter((pin): pin is RulesetPin => pin !== undefined),
  };
}

/** The rule types each ruleset applies to the branch. */
function ruleTypesByRuleset(rules: readonly BranchRule[]): Map<number, Set<string>> {
  const typesById = new Map<number, Set<string>>();
  for (const rule of rules) {
    const types = typesById.get(rule.rulesetId) ?? new Set<string>();
    types.add(rule.type);
    typesById.set(rule.rulesetId, types);
  }
  return typesById;
}

/** Every ruleset the root pinned must still apply to the branch. */
function refuseUnappliedPins(
  store: LedgerStore,
  pinned: ReadonlyMap<number, RulesetPin>,
  typesById: ReadonlyMap<number, Set<string>>,
): void {
  for (const pin of pinned.values()) {
    if (!typesById.has(pin.id)) {
      throw unproven(
        `Ruleset ${pin.id}, pinned by the ledger root as protecting ${store.location.branch}, no longer applies to it (deleted, set to evaluate or disabled, or its conditions no longer cover the branch); the owner must re-provision the ledger (writ bootstrap on a new branch).`,
        { ruleset: pin.id },
      );
    }
  }
}

/** A ruleset this token cannot see the bypass actors of, or (pinned) one changed since the root, fails closed. */
function refuseUnreadableOrChanged(
  store: LedgerStore,
  ruleset: RulesetInfo,
  pin: RulesetPin | undefined,
): void {
  const { id } = ruleset;
  // Before the pin comparison too: a pin's digest covers the bypass actors, so a token that cannot
  // see them would find every pinned ruleset "changed" and send the owner to re-provision for nothing.
  if (ruleset.bypassActors === null && (pin !== undefined || ruleset.enforcement === 'active')) {
    // GitHub returns bypass_actors only to a caller with write access to the ruleset (OpenAPI
    // `repository-ruleset`; github-api-facts.md §5): administration read is not enough.
    throw new WritError(
      'ruleset-bypass-unreadable',
      `Ruleset ${id} applies to ${store.location.branch}, but its bypass actors are not visible to this token (GitHub shows bypass_actors only to a token that can write rulesets), so the ledger branch cannot be proven append-only: grant the Writ app administration read and write, then run it again (the rulesets exist; do not recreate them).`,
      { details: { ruleset: id } },
    );
  }
  if (pin === undefined) return;
  const now = pinOf(ruleset);
  if (now.digest !== pin.digest || now.updated_at !== pin.updated_at) {
    throw unproven(
      `Ruleset ${id}, pinned by the ledger root, changed since the root commit (${now.digest !== pin.digest ? 'its content differs' : 'its updated_at moved'}); the owner must re-provision the ledger (writ bootstrap on a new branch).`,
      { ruleset: id },
    );
  }
}

/** Each of the three rule types is covered by a ruleset that binds, else the branch is not proven. */
function requireCoverage(
  store: LedgerStore,
  covered: ReadonlyMap<string, number>,
  problems: readonly string[],
): void {
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
}
