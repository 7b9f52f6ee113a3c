// The ledger protocol's transition relation (model/relation.json), read once and shared by the SPIN
// model's generated guards (model/relation.pml, written by `npm run model -- --write`) and the
// conformance check (test/model/), so the model and the code cannot drift apart silently.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MODEL_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'model');
export const RELATION_PATH = join(MODEL_DIR, 'relation.json');
export const RELATION_PML_PATH = join(MODEL_DIR, 'relation.pml');

export function loadRelation() {
  return JSON.parse(readFileSync(RELATION_PATH, 'utf8'));
}

/** `needs-reconciliation` → `NEEDS_RECONCILIATION`. */
function constant(name) {
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

function anyOf(variable, names, prefix) {
  if (names.length === 0) return '0';
  return `(${names.map((name) => `${variable} == ${prefix}${constant(name)}`).join(' || ')})`;
}

/** The Promela text of the relation: state constants, and per transition its guard and effects. */
export function relationPromela(relation) {
  const lines = [
    '/* GENERATED from model/relation.json by scripts/checks/model.mjs (npm run model -- --write). Do not edit. */',
    '',
    '/* Run states (0: the run file does not exist). */',
    '#define NO_RUN 0',
    ...relation.runStates.map((state, index) => `#define R_${constant(state)} ${index + 1}`),
    `#define TERMINAL(s) ${anyOf('s', relation.terminal, 'R_')}`,
    '',
    '/* Step statuses. */',
    ...relation.stepStatuses.map((status, index) => `#define S_${constant(status)} ${index}`),
    '',
  ];
  for (const [name, t] of Object.entries(relation.transitions)) {
    const T = constant(name);
    const from = t.from.filter((state) => state !== null);
    const guard = t.from.includes(null)
      ? `(s == NO_RUN${from.length > 0 ? ` || ${anyOf('s', from, 'R_')}` : ''})`
      : anyOf('s', from, 'R_');
    lines.push(`/* ${name}${t.awaiting === undefined ? '' : ` (awaiting ${t.awaiting.split(':')[0]})`} */`);
    lines.push(`#define MAY_${T}(s) ${guard}`);
    if (!t.to.includes('same')) lines.push(`#define TO_OK_${T}(s) ${anyOf('s', t.to, 'R_')}`);
    lines.push(`#define EPOCH_STEP_${T} ${t.epoch === 'same' ? 0 : 1}`);
    lines.push(`#define EPOCH_ONLY_IF_HELD_${T} ${t.epoch === 'next-if-held' ? 1 : 0}`);
    lines.push(`#define HOLDER_CHECK_${T} ${t.holderCheck ? 1 : 0}`);
    lines.push(`#define LEASE_MUST_BE_FREE_${T} ${t.leaseMustBeFree === true ? 1 : 0}`);
    if (typeof t.steps === 'object') {
      lines.push(`#define STEP_FROM_${T}(x) ${anyOf('x', t.steps.from, 'S_')}`);
      lines.push(`#define STEP_TO_${T}(x) ${anyOf('x', t.steps.to, 'S_')}`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}`;
}
