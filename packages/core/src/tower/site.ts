/**
 * The Pages control tower (ops spec §15; docs/pages.md): a static, read-only site generated from the
 * ledger alone. `buildTowerSite` reads (snapshot.ts), projects the public-safe fields (project.ts) and
 * renders the two files (render.ts); `writeTowerSite` writes them into a directory. Used by the recovery
 * stage (input `tower-dir`, after its sweep) and by `writ tower` (a maintainer's local preview).
 */
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { WritError, errorLink } from '../errors.js';
import type { FileRoots } from '../io/input-file.js';
import { isInsideRoots } from '../io/input-file.js';
import type { LedgerContext } from '../ledger/cas.js';
import type { Logger } from '../redact.js';
import type { SweepRecord, TowerData } from './project.js';
import { projectTower } from './project.js';
import { renderTowerHtml, renderTowerJson } from './render.js';
import { readTowerSnapshot } from './snapshot.js';

export interface TowerSite {
  data: TowerData;
  files: { path: 'index.html' | 'tower.json'; contents: string }[];
}

export interface TowerSettings {
  /** GITHUB_SERVER_URL, for the timeline's permalinks. */
  serverUrl: string;
  /** How many ledger commits the timeline shows (default 50, at most 500). */
  maxCommits?: number;
  /** The sweep the recovery stage just ran, when it builds the site. */
  sweep?: SweepRecord;
}

export async function buildTowerSite(
  deps: { ledger: LedgerContext; clock: { now(): number } },
  settings: TowerSettings,
): Promise<TowerSite> {
  const snapshot = await readTowerSnapshot(
    deps.ledger,
    settings.maxCommits === undefined ? {} : { maxCommits: settings.maxCommits },
  );
  const data = projectTower(snapshot, {
    serverUrl: settings.serverUrl,
    generatedAt: deps.clock.now(),
    ...(settings.sweep === undefined ? {} : { sweep: settings.sweep }),
  });
  return {
    data,
    files: [
      { path: 'index.html', contents: renderTowerHtml(data) },
      { path: 'tower.json', contents: renderTowerJson(data) },
    ],
  };
}

/**
 * Writes the site's files into `directory` (created if missing); returns the paths written. A file that
 * is a symbolic link is refused (O_NOFOLLOW), never followed out of the directory.
 */
export function writeTowerSite(directory: string, site: TowerSite): string[] {
  mkdirSync(directory, { recursive: true });
  return site.files.map((file) => {
    const path = join(directory, file.path);
    const fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o644,
    );
    try {
      writeSync(fd, file.contents, null, 'utf8');
    } finally {
      closeSync(fd);
    }
    return path;
  });
}

/** What a failure to build or write the site is reported as: a code, never a path or a message. */
function causeOf(error: unknown): string {
  if (error instanceof WritError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : 'internal-error';
}

/**
 * Builds the site and writes it into `directory` (relative to the workspace, or absolute), which must
 * lie inside the workspace or the runner's temp directory. Never throws: a failure is one warning
 * `tower-build-failed` naming its cause's code, and the result says so; whatever the caller did before
 * (the recovery sweep) stands unchanged.
 */
export async function publishTower(
  deps: { ledger: LedgerContext; clock: { now(): number }; logger: Logger },
  settings: TowerSettings & { directory: string; roots: FileRoots },
): Promise<{ written: true; runs: number } | { written: false; cause: string }> {
  try {
    const directory = isAbsolute(settings.directory)
      ? settings.directory
      : resolve(settings.roots.workspace, settings.directory);
    const roots = [settings.roots.workspace, settings.roots.runnerTemp]
      .filter((root): root is string => root !== undefined && root !== '')
      .map((root) => resolve(root));
    const lexical = resolve(directory);
    const outside = (): WritError =>
      new WritError(
        'invalid-input',
        "input 'tower-dir' resolves outside the workspace and the runner's temp directory",
      );
    if (!roots.some((root) => lexical.startsWith(`${root}${sep}`))) throw outside();
    const site = await buildTowerSite(deps, settings);
    mkdirSync(directory, { recursive: true });
    // A symbolic link on the way may lead out although the path reads inside: the real path decides.
    if (!isInsideRoots(directory, settings.roots)) {
      throw outside();
    }
    writeTowerSite(directory, site);
    deps.logger.info(
      `Writ control tower: index.html and tower.json written (${site.data.runs.length} run(s)).`,
    );
    return { written: true, runs: site.data.runs.length };
  } catch (error: unknown) {
    const cause = causeOf(error);
    deps.logger.warning(
      `tower-build-failed: the control tower was not written (${cause}); the sweep's outcome stands — ${errorLink('tower-build-failed')}`,
    );
    return { written: false, cause };
  }
}
