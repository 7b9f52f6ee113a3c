#!/usr/bin/env node
// Builds every action: discovers actions/*/action.yml, generates the typed I/O registry from them and
// precompiles the JSON Schema validators, bundles packages/core/src/stages/<stage>.ts (its `run`) into
// dist/<stage>/ with ncc (ESM, readable: not minified, every module headed by its source path, a
// source map beside it, licenses in licenses.txt), and generates each action's README
// (actions/<stage>/README.md) from its action.yml. The test suite bundles the working tree through
// the same bundleStage (scripts/build/test-bundles.mjs), into .tmp/test-dist/.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ncc from '@vercel/ncc';
import { COVERAGE_DOC, readBars, renderCoverageDoc } from '../checks/coverage-table.mjs';
import { renderActionReadme } from './docs.mjs';
import { discoverStages, generateRegistry } from './generate-registry.mjs';
import { generateValidators } from './generate-validators.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export { discoverStages };

/**
 * Writes the stage's generated entry (when it is not already what it should be) and returns its path.
 * ncc compiles with the tsconfig.json nearest its entry, so the entry it is given imports the stage's
 * file and runs its `run`, from scripts/build/bundle/entries/ (generated, not committed), under
 * scripts/build/bundle/tsconfig.json: ESM for a bundler, and transpile-only. Type-checking the whole project
 * took four fifths of each bundle's time, and `npm run typecheck` does it once (CI runs it).
 * A caller that records a bundle's inputs calls this before it notes when the bundling started: the
 * entry is one of the files webpack reads, and one written after that moment (as on a fresh clone's
 * first build, where none exists yet) reads as edited during the build, so no inputs were recorded
 * and every stage was bundled again by the next run.
 */
export function writeEntry(stage) {
  const entry = join(root, 'scripts/build/bundle/entries', `${stage}.ts`);
  const importing = `import { run } from '../../../../packages/core/src/stages/${stage}.js';\n\nawait run();\n`;
  mkdirSync(dirname(entry), { recursive: true });
  if (!existsSync(entry) || readFileSync(entry, 'utf8') !== importing) writeFileSync(entry, importing);
  return entry;
}

/**
 * The bundle's source map, for a reader of dist/<stage>/: `sources` are paths from dist/<stage>/ to
 * the repository's files (`../../packages/core/src/…`, `../../node_modules/…`), without their text
 * (`sourcesContent`), which the same commit holds. Lines map to the TypeScript sources (the bundle's
 * tsconfig emits maps). Node maps a stack trace through it with `--enable-source-maps`.
 */
function sourceMapOf(map) {
  const parsed = JSON.parse(map);
  delete parsed.sourcesContent;
  return `${JSON.stringify(parsed)}\n`;
}

/**
 * Names each CommonJS module of the bundle after its source (webpack heads the ES modules it
 * concatenates with `// CONCATENATED MODULE: <path>` itself, and a CommonJS one with `/***\/ <id>:`
 * only): the first line of its body the map places in a file names it. The name ends the header
 * line, so every position the map gives stays where it was.
 */
function withModuleNames(code, map) {
  const sourceMap = new SourceMap(JSON.parse(map));
  const lines = code.split('\n');
  for (let at = 0; at < lines.length; at++) {
    if (!/^\/\*{3}\/ \d+:$/.test(lines[at] ?? '')) continue;
    // Its body's first mapped line, before the module ends (a long harmony export list comes first).
    for (let body = at + 1; body < Math.min(lines.length, at + 200); body++) {
      if (/^\/\*{3}\/ (\d+:|\}\))/.test(lines[body] ?? '')) break;
      const entry = sourceMap.findEntry(body, (lines[body] ?? '').search(/\S|$/));
      if (entry.generatedLine !== body || entry.originalSource === undefined) continue;
      lines[at] += ` // ${entry.originalSource.replace(/^(\.\.\/)+\.\//, '')}`;
      break;
    }
  }
  return lines.join('\n');
}

/**
 * Bundles one stage into `out` (replaced whole): readable (ncc without minification, each module named
 * after its source file) with its source map beside it. Returns the entry bundle's size and the files
 * webpack read or probed for (`inputs`, `missing`), so a caller can tell when the bundle is stale.
 */
export async function bundleStage(stage, out = join(root, 'dist', stage)) {
  const source = join(root, 'packages/core/src/stages', `${stage}.ts`);
  if (!existsSync(source)) throw new Error(`actions/${stage}/action.yml has no entry point at ${source}`);
  const entry = writeEntry(stage);
  const { code, map, assets, stats } = await ncc(entry, {
    minify: false,
    transpileOnly: true,
    sourceMap: true,
    // No source-map-support in the bundle: the runtime is what the sources say, nothing added.
    sourceMapRegister: false,
    // `sources` relative to dist/<stage>/, where the map is committed.
    sourceMapBasePrefix: '../../',
    license: 'licenses.txt',
    quiet: true,
    target: 'es2022',
  });
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const bundled = withModuleNames(code, map);
  writeFileSync(join(out, 'index.js'), bundled);
  writeFileSync(join(out, 'index.js.map'), sourceMapOf(map));
  for (const [name, asset] of Object.entries(assets)) {
    mkdirSync(dirname(join(out, name)), { recursive: true });
    writeFileSync(
      join(out, name),
      name.endsWith('.js.map') ? sourceMapOf(asset.source.toString()) : asset.source,
    );
  }
  // The bundle is ESM; Node decides that from the nearest package.json.
  writeFileSync(join(out, 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`);
  const { fileDependencies, missingDependencies } = stats.compilation;
  return {
    bytes: Buffer.byteLength(bundled),
    inputs: [...fileDependencies],
    missing: [...missingDependencies],
  };
}

/** How many stages bundle at once, each in a process of its own: one per core, at most four. */
export const BUNDLE_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism()));

/**
 * `work` on each item, at most `limit` at a time; the results in the items' order. After a failure no
 * new item starts, the running ones finish, and the first failure is thrown.
 */
export async function inTurns(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  let failure;
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      const at = next++;
      try {
        results[at] = await work(items[at]);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}

/**
 * `bundleStage` in a process of its own: webpack keeps much of each compilation alive, so seven stages
 * bundled in one process outgrow Node's default heap. The child prints its result as JSON.
 */
export function bundleStageIsolated(stage, out = join(root, 'dist', stage)) {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [fileURLToPath(import.meta.url), '--bundle', stage, out],
      { cwd: root, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${stderr.trim() || error.message}`));
        else resolvePromise(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''));
      },
    );
  });
}

async function main() {
  for (const file of generateValidators()) console.log(`generated ${file}`);
  const stages = discoverStages();
  console.log(`generated ${generateRegistry(stages)}`);
  // workflows-templates/ comes from the renderer writ init uses (TypeScript, run through tsx); it checks
  // every step's inputs against the registry, so it runs after the registry is generated.
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/build/generate-templates.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  // docs/errors.md from the one error catalogue (refuses a code without a meaning and a fix).
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/build/generate-error-docs.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  // The coverage table in docs/checks.md from coverage-bars.json (the bars jest enforces, and their last measures).
  const coverageDoc = readFileSync(join(root, COVERAGE_DOC), 'utf8');
  const withTable = await renderCoverageDoc(coverageDoc, readBars());
  if (withTable !== coverageDoc) writeFileSync(join(root, COVERAGE_DOC), withTable);
  console.log(`generated the coverage table in ${COVERAGE_DOC}`);
  const known = new Set(stages);
  if (existsSync(join(root, 'dist'))) {
    for (const entry of readdirSync(join(root, 'dist'))) {
      if (!known.has(entry)) rmSync(join(root, 'dist', entry), { recursive: true, force: true });
    }
  }
  const built = await inTurns(stages, BUNDLE_CONCURRENCY, async (stage) => {
    writeEntry(stage);
    const started = Date.now();
    const { bytes, inputs, missing } = await bundleStageIsolated(stage);
    return { stage, inputs, missing, started, bytes };
  });
  for (const { stage, bytes } of built) {
    const yml = readFileSync(join(root, 'actions', stage, 'action.yml'), 'utf8');
    writeFileSync(join(root, 'actions', stage, 'README.md'), renderActionReadme(stage, yml));
    console.log(`built dist/${stage}/index.js (${bytes} bytes) and actions/${stage}/README.md`);
  }
  // The test suite's bundles come from the same bundleStage on the same tree: hand them over (through a
  // child, as test-bundles.mjs imports this file).
  execFileSync(process.execPath, [join(root, 'scripts/build/test-bundles.mjs'), '--adopt'], {
    cwd: root,
    input: JSON.stringify(built),
    stdio: ['pipe', 'inherit', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  console.log('dist/ handed to .tmp/test-dist/ for npm test');
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--bundle') {
    const [stage, out] = process.argv.slice(3);
    try {
      process.stdout.write(`\n${JSON.stringify(await bundleStage(stage, out))}\n`);
    } catch (error) {
      process.stderr.write(`${error.message ?? error}\n`);
      process.exitCode = 1;
    }
  } else {
    await main();
  }
}
