/**
 * conditionalReads against the emulator (ETags and 304s as GitHub documents them): a re-read of an
 * unchanged polling listing is a 304 that costs no rate limit and yields the same data; a change is a
 * full read; other routes are never conditional; one client's cache never serves another token.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEmulator } from '@writ/github-emulator/index.js';
import type { Emulator } from '@writ/github-emulator/index.js';
import { createGitHubClient, loopbackTimings } from '../../src/github/client.js';

let emulator: Emulator;
const repo = { owner: 'alice', repo: 'repo' };

beforeAll(async () => {
  emulator = await startEmulator({ seed: 5 });
  emulator.admin.createUser({ login: 'alice' });
  emulator.admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
  emulator.admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'x\n' } });
});

afterAll(async () => {
  await emulator.close();
});

let count = 0;
function client(conditionalReads = true) {
  count += 1;
  return createGitHubClient('alice-pat', {
    baseUrl: emulator.url,
    ...loopbackTimings(5),
    throttleId: `conditional-${process.pid}-${count}`,
    conditionalReads,
  });
}

const statuses = (since: number): (number | string)[] =>
  emulator.admin
    .requests()
    .filter((entry) => entry.seq > since)
    .map((entry) => entry.status);
const lastSeq = (): number => emulator.admin.requests().at(-1)?.seq ?? 0;

describe('conditionalReads', () => {
  it('re-reads an unchanged listing as a 304 at no rate-limit cost, and a changed one in full', async () => {
    const github = client();
    const { data: issue } = await github.rest.issues.create({ ...repo, title: 'polled' });
    await github.rest.issues.createComment({ ...repo, issue_number: issue.number, body: 'one' });
    const first = await github.rest.issues.listComments({
      ...repo,
      issue_number: issue.number,
      per_page: 100,
    });
    const mark = lastSeq();
    const again = await github.rest.issues.listComments({
      ...repo,
      issue_number: issue.number,
      per_page: 100,
    });
    expect(statuses(mark)).toEqual([304]);
    const seen = lastSeq();
    expect(again.data).toEqual(first.data);
    again.data.pop();
    const third = await github.rest.issues.listComments({
      ...repo,
      issue_number: issue.number,
      per_page: 100,
    });
    expect(third.data).toEqual(first.data);
    expect(statuses(seen)).toEqual([304]);
    expect(again.status).toBe(200);
    const limit = await github.rest.rateLimit.get();
    const used = limit.data.resources.core.used;
    await github.rest.issues.listComments({ ...repo, issue_number: issue.number, per_page: 100 });
    // Neither the 304 nor GET /rate_limit itself counts against the primary limit.
    expect((await github.rest.rateLimit.get()).data.resources.core.used).toBe(used);
    await github.rest.issues.createComment({ ...repo, issue_number: issue.number, body: 'two' });
    const changed = lastSeq();
    const fresh = await github.rest.issues.listComments({
      ...repo,
      issue_number: issue.number,
      per_page: 100,
    });
    expect(statuses(changed)).toEqual([200]);
    expect(fresh.data.map((entry) => entry.body)).toEqual(['one', 'two']);
    // The issue listing is conditional too, per query (another page or filter is another entry).
    await github.rest.issues.listForRepo({ ...repo, state: 'all', per_page: 100 });
    const issues = lastSeq();
    await github.rest.issues.listForRepo({ ...repo, state: 'all', per_page: 100 });
    await github.rest.issues.listForRepo({ ...repo, state: 'open', per_page: 100 });
    expect(statuses(issues)).toEqual([304, 200]);
  });

  it('leaves other reads unconditional, is off unless asked for, and keeps each client to its own cache', async () => {
    const github = client();
    await github.rest.issues.get({ ...repo, issue_number: 1 });
    const mark = lastSeq();
    await github.rest.issues.get({ ...repo, issue_number: 1 });
    expect(statuses(mark)).toEqual([200]);
    count += 1;
    const off = createGitHubClient('alice-pat', {
      baseUrl: emulator.url,
      ...loopbackTimings(5),
      throttleId: `conditional-${process.pid}-${count}`,
    });
    await off.rest.issues.listComments({ ...repo, issue_number: 1 });
    const offMark = lastSeq();
    await off.rest.issues.listComments({ ...repo, issue_number: 1 });
    expect(statuses(offMark)).toEqual([200]);
    const other = client();
    const otherMark = lastSeq();
    await other.rest.issues.listComments({ ...repo, issue_number: 1 });
    expect(statuses(otherMark)).toEqual([200]);
  });
});
