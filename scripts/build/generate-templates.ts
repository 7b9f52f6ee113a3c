// Generates workflows-templates/ from the one renderer `writ init --github` uses
// (packages/core/src/setup/templates.ts), pinned to a placeholder commit, and the per-job permissions
// table in README.md from the table the templates render (packages/core/src/setup/permissions.ts).
// Run by `npm run build`; the output is committed and checked fresh by `npm run check-dist`.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { defaultConfig } from '../../packages/core/src/setup/files.js';
import { withPermissionsTable } from '../../packages/core/src/setup/permissions.js';
import { PLACEHOLDER_REF, renderWorkflows } from '../../packages/core/src/setup/templates.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = join(root, 'workflows-templates');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const files = renderWorkflows({
  pin: { repository: 'writ-actions/writ', ref: PLACEHOLDER_REF, version: `v${version}` },
  config: defaultConfig(),
});
const names = new Set(files.map((file) => file.path));
for (const name of readdirSync(dir)) {
  if (/\.ya?ml$/.test(name) && !names.has(name)) rmSync(join(dir, name));
}
for (const file of files) {
  writeFileSync(join(dir, file.path), file.contents);
  console.log(`generated workflows-templates/${file.path}`);
}

// The README's per-job permissions table, formatted as prettier --check wants it.
const readme = join(root, 'README.md');
const text = readFileSync(readme, 'utf8');
const withTable = await format(withPermissionsTable(text), {
  ...(await resolveConfig(readme)),
  filepath: readme,
});
if (withTable !== text) writeFileSync(readme, withTable);
console.log('generated the per-job permissions table in README.md');
