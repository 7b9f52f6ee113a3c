/** docs/errors.md is generated from the one catalogue, fresh, and refuses a code left unexplained. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ERROR_CATALOGUE, errorLink } from '../packages/core/src/errors.js';
import type { ErrorCode } from '../packages/core/src/errors.js';
import { renderErrorDocs, undocumentedCodes } from '../scripts/build/generate-error-docs.js';
import { repoRoot } from './support/run-action.js';

describe('docs/errors.md', () => {
  it('is exactly what the catalogue renders (npm run build writes it, check-dist keeps it fresh)', () => {
    expect(readFileSync(join(repoRoot, 'docs/errors.md'), 'utf8')).toBe(renderErrorDocs());
  });

  it('has one entry per code, under the anchor every failure message links to', () => {
    const text = renderErrorDocs();
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      expect(text.split('\n').filter((line) => line === `## ${code}`)).toHaveLength(1);
      expect(errorLink(code).endsWith(`docs/errors.md#${code}`)).toBe(true);
    }
  });

  it('fails loudly on a code added with a meaning but no fix, naming it', () => {
    const catalogue = ERROR_CATALOGUE as unknown as Record<string, unknown>;
    catalogue['added-in-parallel'] = 'A meaning someone wrote without saying what to do.';
    try {
      expect(undocumentedCodes()).toEqual(['added-in-parallel']);
      expect(() => renderErrorDocs()).toThrow(/errors\.ts: added-in-parallel has no meaning or no fix/);
    } finally {
      delete catalogue['added-in-parallel'];
    }
    expect(undocumentedCodes()).toEqual([]);
  });
});
