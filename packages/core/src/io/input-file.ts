/**
 * Reading a file an input names (`content-file`, `pr-body-file`): only a regular file whose real path
 * is inside the workspace or the runner's temp directory. A symlink (or a symlinked parent, or `..`)
 * that leads out, to `/proc/self/environ` or a credentials file, is refused, as is a directory, a FIFO
 * or a device. The bytes read are those of the very file checked: it is opened without following a
 * final symlink, and its identity must match the one checked. Messages never echo the path.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { WritError } from '../errors.js';

export interface FileRoots {
  /** GITHUB_WORKSPACE (the step's working directory). */
  workspace: string;
  /** RUNNER_TEMP, when the runner provides it. */
  runnerTemp?: string | undefined;
}

function refuse(input: string, path: string, why: string): never {
  throw new WritError('invalid-input', `input '${input}' (${Array.from(path).length} characters) ${why}`);
}

function realRoot(root: string | undefined): string | null {
  if (root === undefined || root === '') return null;
  try {
    const real = realpathSync.native(resolve(root));
    return real === sep ? null : real; // a root of `/` would contain everything
  } catch {
    return null;
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** The bytes of the regular file `path` names, if its real path is inside one of `roots`. */
export function readInputFile(path: string, input: string, roots: FileRoots, maxBytes: number): Buffer {
  if (path === '') refuse(input, path, 'is empty');
  if (path.includes('\0')) refuse(input, path, 'holds a NUL character');
  let real: string;
  try {
    real = realpathSync.native(resolve(path));
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    refuse(input, path, `names no readable file (${typeof code === 'string' ? code : 'unreadable'})`);
  }
  const allowed = [realRoot(roots.workspace), realRoot(roots.runnerTemp)].filter(
    (root): root is string => root !== null,
  );
  if (!allowed.some((root) => isInside(real, root))) {
    refuse(input, path, "resolves outside the workspace and the runner's temp directory");
  }
  let checked: Stats;
  try {
    checked = statSync(real);
  } catch {
    refuse(input, path, 'names no readable file');
  }
  if (!checked.isFile()) refuse(input, path, `is ${kindOf(checked)}, not a regular file`);

  return readRegularFile(real, maxBytes, (why) => refuse(input, path, why), checked);
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes`: opened without following a final
 * symlink and without blocking (a FIFO or a device is refused, never waited on), and, given `checked`,
 * only if it is still that very file. `refuse` says why not and throws.
 */
export function readRegularFile(
  path: string,
  maxBytes: number,
  refuse: (why: string) => never,
  checked?: Stats,
): Buffer {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY,
    );
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    if (checked !== undefined) refuse('could not be opened (it changed while being checked)');
    refuse(`names no readable file (${typeof code === 'string' ? code : 'unreadable'})`);
  }
  try {
    const opened = fstatSync(fd);
    if (
      checked !== undefined &&
      (!opened.isFile() || opened.dev !== checked.dev || opened.ino !== checked.ino)
    ) {
      refuse('changed while being checked');
    }
    if (!opened.isFile()) refuse(`is ${kindOf(opened)}, not a regular file`);
    if (opened.size > maxBytes) refuse(`is ${opened.size} bytes; the limit is ${maxBytes}`);
    // One byte more than the size checked: a file that grows while read is refused, not truncated.
    const buffer = Buffer.alloc(opened.size + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > opened.size) refuse('grew while being read');
    }
    return Buffer.from(buffer.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the real path of the existing `path` is inside the workspace or the runner's temp directory
 * (the rule `readInputFile` holds a read to, for a directory a stage writes into: the tower's `tower-dir`).
 */
export function isInsideRoots(path: string, roots: FileRoots): boolean {
  let real: string;
  try {
    real = realpathSync.native(resolve(path));
  } catch {
    return false;
  }
  return [realRoot(roots.workspace), realRoot(roots.runnerTemp)].some(
    (root) => root !== null && isInside(real, root),
  );
}
