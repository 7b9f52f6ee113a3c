import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_ALLOWED_ROLES,
  approvalCommentId,
  parseAllowedRoles,
  requireAllowedRole,
  requireHumanAuthor,
  requireUnedited,
} from '../../src/approval/authorize.js';
import { codeOf } from '../support/code-of.js';

describe('approval trigger', () => {
  it('takes the comment ID of a created issue comment', () => {
    expect(
      approvalCommentId({ eventName: 'issue_comment', payload: { action: 'created', comment: { id: 42 } } }),
    ).toBe(42);
  });

  it.each([
    ['schedule', { schedule: '0 * * * *' }],
    ['issues', { action: 'labeled', label: { name: 'approve' } }],
    ['push', { ref: 'refs/heads/main' }],
    ['workflow_dispatch', { inputs: {} }],
    ['pull_request', { action: 'opened' }],
    ['issue_comment', { action: 'edited', comment: { id: 42 } }],
    ['issue_comment', { action: 'deleted', comment: { id: 42 } }],
    ['issue_comment', { action: 'created' }],
    ['issue_comment', { action: 'created', comment: { id: '42' } }],
    ['issue_comment', null],
  ])('refuses a %s event (%j) with unauthorized-approval', (eventName, payload) => {
    expect(codeOf(() => approvalCommentId({ eventName, payload }))).toBe('unauthorized-approval');
  });
});

describe('approver', () => {
  const human = { id: 7, login: 'octocat', type: 'User' };
  it('accepts a human account', () => {
    expect(requireHumanAuthor(human, 'writ-app[bot]')).toBe(human);
  });

  it.each([
    [{ id: 8, login: 'writ-app[bot]', type: 'Bot' }],
    [{ id: 9, login: 'other-app[bot]', type: 'Bot' }],
    [{ id: 10, login: 'github-actions[bot]', type: 'Bot' }],
    [{ id: 11, login: 'looks-human[bot]', type: 'User' }],
    [{ id: 12, login: 'WRIT-APP[bot]', type: 'User' }],
    [{ id: 13, login: 'acme', type: 'Organization' }],
    [{ id: 14, login: 'ghost-import', type: 'Mannequin' }],
    [null],
  ])('refuses %j', (author) => {
    expect(codeOf(() => requireHumanAuthor(author, 'writ-app[bot]'))).toBe('unauthorized-approval');
  });

  it('refuses a comment its edit record shows edited, and only then', () => {
    const comment = {
      id: 1,
      node_id: 'IC_1',
      created_at: '2026-11-30T08:00:00Z',
      updated_at: '2026-11-30T08:00:00Z',
      user: human,
      html_url: 'x',
    };
    expect(codeOf(() => requireUnedited({ comment, edits: { edited: true, why: 'edited' } }))).toBe(
      'approval-comment-edited',
    );
    expect(codeOf(() => requireUnedited({ comment, edits: { edited: false } }))).toBeUndefined();
  });

  it.each(['admin', 'maintain', 'write'])('allows role %s by default', (role) => {
    expect(requireAllowedRole(role, DEFAULT_ALLOWED_ROLES, 7)).toBe(role);
  });

  it.each(['triage', 'read', 'none', undefined, 'Write', 'writer'])('refuses role %j by default', (role) => {
    expect(codeOf(() => requireAllowedRole(role, DEFAULT_ALLOWED_ROLES, 7))).toBe('insufficient-permission');
  });

  it('allows listed custom roles', () => {
    const roles = parseAllowedRoles('admin, release manager ,maintain');
    expect(roles).toEqual(['admin', 'release manager', 'maintain']);
    expect(requireAllowedRole('release manager', roles, 7)).toBe('release manager');
    expect(codeOf(() => parseAllowedRoles(' , '))).toBe('invalid-input');
    expect(codeOf(() => parseAllowedRoles('admin,<script>'))).toBe('invalid-input');
  });
});
