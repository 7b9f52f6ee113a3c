#!/usr/bin/env node
// Writ's main job on its embedded default: preview the example plan through the committed bundle,
// started the way the runner starts it, and print the rendered preview and the approve command.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = mkdtempSync(join(tmpdir(), 'writ-demo-'));
const files = {
  output: join(work, 'output'),
  summary: join(work, 'summary.md'),
  event: join(work, 'event.json'),
};
writeFileSync(files.output, '');
writeFileSync(files.summary, '');
writeFileSync(files.event, JSON.stringify({ inputs: {} }));

const result = spawnSync(process.execPath, [join(root, 'dist/preview/index.js')], {
  cwd: root,
  encoding: 'utf8',
  env: {
    PATH: process.env.PATH,
    'INPUT_PLAN-FILE': join(root, 'examples/roadmap-plan.json'),
    'INPUT_RUN-ID': '',
    'INPUT_COMMAND-PREFIX': 'writ',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    RUNNER_TEMP: work,
  },
});

const outputs = {};
const lines = readFileSync(files.output, 'utf8').split('\n');
for (let i = 0; i < lines.length; i++) {
  const heredoc = /^([^<=]+)<<(.+)$/.exec(lines[i]);
  if (!heredoc) continue;
  const value = [];
  for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]);
  outputs[heredoc[1]] = value.join('\n');
}

process.stdout.write(readFileSync(files.summary, 'utf8'));
console.log('\n--- outputs');
for (const [name, value] of Object.entries(outputs)) console.log(`${name}: ${value}`);
if (result.status !== 0) {
  console.error(result.stdout, result.stderr);
  process.exit(result.status ?? 1);
}
console.log(`\nApprove with:\n  ${outputs['approve-command']}`);
