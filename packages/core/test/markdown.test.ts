/** markdown.ts: escaping untrusted text for the Markdown GitHub renders (summaries, comments). */
import { describe, expect, it } from '@jest/globals';
import { containsInvisible, escapeInline, fencedBlock } from '../src/markdown.js';

describe('escapeInline', () => {
  it('cuts at 200 code points unless told another length', () => {
    expect(escapeInline('a'.repeat(300))).toBe(`${'a'.repeat(200)}…`);
    expect(escapeInline('a'.repeat(200))).toBe('a'.repeat(200));
  });
});

describe('fencedBlock', () => {
  it('uses a fence no line inside can close', () => {
    const block = fencedBlock([' ```', '+````', '-<img src=x onerror=alert(1)>'], 'diff');
    const lines = block.split('\n');
    expect(lines[0]).toBe('`````diff');
    expect(lines.at(-1)).toBe('`````');
    expect(lines.slice(1, -1)).toEqual([' ```', '+````', '-<img src=x onerror=alert(1)>']);
  });

  it('shows bidi and control characters as U+FFFD and keeps tabs', () => {
    expect(fencedBlock(['+a\u202eb\tc\u001b[0m'])).toBe('```\n+a\ufffdb\tc\ufffd[0m\n```');
  });
});

describe('containsInvisible', () => {
  it.each(['\u202e', '\u200b', '\u0000', '\ufeff', '\u3164'])('finds %j', (c) => {
    expect(containsInvisible(`a${c}b`)).toBe(true);
  });
  it('passes visible text, repeatedly (no regex state)', () => {
    expect(containsInvisible('docs/café.md')).toBe(false);
    expect(containsInvisible('a\u202eb')).toBe(true);
    expect(containsInvisible('a\u202eb')).toBe(true);
  });
});
