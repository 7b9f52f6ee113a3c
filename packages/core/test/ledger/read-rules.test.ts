/**
 * The ledger read's `Ref.rules` (the branch's active rules, folded into the one GraphQL read) is used
 * only when GitHub's answer is complete and exact; anything else leaves the ruleset check to REST's
 * rules list, so an answer Writ cannot fully read never stands for "no rules" or "these rules only".
 */
import { describe, expect, it } from '@jest/globals';
import type { GitHubClient } from '../../src/github/client.js';
import { GitHubLedgerStore, readQuery } from '../../src/ledger/read.js';
import { checkRulesets } from '../../src/ledger/rulesets.js';
import type { BranchRule, RulesetInfo } from '../../src/ledger/store.js';

const location = { owner: 'acme', repo: 'widgets', branch: 'bot/writ-ledger' };
const DATE = 'Tue, 01 Dec 2026 10:00:00 GMT';

/** A client whose every GraphQL request is answered with `body`; REST requests are recorded. */
function answering(body: unknown): { github: GitHubClient; routes: string[] } {
  const routes: string[] = [];
  const github = {
    request: (route: string) => {
      routes.push(route);
      return Promise.resolve({ data: body, headers: { date: DATE } });
    },
  } as unknown as GitHubClient;
  return { github, routes };
}

function refWith(rules: unknown): unknown {
  return { data: { repository: { ref: { rules, target: { oid: 'a'.repeat(40) } } } } };
}

const rule = (type: string, databaseId: unknown) => ({ type, repositoryRuleset: { databaseId } });

async function rulesRead(body: unknown): Promise<BranchRule[] | null | undefined> {
  const store = new GitHubLedgerStore(answering(body).github, location);
  const snapshot = await store.read({ paths: [], historyFirst: 0, withRules: true });
  return snapshot?.rules;
}

describe('the ledger read’s branch rules', () => {
  it('asks for them only when asked, in the one read', () => {
    expect(readQuery({ paths: [], historyFirst: 0 })).not.toContain('rules(');
    expect(readQuery({ paths: [], historyFirst: 0, withRules: true })).toContain(
      'rules(first: 100) { pageInfo { hasNextPage } nodes { type repositoryRuleset { databaseId } } }',
    );
  });

  it('takes a complete answer, with the REST names of the rule types', async () => {
    expect(
      await rulesRead(
        refWith({
          pageInfo: { hasNextPage: false },
          nodes: [rule('NON_FAST_FORWARD', 7), rule('UPDATE', 8)],
        }),
      ),
    ).toEqual([
      { type: 'non_fast_forward', rulesetId: 7, rulesetSourceType: 'unknown' },
      { type: 'update', rulesetId: 8, rulesetSourceType: 'unknown' },
    ]);
    expect(await rulesRead(refWith({ pageInfo: { hasNextPage: false }, nodes: [] }))).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['another page of rules', refWith({ pageInfo: { hasNextPage: true }, nodes: [rule('DELETION', 7)] })],
    ['no page info', refWith({ nodes: [rule('DELETION', 7)] })],
    [
      'a rule whose ruleset the token cannot see',
      refWith({ pageInfo: { hasNextPage: false }, nodes: [rule('DELETION', null)] }),
    ],
    [
      'a rule with no ruleset',
      refWith({ pageInfo: { hasNextPage: false }, nodes: [{ type: 'DELETION', repositoryRuleset: null }] }),
    ],
    ['a rule that is null', refWith({ pageInfo: { hasNextPage: false }, nodes: [null] })],
    ['no rules field', refWith(null)],
    [
      'an error on the rules field (the read itself stands)',
      {
        ...(refWith(null) as object),
        errors: [{ type: 'FORBIDDEN', path: ['repository', 'ref', 'rules'], message: 'no' }],
      },
    ],
  ])('is not used (null: the check lists them by REST) given %s', async (_what, body) => {
    expect(await rulesRead(body)).toBeNull();
  });

  it('still fails the read on an error anywhere else', async () => {
    const body = {
      ...(refWith({ pageInfo: { hasNextPage: false }, nodes: [] }) as object),
      errors: [{ type: 'FORBIDDEN', path: ['repository', 'ref', 'target'], message: 'no' }],
    };
    await expect(rulesRead(body)).rejects.toMatchObject({ code: 'github-request-failed' });
  });

  it('the ruleset check lists the rules by REST when the read’s are null, and uses them otherwise', async () => {
    const app = { slug: 'writ', id: 9 };
    const rulesets: Record<number, RulesetInfo> = {
      7: { id: 7, enforcement: 'active', updatedAt: 0, bypassActors: [] },
      8: {
        id: 8,
        enforcement: 'active',
        updatedAt: 0,
        bypassActors: [{ actorId: 9, actorType: 'Integration', bypassMode: 'always' }],
      },
    };
    const listed: BranchRule[] = [
      { type: 'deletion', rulesetId: 7, rulesetSourceType: 'Repository' },
      { type: 'non_fast_forward', rulesetId: 7, rulesetSourceType: 'Repository' },
      { type: 'update', rulesetId: 8, rulesetSourceType: 'Repository' },
    ];
    let restLists = 0;
    const store = {
      location,
      branchRules: () => ((restLists += 1), Promise.resolve(listed)),
      ruleset: (id: number) => Promise.resolve(rulesets[id]!),
    } as unknown as Parameters<typeof checkRulesets>[0];
    expect((await checkRulesets(store, app, null, null)).requests).toBe(3);
    expect(restLists).toBe(1);
    expect((await checkRulesets(store, app, null, listed)).requests).toBe(2);
    expect(restLists).toBe(1);
    // Rules the read returned are held to the same rules: a missing deletion rule is refused.
    await expect(checkRulesets(store, app, null, listed.slice(1))).rejects.toMatchObject({
      code: 'ledger-provenance-unproven',
    });
  });
});
