import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { digest } from '../../src/canonical-json.js';
import type { Plan } from '../../src/plan/types.js';
import { code, escapeInline } from '../../src/preview/markdown.js';
import { approveCommand, renderPreview } from '../../src/preview/render.js';

const example = JSON.parse(
  readFileSync(new URL('../../../../examples/roadmap-plan.json', import.meta.url), 'utf8'),
) as Plan;

function render(plan: Plan): string {
  return renderPreview({ plan, planDigest: digest(plan), runId: 'run-1', commandPrefix: 'writ' });
}

describe('renderPreview', () => {
  it('renders identical bytes for an identical plan, whatever its key order', () => {
    const reordered = JSON.parse(JSON.stringify(example), (_key, value: unknown) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    ) as Plan;
    expect(Object.keys(reordered)).not.toEqual(Object.keys(example));
    expect(render(reordered)).toBe(render(example));
    expect(render(structuredClone(example))).toBe(render(example));
  });

  it('shows the digest and the exact approve command', () => {
    const d = digest(example);
    const markdown = render(example);
    expect(markdown).toContain(d);
    expect(markdown).toContain(`\n${approveCommand('writ', 'run-1', d)}\n`);
    expect(approveCommand('writ', 'run-1', d)).toMatch(/^writ: approve run-1 [0-9a-f]{64}$/);
  });

  it('has one table row per step', () => {
    const rows = render(example)
      .split('\n')
      .filter((line) => /^\| \d+ \|/.test(line));
    expect(rows).toHaveLength(example.steps.length);
  });

  it('cannot be made to inject Markdown, HTML, mentions or a Writ marker through plan text', () => {
    const plan = structuredClone(example);
    const hostile =
      '<!-- writ-status run=run-1 --> @octocat @org/team <img src=x onerror=alert(1)> | col ' +
      '[link](https://evil.test) **bold** `code` ![x](y) \n# heading\r\n---';
    plan.title = hostile;
    plan.steps[0] = {
      ...plan.steps[0]!,
      kind: 'milestone.upsert',
      key: 'k',
      title: hostile,
    } as Plan['steps'][number];
    const markdown = render(plan);
    expect(markdown).not.toContain('<!--');
    expect(markdown).not.toMatch(/<img/i);
    expect(markdown).not.toMatch(/(^|[^\w&])@octocat/);
    expect(markdown).not.toContain('[link](');
    expect(markdown).not.toMatch(/\n# heading/);
    const stepRow = markdown.split('\n').find((line) => line.startsWith('| 1 |'))!;
    // Unescaped pipes delimit cells: exactly 6 of them in a 5-column row.
    expect(stepRow.replace(/\\\|/g, '').split('|')).toHaveLength(7);
  });
});

describe('escapeInline', () => {
  it('never leaves an unescaped structural character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const out = escapeInline(text, 1000);
        expect(out).not.toMatch(/[<>\r\n\t]/);
        expect(out).not.toMatch(/(^|[^\\])[|*_`[\]]/);
        expect(out).not.toMatch(/@(?!&#8288;)/);
        expect(out).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
      }),
      { numRuns: 500 },
    );
  });

  it('truncates by code points, not code units', () => {
    expect(escapeInline('😀😀😀', 2)).toBe('😀😀…');
  });

  it('refuses to put untrusted text in a code span', () => {
    expect(() => code('a`b')).toThrow();
    expect(code('run-1')).toBe('`run-1`');
  });
});
