/**
 * Writes the evidence into the workspace (for the owner's pull request): a relative path, no `..`, its
 * nearest existing directory really inside the workspace (no symlinked way out), and never through a
 * symlink or onto anything but a regular file.
 */
import { lstatSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WritError, errorMessage } from '../errors.js';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

export function validateEvidenceFile(path: string): string {
  if (
    path === '' ||
    isAbsolute(path) ||
    path.split(/[\\/]/).some((segment) => segment === '..' || segment === '')
  ) {
    throw new WritError(
      'invalid-input',
      `input 'evidence-file' must be a relative path inside the workspace, like .writ/probe-evidence.json (got ${path.length} characters)`,
    );
  }
  return path;
}

/** Writes `text` to `path` under `workspace`; returns the absolute path written. */
export function writeEvidenceFile(workspace: string, path: string, text: string): string {
  validateEvidenceFile(path);
  const root = realpathSync(workspace);
  const target = resolve(root, path);
  try {
    let existing = dirname(target);
    for (;;) {
      try {
        lstatSync(existing);
        break;
      } catch {
        existing = dirname(existing);
      }
    }
    if (!inside(root, realpathSync(existing))) throw new Error('its directory leads out of the workspace');
    mkdirSync(dirname(target), { recursive: true });
    if (!inside(root, realpathSync(dirname(target))))
      throw new Error('its directory leads out of the workspace');
    let stat;
    try {
      stat = lstatSync(target);
    } catch {
      stat = undefined;
    }
    if (stat !== undefined && !stat.isFile()) throw new Error('it exists and is not a regular file');
    writeFileSync(join(realpathSync(dirname(target)), relative(dirname(target), target)), text, 'utf8');
  } catch (error: unknown) {
    throw new WritError(
      'output-write-failed',
      `could not write the probe evidence to ${path}: ${errorMessage(error)}`,
    );
  }
  return target;
}
