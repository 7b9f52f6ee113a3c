#!/usr/bin/env node
// The bundles `npm test` runs: every stage bundled from the working tree by build.mjs's bundleStage
// into .tmp/test-dist/<stage>/ (jest's global setup calls this, then points WRIT_BUNDLE_DIR there), so
// an edit to any stage's code reaches the end-to-end tests. A stage is rebuilt only when one of its
// inputs changed: the files webpack read for its last build, a file it probed for and did not find
// (now present), or the shared inputs below. The committed dist/ is checked by check-dist, not here.
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BUNDLE_CONCURRENCY, bundleStageIsolated, discoverStages, inTurns, writeEntry } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEST_DIST = join(root, '.tmp', 'test-dist');
const LOCK = join(root, '.tmp', 'test-dist.lock');
const STALE_LOCK_MS = 10 * 60_000;

/** Inputs of every bundle that webpack does not list: installed dependencies, the build, the stages. */
function sharedInputs() {
  const workspaces = readdirSync(join(root, 'packages')).map((name) => `packages/${name}/package.json`);
  const actions = readdirSync(join(root, 'actions')).map((name) => `actions/${name}/action.yml`);
  return [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'scripts/build/build.mjs',
    'scripts/build/bundle/tsconfig.json',
    'scripts/build/test-bundles.mjs',
    ...workspaces,
    ...actions,
  ]
    .filter((path) => existsSync(join(root, path)))
    .sort();
}

function fileHash(path) {
  try {
    return createHash('sha256')
      .update(readFileSync(join(root, path)))
      .digest('hex');
  } catch {
    return 'absent';
  }
}

function sharedHash() {
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  for (const path of sharedInputs()) hash.update(`${path} ${fileHash(path)}\n`);
  return hash.digest('hex');
}

/** Repository files outside node_modules (the lockfile stands for those), relative to the root. */
function ownFiles(paths) {
  return paths
    .filter((path) => path.startsWith(root + sep) && !path.includes(`${sep}node_modules${sep}`))
    .map((path) => relative(root, path))
    .sort();
}

const manifestPath = (stage) => join(TEST_DIST, `${stage}.inputs.json`);

function staleReason(stage, shared) {
  if (!existsSync(join(TEST_DIST, stage, 'index.js'))) return 'not built';
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath(stage), 'utf8'));
  } catch {
    return 'no input record';
  }
  if (manifest.shared !== shared) return 'dependencies, build or action.yml changed';
  const changed = Object.entries(manifest.files).find(([path, hash]) => fileHash(path) !== hash);
  if (changed) return `${changed[0]} changed`;
  const appeared = manifest.missing.find((path) => existsSync(join(root, path)));
  if (appeared) return `${appeared} appeared`;
  return null;
}

async function withLock(fn) {
  mkdirSync(dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS)
          rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // Released between the two calls.
      }
      await sleep(250);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/**
 * Moves a bundle built from the working tree at `started` into .tmp/test-dist/<stage>/ and records its
 * inputs. A file edited while webpack ran may be in the bundle in either version: then no inputs are
 * recorded, so the next run builds again.
 */
function install(stage, built, { inputs, missing, started, shared }) {
  rmSync(join(TEST_DIST, stage), { recursive: true, force: true });
  renameSync(built, join(TEST_DIST, stage));
  // A file deleted while webpack ran (moved, say) counts as changed: its bundle records no inputs.
  const exists = (path) => existsSync(join(root, path));
  const read = ownFiles(inputs).filter((path) => !exists(path) || statSync(join(root, path)).isFile());
  if (read.every((path) => exists(path) && statSync(join(root, path)).mtimeMs < started)) {
    const files = Object.fromEntries(read.map((path) => [path, fileHash(path)]));
    const manifest = { shared, files, missing: ownFiles(missing) };
    writeFileSync(manifestPath(stage), `${JSON.stringify(manifest, null, 2)}\n`);
  } else {
    rmSync(manifestPath(stage), { force: true });
  }
}

/**
 * `npm run build` hands each dist/<stage>/ it bundled here (the same bundleStage, the same tree), so the
 * next `npm test` does not bundle the stages again: CI runs check-dist, which builds from clean, before
 * the tests. `built` is [{ stage, inputs, missing, started }] (`node test-bundles.mjs --adopt`, on stdin).
 */
async function adoptBuild(built) {
  await withLock(async () => {
    mkdirSync(TEST_DIST, { recursive: true });
    const shared = sharedHash();
    for (const { stage, inputs, missing, started } of built) {
      const copy = join(TEST_DIST, `.${stage}.adopting`);
      rmSync(copy, { recursive: true, force: true });
      cpSync(join(root, 'dist', stage), copy, { recursive: true });
      install(stage, copy, { inputs, missing, started, shared });
    }
  });
}

/** Brings .tmp/test-dist/ up to date with the working tree, printing each stage it rebuilds and why. */
async function ensureTestBundles() {
  return withLock(async () => {
    const stages = discoverStages();
    mkdirSync(TEST_DIST, { recursive: true });
    for (const entry of readdirSync(TEST_DIST)) {
      if (!stages.includes(entry.replace(/\.inputs\.json$/, ''))) {
        rmSync(join(TEST_DIST, entry), { recursive: true, force: true });
      }
    }
    const shared = sharedHash();
    const stale = stages.flatMap((stage) => {
      const reason = staleReason(stage, shared);
      return reason === null ? [] : [{ stage, reason }];
    });
    await inTurns(stale, BUNDLE_CONCURRENCY, async ({ stage, reason }) => {
      // The generated entry is written before `started`: webpack reads it, and install() records no
      // inputs for a bundle whose inputs changed after `started`.
      writeEntry(stage);
      const started = Date.now();
      const staging = join(TEST_DIST, `.${stage}.building`);
      let inputs, missing;
      try {
        ({ inputs, missing } = await bundleStageIsolated(stage, staging));
      } catch (error) {
        rmSync(staging, { recursive: true, force: true });
        // Bundling transpiles only (build.mjs): a syntax error or an unresolvable import shows here, a
        // type error in `npm run typecheck`.
        throw new Error(`bundling ${stage} from the working tree failed:\n${error.message ?? error}`);
      }
      install(stage, staging, { inputs, missing, started, shared });
      console.error(
        `test bundle ${stage}: rebuilt from the working tree in ${Date.now() - started} ms (${reason})`,
      );
    });
  });
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  try {
    if (process.argv[2] === '--adopt') await adoptBuild(JSON.parse(readFileSync(0, 'utf8')));
    else await ensureTestBundles();
  } catch (error) {
    // The message, not the stack: the stack is ncc's own, inside its bundled webpack.
    console.error(`test bundles: ${error.message}`);
    process.exitCode = 1;
  }
}
