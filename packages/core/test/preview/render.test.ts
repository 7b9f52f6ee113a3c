import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { digest } from '../../src/canonical-json.js';
import type { Plan } from '../../src/plan/types.js';
import { code, escapeInline } from '../../src/markdown.js';
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
    const { outside } = fences(markdown);
    expect(outside).not.toMatch(/<img/i);
    expect(outside).not.toMatch(/(^|[^\w&])@octocat/);
    expect(outside).not.toContain('[link](');
    expect(outside).not.toMatch(/\n# heading/);
    const stepRow = markdown.split('\n').find((line) => line.startsWith('| 1 |'))!;
    // Unescaped pipes delimit cells: exactly 6 of them in a 5-column row.
    expect(stepRow.replace(/\\\|/g, '').split('|')).toHaveLength(7);
  });
});

/**
 * Splits Markdown as CommonMark reads fenced code blocks (an opening run of 3+ backticks or tildes
 * indented at most 3 spaces, closed by a run of the same character at least as long with nothing
 * after it): the text outside every block, and each block's lines.
 */
function fences(markdown: string): { outside: string; blocks: string[][] } {
  const outside: string[] = [];
  const blocks: string[][] = [];
  let open: { char: string; length: number; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    if (open === null) {
      const start = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
      if (start !== null && !(start[1]!.startsWith('`') && start[2]!.includes('`'))) {
        open = { char: start[1]![0]!, length: start[1]!.length, lines: [] };
      } else outside.push(line);
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,}) *$/.exec(line);
    if (close !== null && close[1]![0] === open.char && close[1]!.length >= open.length) {
      blocks.push(open.lines);
      open = null;
    } else open.lines.push(line);
  }
  expect(open).toBeNull();
  return { outside: outside.join('\n'), blocks };
}

const HOSTILE_LINES = [
  '@octocat please look @org/team',
  '![tracker](https://evil.test/pixel.png) [click me](https://evil.test) https://evil.test/autolink',
  '<img src=x onerror=alert(1)> <script>alert(1)</script> <a href="https://evil.test">x</a>',
  '</details> <details open><summary>fake</summary>',
  '```',
  '````text',
  '~~~',
  '   ``````````',
  '# not a heading',
  '<!-- writ-status run=run-1 --> <!-- writ-idempotency-key: sha256:' + '0'.repeat(64) + ' -->',
  'bidi \u202egnp.exe\u202c zero\u200bwidth \u2066isolate\u2069 esc \u001b[31mred\u001b[0m bell \u0007',
  '| a | b |',
];
const HOSTILE = HOSTILE_LINES.join('\n');

function hostilePlan(): Plan {
  const plan = structuredClone(example);
  plan.steps = [
    {
      id: 'create',
      kind: 'issue.create',
      title: HOSTILE_LINES[0]!,
      body: HOSTILE,
      labels: [HOSTILE_LINES[2]!, '```'],
      milestone: { key: 'roadmap:v2.5' },
    },
    { id: 'comment', kind: 'comment.upsert', issue: 7, key: 'status', body: HOSTILE },
    {
      id: 'milestone',
      kind: 'milestone.upsert',
      key: 'roadmap:v9',
      title: HOSTILE_LINES[3]!,
      description: HOSTILE,
    },
    {
      id: 'edit',
      kind: 'milestone.edit',
      milestone: { number: 3 },
      set: { title: HOSTILE_LINES[9]!, description: HOSTILE },
    },
    { id: 'labels', kind: 'issue.labels', issue: 8, add: [...HOSTILE_LINES], remove: ['@octocat'] },
    {
      id: 'external',
      kind: 'external',
      target: 'release-bot',
      parameters: { note: HOSTILE, nested: { list: [HOSTILE_LINES[2]!] } },
    },
  ] as Plan['steps'];
  plan.bounds = { max_steps: 10 };
  return plan;
}

describe('what each step writes, shown inertly', () => {
  it("shows every step's titles, bodies, labels, milestones and parameters in code blocks no plan text can close", () => {
    const plan = hostilePlan();
    const markdown = render(plan);
    const { outside, blocks } = fences(markdown);
    // One block per step, then the approve command: no hostile line closed a block early.
    expect(blocks).toHaveLength(plan.steps.length + 1);
    expect(blocks[plan.steps.length]).toEqual([approveCommand('writ', 'run-1', digest(plan))]);
    const create = blocks[0]!.join('\n');
    expect(create).toContain(`title: ${JSON.stringify(HOSTILE_LINES[0])}`);
    expect(create).toContain(`labels: ${JSON.stringify(HOSTILE_LINES[2])}, "\`\`\`"`);
    expect(create).toContain('milestone: the milestone keyed "roadmap:v2.5"');
    expect(create).toContain(`body (${Array.from(HOSTILE).length} characters, ${digest(HOSTILE)}):`);
    for (const line of [
      '@octocat please look @org/team',
      '</details> <details open><summary>fake</summary>',
      '```',
      '~~~',
    ]) {
      expect(blocks[0]).toContain(`  ${line}`);
    }
    expect(blocks[5]!.join('\n')).toContain('"nested": {');
    // Outside the code blocks, nothing from the plan renders as a mention, image, link, HTML or heading.
    expect(outside).not.toMatch(/(^|[^\w&;])@octocat/);
    expect(outside).not.toMatch(/!\[|\]\(|https:\/\/evil/);
    expect(outside).not.toMatch(/<(img|script|a )/i);
    expect(outside).not.toMatch(/^# not a heading/m);
    expect(outside.split('\n').filter((line) => line.includes('<details')).length).toBe(
      outside.split('\n').filter((line) => line === '</details>').length,
    );
    expect(outside).not.toMatch(/<details open/);
  });

  it('lets no marker, bidi, zero-width or control character through anywhere, and shows <!-- altered', () => {
    const markdown = render(hostilePlan());
    expect(markdown).not.toContain('<!--');
    expect(markdown).toContain('<\\!-- writ-status run=run-1 -->');
    expect(markdown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(markdown).toContain('bidi \ufffdgnp.exe\ufffd zero\ufffdwidth');
  });

  it('collapses long content behind a summary that holds no plan text, and cuts what is too long', () => {
    const plan = structuredClone(example);
    const long = Array.from({ length: 300 }, (_, index) => `line ${index} @octocat`).join('\n');
    plan.steps = [{ id: 'big', kind: 'comment.upsert', issue: 1, key: 'k', body: long }] as Plan['steps'];
    const markdown = render(plan);
    expect(markdown).toMatch(
      /<details><summary>Show what step 1 writes \(\d+ lines\)<\/summary>\n\n````?text\n/,
    );
    const { blocks } = fences(markdown);
    expect(blocks[0]).toContain('  line 119 @octocat');
    expect(blocks[0]).not.toContain('  line 120 @octocat');
    expect(blocks[0]!.at(-1)).toMatch(
      /cut here for the preview; the digest above \(and the plan digest\) covers all \d+ characters/,
    );
    // A short step is shown open.
    const short = render(example);
    expect(short.split('\n').filter((line) => line.startsWith('<details>'))).toHaveLength(0);
  });

  it('keeps every block closed whatever the text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom('`', '~', '\n', ' ', '<!--', '@a', '</details>'), fc.string()), {
          maxLength: 40,
        }),
        (parts) => {
          const body = parts.join('');
          const plan = structuredClone(example);
          plan.steps = [{ id: 's', kind: 'issue.create', title: 't', body }] as Plan['steps'];
          const { blocks } = fences(render(plan));
          expect(blocks).toHaveLength(2);
          expect(blocks[0]![0]).toBe('title: "t"');
        },
      ),
      { numRuns: 300 },
    );
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
