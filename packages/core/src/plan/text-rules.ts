/**
 * The rules every text a plan carries obeys, whatever field holds it (titles, bodies, descriptions,
 * label names, keys, an external step's parameters, and member names too): it cannot speak Writ's
 * control language (a hidden `<!-- writ-… -->` marker, idempotency/key.ts `speaksMarkerLanguage`),
 * and it cannot carry a secret (a token-shaped string or a registered secret, redact.ts
 * `containsSecret`). One walk over the whole plan, so no field a step kind adds later can be missed.
 * A problem names the JSON path, never the text.
 */
import { speaksMarkerLanguage } from '../idempotency/key.js';
import { containsSecret } from '../redact.js';
import type { PlanProblem } from './types.js';

function pointer(base: string, child: string | number): string {
  return `${base}/${String(child).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function textProblem(path: string, text: string, what: string): PlanProblem | null {
  if (containsSecret(text))
    return { path, message: `${what} holds a secret or a token-shaped string (not shown); remove it` };
  if (speaksMarkerLanguage(text))
    return {
      path,
      message: `${what} holds a Writ hidden marker (\`<!-- writ-\`); a plan cannot write Writ's control language`,
    };
  return null;
}

/** Every string value and member name of `value`, checked; problems by JSON path. */
export function planTextProblems(value: unknown): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      const problem = textProblem(path === '' ? '/' : path, node, 'the text');
      if (problem !== null) problems.push(problem);
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, pointer(path, index)));
    } else if (node !== null && typeof node === 'object') {
      for (const [name, child] of Object.entries(node as Record<string, unknown>)) {
        const at = pointer(path, name);
        const problem = textProblem(at, name, 'the member name');
        // The path itself would spell the offending name: report it at the parent instead.
        if (problem !== null) problems.push({ ...problem, path: path === '' ? '/' : path });
        else walk(child, at);
      }
    }
  };
  walk(value, '');
  return problems;
}
