// Jest's global setup: bundle every stage from the working tree (scripts/build/test-bundles.mjs, a no-op when
// nothing changed) and point `writ run`'s engine there, so the end-to-end tests run the code as edited,
// never the committed dist/ (which check-dist keeps equal to a fresh build). Workers inherit the variable.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/build/test-bundles.mjs', import.meta.url));

export default function globalSetup() {
  // A child process, so ncc's webpack does not stay resident in jest's parent process.
  try {
    execFileSync(process.execPath, [script], { stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    throw new Error(
      'scripts/build/test-bundles.mjs could not bundle the working tree (its reason is printed above)',
    );
  }
  process.env.WRIT_BUNDLE_DIR = fileURLToPath(new URL('../../.tmp/test-dist/', import.meta.url));
}
