/**
 * The Writ app's own token against its ledger, under the two rulesets (issue 9): GitHub (the emulator)
 * refuses every rewrite and deletion of the branch even to the app, and a run-file commit the app
 * token forges fails `writ ledger verify` and every gate (consume-approval, claim-checkpoint,
 * publish-artifact), which write nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@writ/cli/cli.js';
import { consumeApprovalComment } from '@writ/core/approval/consume-approval.js';
import { runFilePath } from '@writ/core/ledger/paths.js';
import type { RunFile } from '@writ/core/ledger/types.js';
import { silentLogger } from '@writ/core/redact.js';
import type { SliceWorld } from '../support/world.js';
import {
  APP_SLUG,
  APP_TOKEN,
  PEOPLE,
  client,
  planVariant,
  proposePlan,
  sliceWorld,
  requestLog,
} from '../support/world.js';

const OWNER = 'acme';
const REPO = 'widgets';
const BRANCH = 'bot/writ-ledger';
const JOB = { GITHUB_RUN_ID: '9100', GITHUB_RUN_ATTEMPT: '1' };

let world: SliceWorld;
const dir = mkdtempSync(join(tmpdir(), 'writ-forgery-'));

beforeAll(async () => {
  world = await sliceWorld({ seed: 21 });
});

afterAll(async () => {
  await world.close();
});

const { lastSeq, writesSince } = requestLog(() => world.emulator);

async function verifyCli(): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await runCli(
    ['ledger', 'verify'],
    {
      GITHUB_TOKEN: APP_TOKEN,
      GITHUB_API_URL: world.emulator.url,
      GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
      WRIT_APP_SLUG: APP_SLUG,
      WRIT_APP_ID: world.ledgerInputs()['ledger-app-id']!,
    },
    { stdout: () => undefined, stderr: (text) => (err += text) },
  );
  return { code, err };
}

describe('the app token against its own ledger', () => {
  const app = () => client(world.emulator, APP_TOKEN);
  let runId: string;
  let planFile: string;
  let approved: string;

  beforeAll(async () => {
    planFile = planVariant(dir, 'forgery', undefined, 'Forgery target');
    const proposed = await proposePlan(world, planFile);
    runId = proposed.runId;
    const comment = await world.comment({ login: PEOPLE.write }, proposed.command);
    await consumeApprovalComment(
      { github: app(), ledger: world.ledger, logger: silentLogger },
      {
        repository: { owner: OWNER, repo: REPO },
        commentId: (comment.comment as { id: number }).id,
        commandPrefix: 'writ',
        allowedRoles: ['admin', 'maintain', 'write'],
        appBotLogin: `${APP_SLUG}[bot]`,
        planFile,
        holder: { workflow_run_id: 9100, attempt: 1 },
        requireDistinctApprover: false,
      },
    );
    approved = await world.head();
    expect((await verifyCli()).code).toBe(0);
  });

  it('cannot force the branch back, delete it, or move it through GraphQL: the append-only ruleset has no bypass', async () => {
    const { data: head } = await app().rest.git.getCommit({ owner: OWNER, repo: REPO, commit_sha: approved });
    const parent = head.parents[0]!.sha;
    const seq = lastSeq();
    await expect(
      app().rest.git.updateRef({
        owner: OWNER,
        repo: REPO,
        ref: `heads/${BRANCH}`,
        sha: parent,
        force: true,
      }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      app().rest.git.deleteRef({ owner: OWNER, repo: REPO, ref: `heads/${BRANCH}` }),
    ).rejects.toMatchObject({ status: 422 });
    const { data: repository } = await app().rest.repos.get({ owner: OWNER, repo: REPO });
    const answer = await app().request('POST /graphql', {
      query: `mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId } }`,
      variables: {
        input: {
          repositoryId: repository.node_id,
          refUpdates: [{ name: `refs/heads/${BRANCH}`, afterOid: parent, beforeOid: approved, force: true }],
        },
      },
    });
    expect(JSON.stringify(answer.data)).toMatch(
      /Cannot force-push to this branch|Repository rule violations/,
    );
    expect(await world.head()).toBe(approved);
    expect(writesSince(seq).filter((w) => !w.includes('graphql'))).toHaveLength(2);
  });

  it('forges a run-file commit that puts the approval back; verify and every gate refuse and write nothing', async () => {
    const path = runFilePath(`${OWNER}/${REPO}`, runId);
    const run = (await world.runFile(runId)) as RunFile;
    const reset = { ...run, state: 'proposed', approval: null, owner: null };
    const { data } = await app().request('POST /graphql', {
      query: `mutation($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }`,
      variables: {
        input: {
          branch: { repositoryNameWithOwner: `${OWNER}/${REPO}`, branchName: BRANCH },
          expectedHeadOid: approved,
          message: {
            headline: `writ ledger: status ${runId} (epoch 1)`,
            body: `Writ-Transition: status\nWrit-Run: ${runId}\nWrit-Repository: ${OWNER}/${REPO}\nWrit-Epoch: 1\nWrit-Transition-Id: 00000000-0000-0000-0000-000000000000.1`,
          },
          fileChanges: {
            additions: [
              { path, contents: Buffer.from(`${JSON.stringify(reset, null, 2)}\n`).toString('base64') },
            ],
          },
        },
      },
    });
    expect(JSON.stringify(data)).toContain('"oid"');
    const forged = await world.head();
    expect(forged).not.toBe(approved);

    const verify = await verifyCli();
    expect(verify.code).toBe(1);
    expect(verify.err).toMatch(
      /^ledger-provenance-unproven: Ledger commit [0-9a-f]{40} is not a legal transition/,
    );

    const seq = lastSeq();
    // A second approval comment for the "proposed" run: consume-approval must not consume it again.
    const event = await world.comment(
      { login: PEOPLE.maintain },
      `writ: approve ${runId} ${run.plan_digest.slice(7)}`,
    );
    const afterComment = lastSeq();
    const consume = await world.run(
      'consume-approval',
      { 'plan-file': planFile, 'dry-run': 'false', ...world.ledgerInputs() },
      { event, env: JOB },
    );
    expect(consume.outputs).toMatchObject({ outcome: 'refused', reason: 'ledger-provenance-unproven' });
    const claim = await world.run(
      'claim-checkpoint',
      {
        'run-id': runId,
        epoch: '1',
        operation: 'claim',
        'step-id': run.steps[0]!.id,
        'dry-run': 'false',
        ...world.ledgerInputs(),
      },
      { env: JOB },
    );
    expect(claim.outputs).toMatchObject({ outcome: 'refused', reason: 'ledger-provenance-unproven' });
    const content = join(dir, 'content.md');
    writeFileSync(content, '# Forged\n');
    const publish = await world.run(
      'publish-artifact',
      {
        'run-id': runId,
        epoch: '1',
        'plan-file': planFile,
        path: 'docs/forged.md',
        'content-file': content,
        'dry-run': 'false',
        ...world.ledgerInputs(),
      },
      { env: { RUNNER_TEMP: dir } },
    );
    expect(publish.outputs).toMatchObject({ outcome: 'refused', reason: 'ledger-provenance-unproven' });
    expect(seq).toBeLessThan(afterComment);
    // Nothing but the comment's `eyes` (command/reactions.ts): an unproven ledger judges no command.
    expect(writesSince(afterComment)).toEqual([
      expect.stringMatching(/^POST \/repos\/[^/]+\/[^/]+\/issues\/comments\/\d+\/reactions $/),
    ]);
    expect(await world.head()).toBe(forged);
  });
});
