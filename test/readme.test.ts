/** README's copy-paste workflows are real: actionlint-clean once `<commit>` is a SHA, least privilege. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { lintWorkflow } from '../scripts/checks/lint-workflows.mjs';
import { repoRoot } from './support/run-action.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');

describe("README's quick start", () => {
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
      expect(await lintWorkflow(text, 'README.md')).toEqual([]);
      const workflow = parse(text) as { permissions: unknown };
      expect(workflow.permissions).toEqual({});
    },
  );

  it('keeps its two set-up commands', () => {
    const setup = readme.slice(readme.indexOf('## Set up'), readme.indexOf('## Using Writ'));
    expect(setup.match(/^npm ci && .*$/gm)?.map((line) => line.split('#')[0]?.trim())).toEqual([
      'npm ci && npm run demo',
      'npm ci && npm test',
    ]);
  });
});
