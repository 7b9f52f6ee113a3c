import { describe, expect, it } from '@jest/globals';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { refusal } from '../support/code-of.js';
import { isInsideRoots } from '../../src/io/input-file.js';
import { createLedgerContext } from '../../src/ledger/ledger.js';
import type { CommitInfo } from '../../src/ledger/store.js';
import type { RunFile } from '../../src/ledger/types.js';
import { validateDurableEvidenceUrl } from '../../src/status-comment/evidence-link.js';
import { escapeHtml } from '../../src/tower/html.js';
import { projectTower } from '../../src/tower/project.js';
import { TOWER_CSP, renderTowerHtml, renderTowerJson } from '../../src/tower/render.js';
import type { Logger } from '../../src/redact.js';
import { buildTowerSite, publishTower, writeTowerSite } from '../../src/tower/site.js';
import type { TowerSnapshot } from '../../src/tower/snapshot.js';
import { readTowerSnapshot } from '../../src/tower/snapshot.js';
import { MemoryLedgerStore } from '../ledger/support/memory-store.js';
import { towerWorld } from './support/world.js';

const NOW = Date.parse('2026-12-01T00:00:00Z');
const clock = { now: () => NOW };
const SERVER = 'https://github.com';

/** Strings a planner, a commenter or a provider might try to put on the page. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'onmouseover='alert(1)",
  'javascript:alert(1)',
  '\u202egnp.exe',
  '\u200binvisible',
  'ghp_' + 'A1b2C3d4'.repeat(5),
  '<!-- writ-status run=run-done -->',
  '[click](https://evil.example/x)',
  '@everyone',
  'https://evil.example/beacon.png',
  '<style>body{background:url(https://evil.example/)}</style>',
];

describe('the control tower from an in-memory ledger', () => {
  it('shows every section, the runs in their states, the debt and the failure codes', async () => {
    const world = await towerWorld();
    const site = await buildTowerSite({ ledger: world.ledger, clock }, { serverUrl: SERVER });
    const html = site.files.find((file) => file.path === 'index.html')!.contents;
    for (const id of [
      'active-runs',
      'run-states',
      'verification-debt',
      'failures',
      'provenance-timeline',
      'health',
    ]) {
      expect(html).toContain(`<section id="${id}">`);
    }
    const { data } = site;
    expect(data.runs.map((run) => [run.run_id, run.state])).toEqual([
      ['run-done', 'completed'],
      ['run-stop', 'running'],
      ['run-wait', 'proposed'],
    ]);
    expect(data.active).toEqual(['run-stop', 'run-wait']);
    expect(html).toContain('awaiting approval');
    expect(data.debt).toEqual([{ run_id: 'run-stop', step_id: 'step-1', kind: 'stopped', code: 'conflict' }]);
    expect(data.failures).toEqual([{ run_id: 'run-stop', step_id: 'step-1', code: 'conflict' }]);
    expect(data.withheld).toBe(0);
    expect(data.health.doctor).toBeNull();
    expect(data.health.last_recovery_sweep).toBeNull();
    expect(html).toMatch(/Doctor's last result<\/dt><dd>not recorded/);
    expect(html).toMatch(/Last recovery sweep<\/dt><dd>not recorded/);
    expect(JSON.parse(site.files.find((file) => file.path === 'tower.json')!.contents)).toEqual(data);
  });

  it('links each timeline commit by an exact-commit permalink of the file its transition wrote', async () => {
    const world = await towerWorld();
    const { data } = await buildTowerSite({ ledger: world.ledger, clock }, { serverUrl: SERVER });
    expect(data.timeline).toHaveLength(world.store.commits.size);
    expect(data.timeline[0]?.oid).toBe(world.store.head);
    for (const commit of data.timeline) {
      const reference = validateDurableEvidenceUrl(commit.link!, { repository: 'acme/widgets' });
      expect(reference.commit).toBe(commit.oid);
    }
    const root = data.timeline[data.timeline.length - 1]!;
    expect(root.transition).toBe('bootstrap');
    expect(root.link).toBe(`https://github.com/acme/widgets/blob/${root.oid}/ledger-root.json`);
    const propose = data.timeline[0]!;
    expect([propose.transition, propose.run_id]).toEqual(['propose', 'run-wait']);
    expect(propose.link).toBe(
      `https://github.com/acme/widgets/blob/${propose.oid}/runs/acme--widgets/run-wait.json`,
    );
  });

  it('gives the same bytes for the same ledger and clock, and other bytes for another clock', async () => {
    const world = await towerWorld();
    const first = await buildTowerSite({ ledger: world.ledger, clock }, { serverUrl: SERVER });
    const second = await buildTowerSite({ ledger: world.ledger, clock }, { serverUrl: SERVER });
    expect(second.files).toEqual(first.files);
    const later = await buildTowerSite(
      { ledger: world.ledger, clock: { now: () => NOW + 1000 } },
      { serverUrl: SERVER },
    );
    expect(later.files[0]?.contents).not.toEqual(first.files[0]?.contents);
  });

  it('shows the sweep that built it when the recovery stage passes one', async () => {
    const world = await towerWorld();
    const sweep = {
      head: world.store.head!,
      proven: true,
      scanned: 2,
      taken_over: 0,
      needs_reconciliation: 0,
      dry_run: false,
    };
    const { data, files } = await buildTowerSite(
      { ledger: world.ledger, clock },
      { serverUrl: SERVER, sweep },
    );
    expect(data.health.last_recovery_sweep).toEqual({ ...sweep, at: '2026-12-01T00:00:00.000Z' });
    expect(files[0]?.contents).toContain('ledger proven, 2 run(s) scanned');
  });

  it('has no script, no external resource and a CSP that allows only its own style block', async () => {
    const world = await towerWorld();
    const html = (await buildTowerSite({ ledger: world.ledger, clock }, { serverUrl: SERVER })).files[0]!
      .contents;
    expect(html).not.toMatch(
      /<script|<img|<link|<iframe|<object|<embed|<form|\bsrc=|url\(|@import|\son[a-z]+=/i,
    );
    // The only URLs are the timeline's links (navigation, never loaded by the page).
    const urls = html.match(/https?:\/\/[^"'\s<)]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls)
      expect(url).toMatch(/^https:\/\/github\.com\/acme\/widgets\/blob\/[0-9a-f]{40}\//);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    expect(TOWER_CSP).toContain(`style-src 'sha256-${hash}'`);
    expect(TOWER_CSP).toMatch(/^default-src 'none';/);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(TOWER_CSP, 1000)}">`,
    );
  });

  it('bounds the timeline and says when older commits are left out', async () => {
    const world = await towerWorld();
    const snapshot = await readTowerSnapshot(world.ledger, { maxCommits: 5 });
    expect(snapshot.commits).toHaveLength(5);
    expect(snapshot.historyTruncated).toBe(true);
    const html = renderTowerHtml(projectTower(snapshot, { serverUrl: SERVER, generatedAt: NOW }));
    expect(html).toContain('Older commits are not shown');
    const all = await readTowerSnapshot(world.ledger, { maxCommits: 500 });
    expect(all.commits).toHaveLength(world.store.commits.size);
    expect(all.historyTruncated).toBe(false);
    for (const bad of [0, 501, 1.5]) {
      expect(await refusal(readTowerSnapshot(world.ledger, { maxCommits: bad }))).toBe('invalid-input');
    }
  });

  it('pages the history past the first read when the timeline asks for more than one page', async () => {
    const world = await towerWorld();
    for (let index = 0; index < 120; index += 1) world.store.append({}, `filler ${index}`);
    const snapshot = await readTowerSnapshot(world.ledger, { maxCommits: 130 });
    expect(snapshot.commits).toHaveLength(130);
    expect(world.store.calls.readHistory).toBe(1);
    expect(snapshot.historyTruncated).toBe(true);
  });

  it('refuses a repository without a ledger branch', async () => {
    const ledger = createLedgerContext({ github: new MemoryLedgerStore() }, { repository: 'acme/widgets' });
    expect(await refusal(buildTowerSite({ ledger, clock }, { serverUrl: SERVER }))).toBe(
      'ledger-branch-missing',
    );
  });
});

describe('hostile input never reaches the page or tower.json', () => {
  const hostile = (index: number): string => HOSTILE[index % HOSTILE.length]!;

  /** A snapshot as no schema would let through: every text field of a run holds hostile text. */
  function hostileSnapshot(): TowerSnapshot {
    const run = {
      schema: 1,
      repository: hostile(0),
      run_id: hostile(1),
      plan_digest: hostile(2),
      evidence_digest: hostile(3),
      scope: { repository: hostile(4), digest: hostile(5) },
      bounds: { max_steps: 3 },
      state: hostile(6),
      approval: {
        actor_login: hostile(7),
        actor_id: 1,
        role_name: hostile(8),
        comment_id: 1,
        comment_url: hostile(9),
        digest: hostile(10),
        consumed_at: hostile(11),
        epoch: -1,
      },
      owner: null,
      steps: HOSTILE.map((text, index) => ({
        id: text,
        kind: hostile(index + 1),
        status: hostile(index + 2),
        epoch: Number.NaN,
        pre_state_digest: text,
        evidence: { status_code: 1, error_code: hostile(index + 3) },
        resources: [],
        reconciled_by: null,
        receipt: { idempotency_key: text, key_scope: 'run', outcome: hostile(index + 4) },
      })),
      stop_reason: hostile(5),
      blockers: HOSTILE,
      proposed_at: hostile(6),
      preview: {
        base_sha: hostile(7),
        risk: hostile(8),
        warnings: HOSTILE.map((code) => ({ code, step: null })),
      },
      artifact: { commit_oid: hostile(9), pr_number: 1, content_digest: hostile(10), epoch: 1 },
    } as unknown as RunFile;
    const commit = (message: string, oid: string): CommitInfo => ({
      oid,
      parentCount: 1,
      parentOid: null,
      authorName: hostile(1),
      authorEmail: hostile(2),
      authorLogin: hostile(3),
      committerName: hostile(4),
      committerEmail: hostile(5),
      committedAt: 0,
      signature: null,
      message,
    });
    return {
      repository: 'acme/widgets',
      branch: 'bot/writ-ledger',
      headOid: 'a'.repeat(40),
      serverTime: NOW,
      lease: {
        schema: 1,
        epoch: 3,
        holder: { run_id: hostile(0), workflow_run_id: 1, attempt: 1 },
        lease_expires_at: hostile(1),
      },
      checkpoint: {
        schema: 1,
        root_oid: 'b'.repeat(40),
        root_committed_at: hostile(2),
        verified_through: hostile(3),
        verified_commits: 4,
        consumed_run_ids: HOSTILE,
        consumed_comment_ids: [],
        frozen: { commit: hostile(4), code: hostile(5), frozen_at: hostile(6) },
      } as unknown as TowerSnapshot['checkpoint'],
      runs: [run],
      commits: [
        ...HOSTILE.map((text, index) =>
          commit(`${text}\n\nWrit-Transition: ${text}`, index.toString(16).padStart(40, 'c')),
        ),
        commit(
          'writ ledger: propose\n\nWrit-Transition: propose\nWrit-Run: <b>x</b>\nWrit-Epoch: 1\nWrit-Transition-Id: t',
          'd'.repeat(40),
        ),
        commit(hostile(0), hostile(1)),
      ],
      historyTruncated: false,
    };
  }

  it('leaves out every hostile value and counts what it withheld', () => {
    const snapshot = hostileSnapshot();
    const data = projectTower(snapshot, { serverUrl: SERVER, generatedAt: NOW });
    const outputs = [renderTowerHtml(data), renderTowerJson(data)];
    for (const output of outputs) {
      for (const text of HOSTILE) expect(output).not.toContain(text);
      expect(output).not.toContain('alert(');
      expect(output).not.toContain('evil.example');
      expect(output).not.toContain('ghp_');
      expect(output).not.toMatch(/[\u202a-\u202e\u200b]/u);
      expect(output).not.toContain('<!-- writ');
    }
    expect(data.withheld).toBeGreaterThan(40);
    expect(data.runs[0]).toMatchObject({
      run_id: null,
      state: null,
      steps: expect.any(Array),
      blockers: [],
      warnings: [],
    });
    expect(data.timeline.every((commit) => commit.transition === null)).toBe(true);
    expect(data.timeline).toHaveLength(HOSTILE.length + 1);
    expect(data.health.frozen).toEqual({ code: null, commit: null, frozen_at: null });
    expect(outputs[0]).toContain('not a Writ transition');
  });

  it('shows a non-Writ commit of the real ledger by its SHA alone, never its message', async () => {
    const world = await towerWorld();
    for (const text of HOSTILE) world.store.append({}, `${text}\n\n${text}`, { as: 'human' });
    const site = await buildTowerSite({ ledger: world.ledger, clock }, { serverUrl: SERVER });
    for (const file of site.files) for (const text of HOSTILE) expect(file.contents).not.toContain(text);
    expect(site.data.timeline.slice(0, HOSTILE.length).every((commit) => commit.transition === null)).toBe(
      true,
    );
  });
});

describe('escapeHtml, the one escaper', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['"><img src=x>', '&quot;&gt;&lt;img src&#61;x&gt;'],
    ["a'b`c", 'a&#39;b&#96;c'],
    ['&amp;', '&amp;amp;'],
    ['\u202egnp.exe', '\ufffdgnp.exe'],
    ['a\u0000b\u001b[31m', 'a\ufffdb\ufffd[31m'],
    ['line\u2028break', 'line\ufffdbreak'],
    ['lone \ud800 surrogate', 'lone \ufffd surrogate'],
  ])('escapes %j', (input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });

  it('cuts long text at a code point with an ellipsis', () => {
    expect(escapeHtml('😀'.repeat(10), 3)).toBe('😀😀😀…');
  });
});

describe('writing the site', () => {
  it('writes index.html and tower.json into the directory, creating it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writ-tower-'));
    try {
      const world = await towerWorld();
      const site = await buildTowerSite({ ledger: world.ledger, clock }, { serverUrl: SERVER });
      const paths = writeTowerSite(join(dir, 'site'), site);
      expect(paths).toEqual([join(dir, 'site', 'index.html'), join(dir, 'site', 'tower.json')]);
      expect(readFileSync(paths[0]!, 'utf8')).toBe(site.files[0]!.contents);
      // A second write replaces the files.
      writeTowerSite(join(dir, 'site'), site);
      expect(readFileSync(paths[1]!, 'utf8')).toBe(site.files[1]!.contents);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to follow a symbolic link planted at index.html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writ-tower-'));
    try {
      const outside = join(dir, 'outside.txt');
      writeFileSync(outside, 'untouched');
      symlinkSync(outside, join(dir, 'index.html'));
      const world = await towerWorld();
      const site = await buildTowerSite({ ledger: world.ledger, clock }, { serverUrl: SERVER });
      expect(() => writeTowerSite(dir, site)).toThrow(/ELOOP/);
      expect(readFileSync(outside, 'utf8')).toBe('untouched');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('publishTower, as the recovery stage calls it', () => {
  function recordingLogger(): { logger: Logger; warnings: string[]; infos: string[] } {
    const warnings: string[] = [];
    const infos: string[] = [];
    return {
      warnings,
      infos,
      logger: { info: (line) => infos.push(line), warning: (line) => warnings.push(line), debug: () => {} },
    };
  }

  it('writes the site into a directory inside the workspace, relative or absolute', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'writ-tower-ws-'));
    try {
      const world = await towerWorld();
      const { logger, warnings } = recordingLogger();
      const roots = { workspace };
      const relative = await publishTower(
        { ledger: world.ledger, clock, logger },
        { directory: 'site/tower', roots, serverUrl: SERVER },
      );
      expect(relative).toEqual({ written: true, runs: 3 });
      expect(readFileSync(join(workspace, 'site/tower/index.html'), 'utf8')).toContain('Writ control tower');
      const absolute = await publishTower(
        { ledger: world.ledger, clock, logger },
        { directory: join(workspace, 'abs'), roots, serverUrl: SERVER },
      );
      expect(absolute.written).toBe(true);
      expect(warnings).toEqual([]);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it.each([
    ['a path outside both roots', (_ws: string, other: string) => join(other, 'site'), 'invalid-input'],
    ['a traversal out of the workspace', () => '../escaped', 'invalid-input'],
    ['the workspace itself', (ws: string) => ws, 'invalid-input'],
  ])('refuses %s with one warning and writes nothing', async (_what, target, cause) => {
    const workspace = mkdtempSync(join(tmpdir(), 'writ-tower-ws-'));
    const other = mkdtempSync(join(tmpdir(), 'writ-tower-other-'));
    try {
      const world = await towerWorld();
      const { logger, warnings } = recordingLogger();
      const result = await publishTower(
        { ledger: world.ledger, clock, logger },
        { directory: target(workspace, other), roots: { workspace, runnerTemp: '' }, serverUrl: SERVER },
      );
      expect(result).toEqual({ written: false, cause });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^tower-build-failed: the control tower was not written \(invalid-input\); the sweep's outcome stands — https:\/\/.*#tower-build-failed$/,
      );
      expect(existsSync(join(other, 'site'))).toBe(false);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses a directory reached through a symbolic link that leads out', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'writ-tower-ws-'));
    const other = mkdtempSync(join(tmpdir(), 'writ-tower-other-'));
    try {
      symlinkSync(other, join(workspace, 'link'));
      const world = await towerWorld();
      const { logger, warnings } = recordingLogger();
      const result = await publishTower(
        { ledger: world.ledger, clock, logger },
        { directory: 'link/site', roots: { workspace }, serverUrl: SERVER },
      );
      expect(result).toEqual({ written: false, cause: 'invalid-input' });
      expect(warnings).toHaveLength(1);
      expect(existsSync(join(other, 'site', 'index.html'))).toBe(false);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('reports an unreadable ledger and a file system error by their codes, never throwing', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'writ-tower-ws-'));
    try {
      const { logger, warnings } = recordingLogger();
      const missing = createLedgerContext(
        { github: new MemoryLedgerStore() },
        { repository: 'acme/widgets' },
      );
      expect(
        await publishTower(
          { ledger: missing, clock, logger },
          { directory: 'site', roots: { workspace }, serverUrl: SERVER },
        ),
      ).toEqual({ written: false, cause: 'ledger-branch-missing' });
      writeFileSync(join(workspace, 'file'), 'not a directory');
      const world = await towerWorld();
      expect(
        await publishTower(
          { ledger: world.ledger, clock, logger },
          { directory: 'file/site', roots: { workspace }, serverUrl: SERVER },
        ),
      ).toEqual({ written: false, cause: 'ENOTDIR' });
      const broken = {
        ...world.ledger,
        store: { ...world.ledger.store, read: () => Promise.reject(new Error('boom')) },
      };
      expect(
        await publishTower(
          { ledger: broken, clock, logger },
          { directory: 'site', roots: { workspace }, serverUrl: SERVER },
        ),
      ).toEqual({ written: false, cause: 'internal-error' });
      expect(warnings).toHaveLength(3);
      for (const warning of warnings) expect(warning).not.toContain('boom');
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('runs waiting on people and the lease, as the page says them', () => {
  const step = (id: string, status: string, receipt: string | null = null): unknown => ({
    id,
    kind: 'issue.create',
    status,
    epoch: status === 'pending' ? null : 4,
    pre_state_digest: null,
    evidence: null,
    resources: [],
    reconciled_by: null,
    ...(receipt === null ? {} : { receipt: { idempotency_key: 'k', key_scope: 'run', outcome: receipt } }),
  });
  const runOf = (
    runId: string,
    state: string,
    steps: unknown[],
    extra: Record<string, unknown> = {},
  ): RunFile =>
    ({
      schema: 1,
      repository: 'acme/widgets',
      run_id: runId,
      plan_digest: `sha256:${'1'.repeat(64)}`,
      evidence_digest: null,
      scope: { repository: 'acme/widgets', digest: `sha256:${'2'.repeat(64)}` },
      bounds: { max_steps: 5 },
      state,
      approval: null,
      owner: { epoch: 4, holder: { run_id: runId, workflow_run_id: 7, attempt: 1 } },
      steps,
      stop_reason: null,
      blockers: [],
      proposed_at: '2026-11-30T09:00:00.000Z',
      ...extra,
    }) as unknown as RunFile;

  it('lists reconciliation, unsettled claims and inconclusive receipts as debt, and a held, frozen ledger under health', () => {
    const snapshot: TowerSnapshot = {
      repository: 'acme/widgets',
      branch: 'bot/writ-ledger',
      headOid: 'e'.repeat(40),
      serverTime: NOW,
      lease: {
        schema: 1,
        epoch: 4,
        holder: { run_id: 'run-busy', workflow_run_id: 7, attempt: 1 },
        lease_expires_at: '2026-12-01T00:10:00.000Z',
      },
      checkpoint: {
        schema: 1,
        root_oid: 'f'.repeat(40),
        root_committed_at: '2026-11-30T08:00:00.000Z',
        verified_through: 'e'.repeat(40),
        verified_commits: 12,
        consumed_run_ids: [],
        consumed_comment_ids: [],
        frozen: {
          commit: 'd'.repeat(40),
          code: 'ledger-provenance-unproven',
          frozen_at: '2026-12-01T00:00:00.000Z',
        },
      },
      runs: [
        runOf('run-stuck', 'needs-reconciliation', [step('s1', 'claimed')], { stop_reason: 'external-step' }),
        runOf(
          'run-busy',
          'running',
          [step('s1', 'done', 'inconclusive'), step('s2', 'claimed'), step('s3', 'pending')],
          {
            preview: {
              base_sha: 'c'.repeat(40),
              risk: 'high',
              warnings: [{ code: 'write-outside-scope', step: 's2' }],
            },
            blockers: ['precheck-inconclusive'],
          },
        ),
        runOf('run-next', 'approved', [step('s1', 'pending')]),
      ],
      commits: [],
      historyTruncated: false,
    };
    const data = projectTower(snapshot, { serverUrl: SERVER, generatedAt: NOW });
    expect(data.debt).toEqual([
      { run_id: 'run-stuck', step_id: null, kind: 'needs-reconciliation', code: 'external-step' },
      { run_id: 'run-stuck', step_id: 's1', kind: 'claimed-unsettled', code: null },
      { run_id: 'run-busy', step_id: 's1', kind: 'receipt-inconclusive', code: null },
      { run_id: 'run-busy', step_id: 's2', kind: 'claimed-unsettled', code: null },
    ]);
    expect(data.failures).toEqual([
      { run_id: 'run-stuck', step_id: null, code: 'external-step' },
      { run_id: 'run-busy', step_id: null, code: 'precheck-inconclusive' },
    ]);
    expect(data.runs[1]).toMatchObject({
      risk: 'high',
      base_sha: 'c'.repeat(40),
      warnings: ['write-outside-scope'],
    });
    expect(data.health.frozen).toEqual({
      code: 'ledger-provenance-unproven',
      commit: 'd'.repeat(40),
      frozen_at: '2026-12-01T00:00:00.000Z',
    });
    const html = renderTowerHtml(data);
    expect(html).toContain('awaiting a reconcile command');
    expect(html).toContain('executing (steps claimed)');
    expect(html).toMatch(/<td>executing<\/td>/);
    expect(html).toContain('held by <code>run-busy</code> until 2026-12-01T00:10:00.000Z');
    expect(html).toContain('<strong>FROZEN</strong> <code>ledger-provenance-unproven</code>');
    expect(html).toContain('<code>eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee</code> (12 commits)');
    expect(html).toContain('No commit was read.');
  });

  it('shows a timeline commit without a link when the server URL cannot make a durable one', () => {
    const snapshot: TowerSnapshot = {
      repository: 'acme/widgets',
      branch: 'bot/writ-ledger',
      headOid: 'e'.repeat(40),
      serverTime: NOW,
      lease: { schema: 1, epoch: 0, holder: null, lease_expires_at: null },
      checkpoint: null,
      runs: [],
      commits: [
        {
          oid: 'e'.repeat(40),
          parentCount: 0,
          parentOid: null,
          authorName: null,
          authorEmail: null,
          authorLogin: null,
          committerName: null,
          committerEmail: null,
          committedAt: null,
          signature: null,
          message:
            'writ ledger: bootstrap\n\nWrit-Transition: bootstrap\nWrit-Epoch: 0\nWrit-Transition-Id: t',
        },
      ],
      historyTruncated: false,
    };
    const data = projectTower(snapshot, { serverUrl: 'https://ghe.example.com:8443', generatedAt: NOW });
    expect(data.timeline).toEqual([
      {
        oid: 'e'.repeat(40),
        committed_at: null,
        transition: 'bootstrap',
        run_id: null,
        epoch: 0,
        link: null,
      },
    ]);
    expect(data.withheld).toBe(1);
    const html = renderTowerHtml(data);
    expect(html).toContain(`<td><code>${'e'.repeat(12)}</code></td>`);
    expect(html).toContain('No run is active.');
    expect(html).toContain('free (epoch 0)');
  });
});

describe('isInsideRoots, the directory rule tower-dir is held to', () => {
  it('is true only for an existing path whose real path lies below the workspace or the runner temp', () => {
    const workspace = mkdtempSync(join(tmpdir(), 'writ-tower-ws-'));
    const temp = mkdtempSync(join(tmpdir(), 'writ-tower-temp-'));
    try {
      mkdirSync(join(workspace, 'a'));
      mkdirSync(join(temp, 'b'));
      symlinkSync(tmpdir(), join(workspace, 'out'));
      const roots = { workspace, runnerTemp: temp };
      expect(isInsideRoots(join(workspace, 'a'), roots)).toBe(true);
      expect(isInsideRoots(join(temp, 'b'), roots)).toBe(true);
      expect(isInsideRoots(join(workspace, 'missing'), roots)).toBe(false);
      expect(isInsideRoots(workspace, roots)).toBe(false);
      expect(isInsideRoots(join(workspace, 'out'), roots)).toBe(false);
      expect(isInsideRoots(join(temp, 'b'), { workspace })).toBe(false);
    } finally {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
