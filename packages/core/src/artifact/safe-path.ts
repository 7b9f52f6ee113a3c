/**
 * Which repository paths `publish-artifact` may write: git's own rules for a safe path (read-cache.c
 * `verify_path` with `core.protectNTFS` and `core.protectHFS` both on, whatever the runner's OS), plus
 * what makes a path read as something it is not. Messages name the rule broken and where, never the
 * path itself (it is untrusted text).
 */
import { WritError } from '../errors.js';
import { containsInvisible } from '../markdown.js';

export const MAX_PATH_LENGTH = 255;

declare const safePath: unique symbol;
/** A path `validateArtifactPath` accepted: the only kind the publisher writes. */
export type ArtifactPath = string & { readonly [safePath]: true };

export interface PathPolicy {
  /** Allow files under `.github/workflows/` (a push of one runs code with the repository's secrets). */
  allowWorkflowFiles: boolean;
}

/**
 * The comparison key of a segment on the file systems Writ's readers check out on: compatibility
 * forms folded (NFKC: fullwidth `ｇ` is `g`) and case folded both ways (so `ſ`, `K` and `ı`, which
 * fold to ASCII on case-insensitive systems, compare as `s`, `k` and `i`).
 */
export function foldSegment(segment: string): string {
  return segment.normalize('NFKC').toUpperCase().toLowerCase();
}

// Control (Cc), format (Cf: bidi overrides, zero-width, BOM and the HFS-ignorable code points), private
// use, unassigned, line/paragraph separators and every space but U+0020.
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;
// What NTFS refuses in a name (and `\`, which git on Windows reads as a separator; `:` names a drive or
// an alternate data stream: `C:`, `.git::$INDEX_ALLOCATION`).
const NTFS_RESERVED = /[\\:*?"<>|]/;
// DOS device names, with or without an extension (`nul`, `con.md`, `COM1.txt`).
const DOS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(?:\..*)?$/;

function refuse(path: string, rule: string): never {
  throw new WritError(
    'invalid-input',
    `input 'path' (${Array.from(path).length} characters) is not a safe repository file path: ${rule}`,
  );
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `.git` itself or a name a checkout would resolve to it: `git~1` (NTFS 8.3 short name). */
function isDotGit(folded: string): boolean {
  return folded === '.git' || /^git~[0-9]+$/.test(folded);
}

/** Returns `path` if `publish-artifact` may commit a file there, else `invalid-input` naming the rule. */
export function validateArtifactPath(path: string, policy: PathPolicy): ArtifactPath {
  if (path.length === 0) refuse(path, 'it is empty');
  if (path.length > MAX_PATH_LENGTH) refuse(path, `it is longer than ${MAX_PATH_LENGTH} characters`);
  if (/\p{Cs}/u.test(path)) refuse(path, 'it holds a lone surrogate (not valid UTF-16)');
  const unsafe = UNSAFE_CHARACTER.exec(path);
  if (unsafe !== null) {
    refuse(path, `it holds a control, format or invisible character (${codePoint(unsafe[0])})`);
  }
  if (containsInvisible(path)) refuse(path, 'it holds an invisible character');
  if (NTFS_RESERVED.test(path)) refuse(path, 'it holds one of \\ : * ? " < > | (refused on NTFS)');
  if (path.startsWith('/')) refuse(path, 'it is absolute (a repository path has no leading /)');
  const segments = path.split('/');
  segments.forEach((segment, index) => {
    const where = `segment ${index + 1}`;
    if (segment === '') refuse(path, `${where} is empty (a // or a trailing /)`);
    if (segment === '.' || segment === '..') refuse(path, `${where} is . or ..`);
    if (/[. ]$/.test(segment)) {
      refuse(path, `${where} ends in a dot or a space (NTFS drops them, so it aliases another name)`);
    }
    const folded = foldSegment(segment);
    if (isDotGit(folded)) refuse(path, `${where} is .git or a name git treats as .git`);
    if (DOS_DEVICE.test(folded)) refuse(path, `${where} is a DOS device name (refused on NTFS)`);
  });
  const [first, second] = segments.map(foldSegment);
  if (first === '.github' && second === 'workflows' && !policy.allowWorkflowFiles) {
    refuse(path, 'it is under .github/workflows/ (set allow-workflow-files: true to publish workflows)');
  }
  return path as ArtifactPath;
}
