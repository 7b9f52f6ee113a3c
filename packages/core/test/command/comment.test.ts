/**
 * GitHub's edit record, judged (command/comment.ts): a comment is unedited only on a positive answer;
 * every other shape of answer — edited, missing, unknown — counts as edited.
 */
import { describe, expect, it } from '@jest/globals';
import { judgeEditRecord } from '../../src/command/comment.js';

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
