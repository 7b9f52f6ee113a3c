/**
 * GitHub's edit record, judged (command/comment.ts): a comment is unedited only on a positive answer;
 * every other shape of answer — edited, missing, unknown — counts as edited.
 */
import { describe, expect, it } from '@jest/globals';
import { COMMENT_EDITS_QUERY, judgeEditRecord, readEditRecord } from '../../src/command/comment.js';
import { parse, validate } from 'graphql';
import { githubSchema } from '@writ/github-emulator/graphql.js';
import { WritError } from '../../src/errors.js';
import type { GitHubClient } from '../../src/github/client.js';

const UNEDITED = {
  node: {
    __typename: 'IssueComment',
    databaseId: 42,
    lastEditedAt: null,
    includesCreatedEdit: false,
    userContentEdits: { totalCount: 0 },
  },
};
const node = UNEDITED.node;

describe('judgeEditRecord', () => {
  it('accepts the answer for a never-edited comment', () => {
    expect(judgeEditRecord(UNEDITED, 42)).toEqual({ edited: false });
  });

  it.each<[string, unknown]>([
    ['an edit time', { node: { ...node, lastEditedAt: '2026-12-02T10:00:00Z' } }],
    ['the created revision recorded', { node: { ...node, includesCreatedEdit: true } }],
    ['recorded revisions', { node: { ...node, userContentEdits: { totalCount: 2 } } }],
    // Missing or unknown: fail safe.
    ['no data', null],
    ['data without a node', {}],
    ['a null node (deleted, or not resolvable)', { node: null }],
    ['another type', { node: { ...node, __typename: 'PullRequestReviewComment' } }],
    ['another comment', { node: { ...node, databaseId: 43 } }],
    ['no databaseId', { node: { ...node, databaseId: null } }],
    ['lastEditedAt absent', { node: { ...node, lastEditedAt: undefined } }],
    ['lastEditedAt not a string', { node: { ...node, lastEditedAt: 0 } }],
    ['includesCreatedEdit absent', { node: { ...node, includesCreatedEdit: undefined } }],
    ['includesCreatedEdit null', { node: { ...node, includesCreatedEdit: null } }],
    ['a null edit connection', { node: { ...node, userContentEdits: null } }],
    ['no edit connection', { node: { ...node, userContentEdits: undefined } }],
    ['a null total', { node: { ...node, userContentEdits: { totalCount: null } } }],
    ['a negative total', { node: { ...node, userContentEdits: { totalCount: -1 } } }],
    ['a string total', { node: { ...node, userContentEdits: { totalCount: '0' } } }],
    ['a fractional total', { node: { ...node, userContentEdits: { totalCount: 0.5 } } }],
    ['an array node', { node: [node] }],
  ])('treats an answer with %s as edited', (_name, data) => {
    const verdict = judgeEditRecord(data, 42);
    expect(verdict.edited).toBe(true);
    expect(verdict).toMatchObject({ why: expect.stringMatching(/^comment 42 /) });
  });
});

describe('readEditRecord', () => {
  const comment = {
    id: 42,
    node_id: 'IC_42',
    created_at: '2026-12-02T10:00:00Z',
    updated_at: '2026-12-02T10:00:00Z',
    user: { id: 7, login: 'octocat', type: 'User' },
    body: 'writ: cancel run-1',
    html_url: 'x',
  };
  /** A client whose only request answers `answer` (or throws it): the GraphQL read alone, in isolation. */
  function answering(answer: unknown, fails = false): GitHubClient & { sent: unknown[] } {
    const sent: unknown[] = [];
    const request = async (route: string, parameters: unknown): Promise<unknown> => {
      sent.push([route, parameters]);
      if (fails) throw answer;
      return Promise.resolve({ data: answer });
    };
    return { request, sent } as unknown as GitHubClient & { sent: unknown[] };
  }

  it('asks GitHub for the comment node by its node ID and accepts a never-edited answer', async () => {
    const github = answering({ data: UNEDITED });
    expect(await readEditRecord(github, comment)).toEqual({ edited: false });
    expect(github.sent).toEqual([
      ['POST /graphql', { query: COMMENT_EDITS_QUERY, variables: { id: 'IC_42' } }],
    ]);
  });

  it('is edited when REST already shows an edit, whatever GraphQL says', async () => {
    const github = answering({ data: UNEDITED });
    expect(await readEditRecord(github, { ...comment, updated_at: '2026-12-02T10:00:01Z' })).toMatchObject({
      edited: true,
    });
  });

  it('is edited without a node ID to ask about', async () => {
    const github = answering({ data: UNEDITED });
    expect(await readEditRecord(github, { ...comment, node_id: '' })).toMatchObject({ edited: true });
    expect(github.sent).toEqual([]);
  });

  it.each<[string, unknown, boolean]>([
    [
      'GraphQL errors in a 200 answer',
      { data: UNEDITED, errors: [{ type: 'FORBIDDEN', message: 'x' }] },
      false,
    ],
    ['a GraphQL error without a type', { data: null, errors: [{ message: 'Something went wrong' }] }, false],
    ['a transport failure', new Error('socket hang up'), true],
    ['an HTTP 502', Object.assign(new Error('Bad Gateway'), { status: 502 }), true],
  ])('refuses %s as github-request-failed, judging nothing', async (_name, answer, fails) => {
    await expect(readEditRecord(answering(answer, fails), comment)).rejects.toMatchObject({
      code: 'github-request-failed',
    });
  });

  it('never echoes an error type that is not a plain GraphQL type name', async () => {
    const github = answering({ data: null, errors: [{ type: 'ghp_' + 'x'.repeat(36) }] });
    const error = await readEditRecord(github, comment).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WritError);
    expect((error as WritError).message).not.toContain('ghp_');
  });
});

describe('COMMENT_EDITS_QUERY', () => {
  it("validates against GitHub's published schema (@octokit/graphql-schema)", () => {
    expect(validate(githubSchema(), parse(COMMENT_EDITS_QUERY)).map((error) => error.message)).toEqual([]);
  });
});
