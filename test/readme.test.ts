/**
 * README and the documents in docs/ it hands over to: README keeps its two set-up commands; the
 * copy-paste workflows (docs/setup.md) are real, actionlint-clean once `<commit>` is a SHA, least
 * privilege; every relative link in README.md and docs/*.md names a file that exists, and a heading in
 * it where the link has a `#fragment`; and the glossary defines Writ's own words.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { lintWorkflow } from '../scripts/checks/lint-workflows.mjs';
import { repoRoot } from './support/run-action.js';

const texts = new Map<string, string>();
const read = (path: string): string => {
  const text = texts.get(path) ?? readFileSync(join(repoRoot, path), 'utf8');
  texts.set(path, text);
  return text;
};
const readme = read('README.md');
const setupDoc = read('docs/setup.md');
const blocks = [...setupDoc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');

describe('README', () => {
  it('keeps its two set-up commands', () => {
    const setup = readme.slice(readme.indexOf('## Set up'), readme.indexOf('## Using Writ'));
    expect(setup.match(/^npm ci && .*$/gm)?.map((line) => line.split('#')[0]?.trim())).toEqual([
      'npm ci && npm run demo',
      'npm ci && npm test',
    ]);
  });

  it('holds no copy-paste workflow of its own (they are in docs/setup.md)', () => {
    expect(readme).not.toMatch(/```yaml/);
  });
});

describe("docs/setup.md's workflows by hand", () => {
  it('holds the preview and approval workflows', () => {
    expect(blocks.map((block) => (parse(block) as { name: string }).name)).toEqual([
      'Writ preview',
      'Writ approval',
    ]);
  });

  it.each(blocks.map((block, index) => [index, block] as const))(
    'workflow %i passes actionlint',
    async (_index, block) => {
      const text = block.replace(/@<commit>/g, `@${'a'.repeat(40)}`);
      expect(await lintWorkflow(text, 'docs/setup.md')).toEqual([]);
      const workflow = parse(text) as { permissions: unknown };
      expect(workflow.permissions).toEqual({});
    },
  );
});

/** A heading's anchor as GitHub renders it: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), GitHub's `-1`, `-2` for repeats. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading = ''] of text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.*)$/gm)) {
    const base = anchorOf(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link `[text](target)` of a Markdown file, outside code blocks and code spans. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target));
}

const documents = ['README.md', ...readdirSync(join(repoRoot, 'docs')).map((name) => `docs/${name}`)].filter(
  (path) => path.endsWith('.md'),
);

describe('links between the documents', () => {
  it('README links every document in docs/ (the glossary included)', () => {
    const linked = new Set(relativeLinks(readme).map((target) => target.split('#')[0]));
    for (const path of documents.filter((doc) => doc.startsWith('docs/'))) {
      expect([path, linked.has(path)]).toEqual([path, true]);
    }
  });

  it.each(documents)('%s: every relative link names a file that exists, and a heading in it', (path) => {
    const text = read(path);
    for (const target of relativeLinks(text)) {
      const [file = '', fragment] = target.split('#');
      const resolved = file === '' ? path : normalize(join(dirname(path), file));
      expect([target, existsSync(join(repoRoot, resolved))]).toEqual([target, true]);
      if (fragment !== undefined && resolved.endsWith('.md')) {
        expect([target, anchorsOf(read(resolved)).has(fragment)]).toEqual([target, true]);
      }
    }
  });

  it("docs/glossary.md defines each of Writ's own words under a heading of its own", () => {
    const anchors = anchorsOf(read('docs/glossary.md'));
    for (const word of [
      'epoch',
      'lease',
      'holder',
      'claim',
      'checkpoint',
      'tombstone',
      'provenance',
      'reservation',
      'window',
      'lane',
      'marker',
      'fencing',
      'run',
      'gate',
      'status-comment',
      'ledger-root',
    ]) {
      expect([word, anchors.has(word)]).toEqual([word, true]);
    }
  });

  it('reads anchors as GitHub does', () => {
    expect(anchorOf('Recover a run')).toBe('recover-a-run');
    expect(anchorOf('What `writ init` writes')).toBe('what-writ-init-writes');
    expect(anchorOf('Before persist writes: the contract probe')).toBe(
      'before-persist-writes-the-contract-probe',
    );
    expect(anchorsOf('# A\n## A\n```\n# B\n```\n')).toEqual(new Set(['a', 'a-1']));
    expect(relativeLinks('[x](a.md#b) `[y](c.md)` [z](https://e.com)\n```\n[w](d.md)\n```')).toEqual([
      'a.md#b',
    ]);
  });
});
