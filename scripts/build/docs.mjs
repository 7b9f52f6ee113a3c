// Renders actions/<stage>/README.md, the one generated document per action (GitHub shows it beside
// action.yml), from action.yml: the single source of truth for an action's interface.
import { parse } from 'yaml';

function cell(text) {
  return String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');
}

/** An input's value limits (action.yml `x-limits`, read by scripts/generate-registry.mjs too), as prose. */
function limitsText(input) {
  const limits = input['x-limits'];
  if (limits === undefined) return '';
  if (limits['one-of'] !== undefined)
    return ` One of ${limits['one-of'].map((value) => `\`${value}\``).join(', ')}.`;
  const keywords = (limits.or ?? []).map((value) => `\`${value}\``);
  return ` From ${limits.min} to ${limits.max}${keywords.length === 0 ? '' : `, or ${keywords.join(', ')}`}.`;
}

function tables(action) {
  const lines = ['## Inputs', '', '| Input | Required | Default | Description |', '|---|---|---|---|'];
  for (const [name, input] of Object.entries(action.inputs ?? {})) {
    const fallback = input.default === undefined || input.default === '' ? '' : `\`${cell(input.default)}\``;
    lines.push(
      `| \`${name}\` | ${input.required ? 'yes' : 'no'} | ${fallback} | ${cell(`${input.description}${limitsText(input)}`)} |`,
    );
  }
  lines.push('', '## Outputs', '', '| Output | Description |', '|---|---|');
  for (const [name, output] of Object.entries(action.outputs ?? {})) {
    lines.push(`| \`${name}\` | ${cell(output.description)} |`);
  }
  return lines;
}

function usage(stage, action) {
  const required = Object.entries(action.inputs ?? {}).filter(([, input]) => input.required);
  return [
    '## Usage',
    '',
    '```yaml',
    `- uses: <owner>/writ/actions/${stage}@<40-hex commit sha> # vX.Y.Z`,
    ...(required.length ? ['  with:', ...required.map(([name]) => `    ${name}: …`)] : []),
    '```',
  ];
}

const NOTE = (stage) =>
  `<!-- Generated from actions/${stage}/action.yml by scripts/build/build.mjs. Do not edit; npm run check-dist fails on drift. -->`;

export function renderActionReadme(stage, yml) {
  const action = parse(yml);
  return `${[NOTE(stage), '', `# ${action.name}`, '', cell(action.description), '', ...usage(stage, action), '', ...tables(action), '', `Runs on \`${action.runs.using}\` from \`dist/${stage}/index.js\`.`].join('\n')}\n`;
}
