/**
 * The Pages control tower (ops spec §15; docs/pages.md): a static, read-only site generated from the
 * ledger alone. `buildTowerSite` reads (snapshot.ts), projects the public-safe fields (project.ts) and
 * renders the two files (render.ts); `writeTowerSite` writes them into a directory. Used by the recovery
 * stage (input `tower-dir`, after its sweep) and by `writ tower` (a maintainer's local preview).
 */
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerContext } from '../ledger/cas.js';
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
