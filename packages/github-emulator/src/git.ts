/**
 * Real git objects. Every blob, tree and commit is stored as the exact bytes git would store, and its ID
 * is the SHA-1 git itself computes (`sha1("<type> <size>\0" + body)`), so a repository can be written out
 * as a bare directory that `git fsck --strict` accepts.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

type GitObjectType = 'blob' | 'tree' | 'commit';

interface GitObject {
  type: GitObjectType;
  body: Buffer;
}

export interface TreeEntry {
  mode: string; // '100644' | '100755' | '120000' | '40000' | '160000'
  name: string;
  sha: string;
}

export interface GitIdentity {
  name: string;
  email: string;
  /** Epoch seconds. */
  time: number;
  /** Like `+0000`. */
  tz: string;
}

export interface ParsedCommit {
  tree: string;
  parents: string[];
  author: GitIdentity;
  committer: GitIdentity;
  gpgsig: string | null;
  message: string;
  /** The commit bytes without the gpgsig header: what a signature signs. */
  payload: string;
}

export const ZERO_OID = '0000000000000000000000000000000000000000';
export const OID_PATTERN = /^[0-9a-f]{40}$/;

export function hashObject(type: GitObjectType, body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** git's tree order: byte order of names, where a tree's name compares as if it ended with `/`. */
function treeSortKey(entry: TreeEntry): Buffer {
  return Buffer.from(entry.mode === '40000' ? `${entry.name}/` : entry.name, 'utf8');
}

function encodeTree(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(treeSortKey(a), treeSortKey(b)));
  return Buffer.concat(
    sorted.map((entry) =>
      Buffer.concat([Buffer.from(`${entry.mode} ${entry.name}\0`, 'utf8'), Buffer.from(entry.sha, 'hex')]),
    ),
  );
}

function decodeTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let offset = 0;
  while (offset < body.length) {
    const space = body.indexOf(0x20, offset);
    const nul = body.indexOf(0, space);
    const mode = body.toString('utf8', offset, space);
    const name = body.toString('utf8', space + 1, nul);
    const sha = body.toString('hex', nul + 1, nul + 21);
    entries.push({ mode, name, sha });
    offset = nul + 21;
  }
  return entries;
}

function formatIdentity(identity: GitIdentity): string {
  return `${identity.name} <${identity.email}> ${identity.time} ${identity.tz}`;
}

function parseIdentity(text: string): GitIdentity {
  const match = /^(.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(text);
  if (!match) throw new Error(`malformed identity line: ${text}`);
  return { name: match[1] ?? '', email: match[2] ?? '', time: Number(match[3]), tz: match[4] ?? '+0000' };
}

export function encodeCommit(commit: {
  tree: string;
  parents: string[];
  author: GitIdentity;
  committer: GitIdentity;
  gpgsig?: string | null;
  message: string;
}): Buffer {
  const lines = [`tree ${commit.tree}`, ...commit.parents.map((parent) => `parent ${parent}`)];
  lines.push(`author ${formatIdentity(commit.author)}`, `committer ${formatIdentity(commit.committer)}`);
  if (commit.gpgsig) {
    const [first, ...rest] = commit.gpgsig.replace(/\n$/, '').split('\n');
    lines.push(`gpgsig ${first ?? ''}`, ...rest.map((line) => ` ${line}`));
  }
  return Buffer.from(`${lines.join('\n')}\n\n${commit.message}`, 'utf8');
}

function decodeCommit(body: Buffer): ParsedCommit {
  const text = body.toString('utf8');
  const split = text.indexOf('\n\n');
  const header = split === -1 ? text : text.slice(0, split);
  const message = split === -1 ? '' : text.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: GitIdentity | undefined;
  let committer: GitIdentity | undefined;
  const sigLines: string[] = [];
  const payloadLines: string[] = [];
  let inSig = false;
  for (const line of header.split('\n')) {
    if (inSig && line.startsWith(' ')) {
      sigLines.push(line.slice(1));
      continue;
    }
    inSig = false;
    const space = line.indexOf(' ');
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === 'gpgsig') {
      inSig = true;
      sigLines.push(value);
      continue;
    }
    payloadLines.push(line);
    if (key === 'tree') tree = value;
    else if (key === 'parent') parents.push(value);
    else if (key === 'author') author = parseIdentity(value);
    else if (key === 'committer') committer = parseIdentity(value);
  }
  if (!author || !committer) throw new Error('commit without author or committer');
  return {
    tree,
    parents,
    author,
    committer,
    gpgsig: sigLines.length > 0 ? `${sigLines.join('\n')}\n` : null,
    message,
    payload: `${payloadLines.join('\n')}\n\n${message}`,
  };
}

/** The object database of one repository. */
export class GitStore {
  readonly objects = new Map<string, GitObject>();
  private readonly commitCache = new Map<string, ParsedCommit>();

  put(type: GitObjectType, body: Buffer): string {
    const sha = hashObject(type, body);
    if (!this.objects.has(sha)) this.objects.set(sha, { type, body });
    return sha;
  }

  get(sha: string): GitObject | undefined {
    return this.objects.get(sha);
  }

  has(sha: string, type?: GitObjectType): boolean {
    const object = this.objects.get(sha);
    return object !== undefined && (type === undefined || object.type === type);
  }

  putBlob(content: Buffer): string {
    return this.put('blob', content);
  }

  putTree(entries: TreeEntry[]): string {
    return this.put('tree', encodeTree(entries));
  }

  putCommit(commit: Parameters<typeof encodeCommit>[0]): string {
    return this.put('commit', encodeCommit(commit));
  }

  tree(sha: string): TreeEntry[] {
    const object = this.objects.get(sha);
    if (object?.type !== 'tree') throw new Error(`not a tree: ${sha}`);
    return decodeTree(object.body);
  }

  commit(sha: string): ParsedCommit {
    const cached = this.commitCache.get(sha);
    if (cached) return cached;
    const object = this.objects.get(sha);
    if (object?.type !== 'commit') throw new Error(`not a commit: ${sha}`);
    const parsed = decodeCommit(object.body);
    this.commitCache.set(sha, parsed);
    return parsed;
  }

  /** The entry at a slash-separated path below a tree, or undefined. */
  lookup(treeSha: string, path: string): TreeEntry | undefined {
    const parts = path.split('/').filter((part) => part !== '');
    if (parts.length === 0) return { mode: '40000', name: '', sha: treeSha };
    let current = treeSha;
    let found: TreeEntry | undefined;
    for (const [index, part] of parts.entries()) {
      found = this.tree(current).find((entry) => entry.name === part);
      if (!found) return undefined;
      if (index < parts.length - 1) {
        if (found.mode !== '40000') return undefined;
        current = found.sha;
      }
    }
    return found;
  }

  /** Every file below a tree, as full paths. */
  flatten(treeSha: string, prefix = ''): Map<string, TreeEntry> {
    const out = new Map<string, TreeEntry>();
    for (const entry of this.tree(treeSha)) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.mode === '40000') for (const [p, e] of this.flatten(entry.sha, path)) out.set(p, e);
      else out.set(path, { ...entry, name: path });
    }
    return out;
  }

  /**
   * Builds a tree from a base tree and a set of path changes (`null` deletes). Missing intermediate
   * directories are created; directories left empty are removed, as git does.
   */
  applyChanges(baseTree: string | null, changes: Map<string, { mode: string; sha: string } | null>): string {
    const entries = new Map<string, TreeEntry>();
    if (baseTree) for (const entry of this.tree(baseTree)) entries.set(entry.name, entry);
    const byHead = new Map<string, Map<string, { mode: string; sha: string } | null>>();
    for (const [path, change] of changes) {
      const slash = path.indexOf('/');
      if (slash === -1) {
        if (change === null) entries.delete(path);
        else entries.set(path, { name: path, mode: change.mode, sha: change.sha });
        continue;
      }
      const head = path.slice(0, slash);
      let sub = byHead.get(head);
      if (!sub) byHead.set(head, (sub = new Map<string, { mode: string; sha: string } | null>()));
      sub.set(path.slice(slash + 1), change);
    }
    for (const [head, sub] of byHead) {
      const existing = entries.get(head);
      const subBase = existing?.mode === '40000' ? existing.sha : null;
      const subTree = this.applyChanges(subBase, sub);
      if (this.tree(subTree).length === 0) entries.delete(head);
      else entries.set(head, { name: head, mode: '40000', sha: subTree });
    }
    return this.putTree([...entries.values()]);
  }

  isAncestor(ancestor: string, descendant: string): boolean {
    const seen = new Set<string>();
    const stack = [descendant];
    while (stack.length > 0) {
      const sha = stack.pop() ?? '';
      if (sha === ancestor) return true;
      if (seen.has(sha) || !this.has(sha, 'commit')) continue;
      seen.add(sha);
      stack.push(...this.commit(sha).parents);
    }
    return false;
  }

  /** Every commit reachable from `head` (including it), in no particular order. */
  ancestors(head: string): string[] {
    const seen = new Set<string>();
    const stack = [head];
    while (stack.length > 0) {
      const sha = stack.pop() ?? '';
      if (seen.has(sha) || !this.has(sha, 'commit')) continue;
      seen.add(sha);
      stack.push(...this.commit(sha).parents);
    }
    return [...seen];
  }

  /**
   * `git log` order: a commit is listed only after every commit that has it as a parent, and among the
   * ready ones the newest committer date goes first (ties keep discovery order).
   */
  history(head: string): string[] {
    const reachable = this.ancestors(head);
    const children = new Map<string, number>();
    for (const sha of reachable) {
      for (const parent of this.commit(sha).parents) children.set(parent, (children.get(parent) ?? 0) + 1);
    }
    const out: string[] = [];
    const ready = this.has(head, 'commit') ? [head] : [];
    while (ready.length > 0) {
      let best = 0;
      for (let index = 1; index < ready.length; index++) {
        const candidate = this.commit(ready[index] ?? '').committer.time;
        if (candidate > this.commit(ready[best] ?? '').committer.time) best = index;
      }
      const sha = ready.splice(best, 1)[0] ?? '';
      out.push(sha);
      for (const parent of this.commit(sha).parents) {
        const left = (children.get(parent) ?? 1) - 1;
        children.set(parent, left);
        if (left === 0 && this.has(parent, 'commit')) ready.push(parent);
      }
    }
    return out;
  }

  /** Writes a real bare repository: loose zlib-deflated objects, refs, and HEAD. */
  async exportBare(dir: string, refs: Map<string, string>, headRef: string): Promise<void> {
    await mkdir(join(dir, 'objects', 'info'), { recursive: true });
    await mkdir(join(dir, 'objects', 'pack'), { recursive: true });
    await mkdir(join(dir, 'refs', 'heads'), { recursive: true });
    await mkdir(join(dir, 'refs', 'tags'), { recursive: true });
    await writeFile(join(dir, 'HEAD'), `ref: ${headRef}\n`);
    await writeFile(
      join(dir, 'config'),
      '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n',
    );
    await writeFile(join(dir, 'description'), 'Exported by writ-emulator\n');
    for (const [sha, object] of this.objects) {
      const folder = join(dir, 'objects', sha.slice(0, 2));
      await mkdir(folder, { recursive: true });
      const raw = Buffer.concat([Buffer.from(`${object.type} ${object.body.length}\0`), object.body]);
      await writeFile(join(folder, sha.slice(2)), deflateSync(raw));
    }
    for (const [name, sha] of refs) {
      const path = join(dir, ...name.split('/'));
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, `${sha}\n`);
    }
  }
}
