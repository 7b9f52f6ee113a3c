import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { previewPlan } from '../../src/preview/preview-plan.js';
import { silentLogger } from '../../src/redact.js';
import { codeOf } from '../support/code-of.js';

const examplePath = fileURLToPath(new URL('../../../../examples/roadmap-plan.json', import.meta.url));

describe('previewPlan', () => {
  it('writes the rendered preview and returns the approve command', () => {
    const outputDir = join(mkdtempSync(join(tmpdir(), 'writ-preview-')), 'nested');
    const result = previewPlan(
      { planFile: examplePath, commandPrefix: 'writ', outputDir },
      { logger: silentLogger },
    );
    expect(readFileSync(result.previewPath, 'utf8')).toBe(result.markdown);
    expect(result.approveCommand).toBe(`writ: approve ${result.runId} ${result.digest.slice(7)}`);
    const again = previewPlan(
      { planFile: examplePath, commandPrefix: 'writ', outputDir },
      { logger: silentLogger },
    );
    expect(again.markdown).toBe(result.markdown);
  });

  it('takes a given run ID, and refuses one its inputs never validated as an internal error', () => {
    const outputDir = mkdtempSync(join(tmpdir(), 'writ-preview-'));
    const named = previewPlan(
      { planFile: examplePath, commandPrefix: 'writ', outputDir, runId: 'roadmap-1' },
      { logger: silentLogger },
    );
    expect(named.previewPath).toBe(join(outputDir, 'writ-preview-roadmap-1.md'));
    expect(() =>
      previewPlan(
        { planFile: examplePath, commandPrefix: 'writ', outputDir, runId: '../../etc/x' },
        { logger: silentLogger },
      ),
    ).toThrow(/never validated/);
  });

  it('reports an unwritable output directory with output-write-failed', () => {
    expect(
      codeOf(() =>
        previewPlan(
          { planFile: examplePath, commandPrefix: 'writ', outputDir: join(examplePath, 'not-a-directory') },
          { logger: silentLogger },
        ),
      ),
    ).toBe('output-write-failed');
  });
});
