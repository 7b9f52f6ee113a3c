/**
 * The control tower as a browser shows it (e2e tier): an emulator world with runs in several states (one
 * approved and completed, one with a step stopped in conflict, one awaiting approval, and a hostile plan
 * awaiting approval), the recovery stage run in-process with `tower-dir`, then the page rendered by
 * Debian's headless Chromium (`/usr/bin/chromium`): a screenshot (.tmp/tower/tower.png, for a person to
 * look at) and the rendered DOM. Chromium's own background traffic is sent nowhere (every host name
 * resolves to nothing, every request goes to a dead local proxy) and its NetLog records every request it
 * starts: the page starts none. A control page with an image (and no CSP) shows the NetLog check can fail.
 * Without /usr/bin/chromium the suite fails under CI and is skipped elsewhere, naming the package.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { checkpointStep, claimStep, readRun } from '../../src/ledger/ledger.js';
import type { RunFile } from '../../src/ledger/types.js';
import { silentLogger } from '../../src/redact.js';
import { connectRecovery, recoveryStage } from '../../src/stages/recovery.js';
import type { RecoveryStageSettings } from '../../src/stages/recovery.js';
import type { TowerData } from '../../src/tower/project.js';
import type { SliceWorld } from '../../../../test/support/world.js';
import { APP_SLUG, OWNER, REPO, sliceWorld } from '../../../../test/support/world.js';
import { repoRoot } from '../../../../test/support/run-action.js';
import {
  SWEEPER_TOKEN,
  approvedRun,
  freshPlan,
  mintSweeperTokens,
  proposeWithStatus,
  sweeperLedger,
  writePlan,
} from '../recovery/support.js';

const run = promisify(execFile);
const CHROMIUM = '/usr/bin/chromium';
const WIDTH = 1280;
const HEIGHT = 1600;
/** Each Chromium start is bounded; the suite starts it three times. */
const CHROMIUM_TIMEOUT_MS = 60_000;
const OUT = join(repoRoot, '.tmp', 'tower');
const inCi = process.env.CI !== undefined || process.env.WRIT_CI_CLEAN_CLONE !== undefined;
const present = existsSync(CHROMIUM);

/** What the hostile plan carries in its title and its comment body: none of it may reach the page. */
const HOSTILE = [
  '<script>alert("tower")</script>',
  '<img src=https://evil.example/beacon.png>',
  '\u202egnp.exe',
  '@everyone',
  'javascript:alert(1)',
];

if (!present && !inCi) {
  console.log(
    `skipping the control tower's screenshot test: ${CHROMIUM} is missing (install Debian's package: apt-get install chromium)`,
  );
}

/** Decodes an 8-bit RGB(A) PNG (non-interlaced) with node's zlib: its size and its pixels. */
function decodePng(png: Buffer): { width: number; height: number; channels: number; pixels: Buffer } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([body[8], body[12]]).toEqual([8, 0]); // 8-bit, not interlaced
      channels = body[9] === 6 ? 4 : body[9] === 2 ? 3 : 0;
      expect(channels).toBeGreaterThan(0);
    }
    if (type === 'IDAT') data.push(body);
    if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= channels ? (pixels[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = x >= channels && y > 0 ? (pixels[(y - 1) * stride + x - channels] ?? 0) : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      pixels[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** The requests Chromium's NetLog says were started, with who started them. */
function startedRequests(netlogPath: string): { url: string; initiator: string }[] {
  const log = JSON.parse(readFileSync(netlogPath, 'utf8')) as {
    constants: { logEventTypes: Record<string, number> };
    events: { type: number; params?: { url?: string; initiator?: unknown } }[];
  };
  const start = log.constants.logEventTypes.URL_REQUEST_START_JOB;
  return log.events
    .filter((event) => event.type === start && typeof event.params?.url === 'string')
    .map((event) => {
      const initiator = event.params?.initiator;
      return { url: event.params?.url ?? '', initiator: typeof initiator === 'string' ? initiator : 'none' };
    });
}

/** One bounded headless Chromium start, its network sent nowhere; returns its stdout. */
async function chromium(page: string, extra: string[], scratch: string): Promise<string> {
  const profile = mkdtempSync(join(scratch, 'profile-'));
  const { stdout } = await run(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      `--window-size=${WIDTH},${HEIGHT}`,
      // Nothing leaves the machine: no host name resolves, and every request goes to a dead local proxy.
      '--host-resolver-rules=MAP * ~NOTFOUND',
      '--proxy-server=http://127.0.0.1:9',
      ...extra,
      `file://${page}`,
    ],
    { timeout: CHROMIUM_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

/** Requests a page started (Chromium's own background requests have no origin). */
const fromPage = (requests: { url: string; initiator: string }[]): { url: string; initiator: string }[] =>
  requests.filter((request) => request.initiator !== 'not an origin');

(present || inCi ? describe : describe.skip)('the control tower in headless Chromium', () => {
  let world: SliceWorld | undefined;
  let scratch = '';
  let data: TowerData;
  let summary = '';
  const site = join(OUT, 'site');

  beforeAll(async () => {
    expect(existsSync(CHROMIUM)).toBe(true); // under CI a missing Chromium fails here
    scratch = mkdtempSync(join(tmpdir(), 'writ-tower-shot-'));
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    world = await sliceWorld({ seed: 33 });
    mintSweeperTokens(world);
    const { ledger } = sweeperLedger(world);

    // 1. Approved and completed: every step claimed and checkpointed done.
    const done = await approvedRun(world, freshPlan(scratch, 'done'), { workflow_run_id: 3301, attempt: 1 });
    const holder = { run_id: done.runId, workflow_run_id: 3301, attempt: 1 };
    for (const step of ((await readRun(ledger, done.runId)).run as RunFile).steps) {
      await claimStep(ledger, { runId: done.runId, stepId: step.id, epoch: done.epoch, holder });
      await checkpointStep(ledger, {
        runId: done.runId,
        stepId: step.id,
        epoch: done.epoch,
        holder,
        outcome: 'done',
        evidence: { status_code: 200, error_code: null },
      });
    }

    // 2. A step stopped in conflict.
    const stopped = await approvedRun(world, freshPlan(scratch, 'stopped'), {
      workflow_run_id: 3302,
      attempt: 1,
    });
    const first = ((await readRun(ledger, stopped.runId)).run as RunFile).steps[0]!;
    const stopHolder = { run_id: stopped.runId, workflow_run_id: 3302, attempt: 1 };
    await claimStep(ledger, {
      runId: stopped.runId,
      stepId: first.id,
      epoch: stopped.epoch,
      holder: stopHolder,
    });
    await checkpointStep(ledger, {
      runId: stopped.runId,
      stepId: first.id,
      epoch: stopped.epoch,
      holder: stopHolder,
      outcome: 'conflict',
      evidence: { status_code: 409, error_code: 'conflict' },
    });

    // 3. Awaiting approval, and 4. a hostile plan awaiting approval.
    await proposeWithStatus(world, freshPlan(scratch, 'waiting'));
    const hostile = JSON.parse(readFileSync(join(repoRoot, 'examples/roadmap-plan.json'), 'utf8')) as {
      title: string;
      steps: { kind: string; body?: string }[];
    };
    hostile.title = HOSTILE.join(' ');
    for (const step of hostile.steps) if (step.kind === 'comment.upsert') step.body = HOSTILE.join('\n');
    await proposeWithStatus(world, writePlan(scratch, 'hostile', hostile));

    // The recovery stage, as the workflow runs it with `tower-dir` (a dry run: it writes nothing to GitHub).
    const settings: RecoveryStageSettings = {
      apiUrl: world.emulator.url,
      serverUrl: 'https://github.com',
      repository: { owner: OWNER, repo: REPO, full: `${OWNER}/${REPO}` },
      dryRun: true,
      commandPrefix: 'writ',
      ledger: {
        token: SWEEPER_TOKEN,
        branch: 'bot/writ-ledger',
        app: { slug: APP_SLUG, id: world.appId },
        leaseMs: 600_000,
      },
      actionsToken: null,
      planFile: null,
      planRoots: { workspace: OUT, runnerTemp: scratch },
      allowedRoles: ['admin', 'maintain', 'write'],
      requireDistinctApprover: false,
      holder: { workflow_run_id: 3399, attempt: 1 },
      towerDir: 'site',
    };
    const deps = connectRecovery(
      { apiUrl: settings.apiUrl, repository: settings.repository.full },
      settings.ledger,
      null,
      silentLogger,
    );
    const result = await recoveryStage(settings, deps);
    expect(result.outputs).toMatchObject({ outcome: 'dry-run', tower: 'written' });
    summary = result.summary;
    data = JSON.parse(readFileSync(join(site, 'tower.json'), 'utf8')) as TowerData;
  });

  afterAll(async () => {
    await world?.close();
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('the recovery stage wrote the site after its sweep, which it reports unchanged', () => {
    expect(summary).toContain('Control tower: index.html and tower.json written to `tower-dir`.');
    expect(data.runs.map((entry) => entry.state).sort()).toEqual([
      'completed',
      'proposed',
      'proposed',
      'running',
    ]);
    expect(data.health.last_recovery_sweep).toMatchObject({ proven: true, scanned: 3, dry_run: true });
    expect(data.debt).toEqual([expect.objectContaining({ kind: 'stopped', code: 'conflict' })]);
  });

  it('renders a non-blank 1280x1600 screenshot (.tmp/tower/tower.png) and starts no network request', async () => {
    const png = join(OUT, 'tower.png');
    const netlog = join(scratch, 'netlog.json');
    await chromium(join(site, 'index.html'), [`--screenshot=${png}`, `--log-net-log=${netlog}`], scratch);
    const image = decodePng(readFileSync(png));
    expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
    const colours = new Set<number>();
    for (let at = 0; at < image.pixels.length; at += image.channels * 7) {
      colours.add(
        ((image.pixels[at] ?? 0) << 16) | ((image.pixels[at + 1] ?? 0) << 8) | (image.pixels[at + 2] ?? 0),
      );
    }
    // Text, the dark header, the state badges: far more than a blank or one-colour page.
    expect(colours.size).toBeGreaterThan(50);
    const requests = startedRequests(netlog);
    expect(fromPage(requests)).toEqual([]);
    expect(requests.filter((request) => /github\.com\/acme|evil\.example/.test(request.url))).toEqual([]);
  });

  it('the NetLog check sees a request a page starts (a control page with an image and no CSP)', async () => {
    const control = join(scratch, 'control.html');
    writeFileSync(
      control,
      '<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/probe.png"></body></html>',
    );
    const netlog = join(scratch, 'control-netlog.json');
    await chromium(
      control,
      [`--screenshot=${join(scratch, 'control.png')}`, `--log-net-log=${netlog}`],
      scratch,
    );
    expect(fromPage(startedRequests(netlog)).map((request) => request.url)).toEqual([
      'http://127.0.0.1:9/probe.png',
    ]);
  });

  it('the rendered DOM has every section and run, and none of the hostile plan text', async () => {
    const dom = await chromium(join(site, 'index.html'), ['--dump-dom'], scratch);
    writeFileSync(join(OUT, 'tower.dom.html'), dom);
    for (const id of [
      'active-runs',
      'run-states',
      'verification-debt',
      'failures',
      'provenance-timeline',
      'health',
    ]) {
      expect(dom).toContain(`<section id="${id}">`);
    }
    for (const entry of data.runs) expect(dom).toContain(entry.run_id ?? 'missing run id');
    expect(dom).toContain('awaiting approval');
    expect(dom).toContain("Doctor's last result");
    expect(dom).not.toMatch(/<script|<img|<iframe/i);
    for (const text of HOSTILE) expect(dom).not.toContain(text);
    expect(dom).not.toContain('evil.example');
    expect(dom).not.toContain('Roadmap refresh');
    expect(dom).not.toContain('Recovery done');
  });
});
