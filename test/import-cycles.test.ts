/**
 * No import cycles in the packages' sources. eslint's `import-x/no-cycle` catches a cycle of value
 * imports between files; this suite also counts type-only and dynamic imports (TypeScript's own
 * pre-processing of each file), and holds packages/core/src's folders (ledger/, preview/, …) to
 * dependencies in one direction between any two of them: no folder imports one that imports it.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = ['core', 'cli', 'github-emulator'];

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'generated') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A specifier's file: relative, or `@writ/<package>/<path>.js` (the packages' exports map to src/). */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  let target: string | undefined;
  if (specifier.startsWith('.')) target = resolve(dirname(from), specifier.replace(/\.js$/, '.ts'));
  const workspace = /^@writ\/([a-z-]+)\/(.+)\.js$/.exec(specifier);
  if (workspace) target = join(root, 'packages', workspace[1] ?? '', 'src', `${workspace[2] ?? ''}.ts`);
  return target !== undefined && existsSync(target) ? relative(root, target) : undefined;
}

/** Every file's imports: static, type-only, re-exports and dynamic `import()`. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of PACKAGES.flatMap((name) => sources(join(root, 'packages', name, 'src')))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles.flatMap(({ fileName }) => resolveSpecifier(file, fileName) ?? []);
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan), each sorted. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** packages/core/src's folders as nodes: `ledger`, `preview`, …; a top-level file is its own node. */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const prefix = 'packages/core/src/';
  const folder = (file: string) => file.slice(prefix.length).split('/')[0] ?? file;
  const graph = new Map<string, string[]>();
  for (const [file, targets] of files) {
    if (!file.startsWith(prefix)) continue;
    const from = folder(file);
    const edges = new Set(graph.get(from) ?? []);
    for (const target of targets) {
      if (target.startsWith(prefix) && folder(target) !== from) edges.add(folder(target));
    }
    graph.set(from, [...edges]);
  }
  return graph;
}

/** Each two folders that import each other, as a sorted pair. */
function mutualPairs(graph: Map<string, string[]>): string[][] {
  const pairs: string[][] = [];
  for (const [from, targets] of graph) {
    for (const to of targets) if (from < to && (graph.get(to) ?? []).includes(from)) pairs.push([from, to]);
  }
  return pairs.sort((a, b) => a.join('/').localeCompare(b.join('/')));
}

describe('import cycles', () => {
  const files = importGraph();

  it('reads the imports it checks (type-only and dynamic ones included)', () => {
    // cli.ts loads its commands with import(); a command imports its I/O types with `import type`.
    expect(files.get('packages/cli/src/cli.ts')).toContain('packages/cli/src/commands/run.ts');
    expect(files.get('packages/cli/src/commands/run.ts')).toContain('packages/cli/src/cli-io.ts');
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'a']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(mutualPairs(graph)).toEqual([['a', 'b']]);
  });

  it('finds none between files', () => {
    expect(cycles(files)).toEqual([]);
  });

  it("finds no two of packages/core/src's folders importing each other", () => {
    expect(mutualPairs(folderGraph(files))).toEqual([]);
    // Nor through three or more: the folders' own graph has no cycle at all.
    expect(cycles(folderGraph(files))).toEqual([]);
  });
});
