/**
 * The stages' `project` input, parsed in one place: `OWNER/NUMBER` or empty (off); anything else is
 * `invalid-input`, its value quoted escaped in the message.
 */
import { describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { parseProjectInput } from '../../src/projects/target.js';

describe('parseProjectInput', () => {
  it('empty is off', () => {
    expect(parseProjectInput('')).toBeNull();
    expect(parseProjectInput('  ')).toBeNull();
  });

  it('OWNER/NUMBER names the project', () => {
    expect(parseProjectInput('acme/3')).toEqual({ owner: 'acme', number: 3 });
    expect(parseProjectInput(' writ-board/120 ')).toEqual({ owner: 'writ-board', number: 120 });
  });

  it.each([
    'acme',
    'acme/0',
    'acme/-1',
    'acme/03',
    '/3',
    '-acme/3',
    'ac--me/3',
    'acme/3/4',
    'a'.repeat(40) + '/1',
    'acme/1234567890',
    'acme/3\u202e',
    'https://github.com/orgs/acme/projects/3',
  ])('refuses %j as invalid-input', (value) => {
    let thrown: unknown;
    try {
      parseProjectInput(value);
    } catch (error: unknown) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WritError);
    expect((thrown as WritError).code).toBe('invalid-input');
    expect((thrown as WritError).message).not.toMatch(/[\u202e]/);
  });
});
