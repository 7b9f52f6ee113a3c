/**
 * The control tower's two files from its public-safe data (project.ts): `index.html`, one
 * self-contained page (inline CSS allowed by its hash in a strict Content-Security-Policy, no script, no
 * external resource, so it renders the same from Pages or from file://), and `tower.json`, the same data.
 * Every value goes through `escapeHtml` (html.ts), the one escaper. The output is a function of the data
 * alone: the same ledger and clock give the same bytes.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from './html.js';
import type { TowerCommit, TowerData, TowerRun } from './project.js';
import { RUN_STATES, STEP_STATUSES } from './project.js';

const CSS = `
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: var(--ink); background: #fff; }
header { background: #24292f; color: #fff; padding: 20px 32px; }
header h1 { margin: 0 0 4px; font-size: 22px; }
header p { margin: 2px 0; color: #d1d9e0; }
header code { background: #424a53; color: #fff; }
main { padding: 8px 32px 32px; max-width: 1240px; }
section { margin-top: 24px; }
h2 { font-size: 17px; border-bottom: 1px solid var(--line); padding-bottom: 6px; margin: 0 0 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg); font-weight: 600; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--bg); padding: 1px 4px; border-radius: 4px; }
.note { color: var(--muted); }
.empty { color: var(--muted); font-style: italic; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; border: 1px solid transparent; }
.s-proposed { background: #fff8c5; border-color: #d4a72c; }
.s-approved, .s-running { background: #ddf4ff; border-color: #54aeff; }
.s-completed { background: #dafbe1; border-color: #4ac26b; }
.s-failed, .s-needs-reconciliation { background: #ffebe9; border-color: #ff8182; }
.s-cancelled, .s-unknown { background: #eaeef2; border-color: #afb8c1; }
.counts { display: flex; flex-wrap: wrap; gap: 12px; margin: 0; padding: 0; list-style: none; }
.counts li { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.counts b { display: block; font-size: 22px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; }
`;

const CSS_HASH = createHash('sha256').update(CSS, 'utf8').digest('base64');

/** No script, no frame, no form, no remote anything: only this page's own style block (by its hash). */
export const TOWER_CSP = `default-src 'none'; style-src 'sha256-${CSS_HASH}'; img-src 'none'; font-src 'none'; connect-src 'none'; script-src 'none'; object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'`;

const e = (value: string | number | null | undefined, fallback = '–'): string =>
  value === null || value === undefined ? fallback : escapeHtml(String(value));

const c = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? '–' : `<code>${escapeHtml(String(value))}</code>`;

function badge(state: string | null): string {
  const name = state ?? 'unknown';
  return `<span class="badge s-${escapeHtml(name)}">${escapeHtml(name)}</span>`;
}

function table(headings: readonly string[], rows: readonly string[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${escapeHtml(empty)}</p>`;
  const head = headings.map((heading) => `<th>${escapeHtml(heading)}</th>`).join('');
  const body = rows.map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

function stepSummary(run: TowerRun): string {
  return STEP_STATUSES.filter((status) => run.step_counts[status] > 0)
    .map((status) => `${escapeHtml(status)} ${run.step_counts[status]}`)
    .join(', ');
}

/** What the run waits for, in words the page can say without any free text. */
function nextAction(run: TowerRun): string {
  switch (run.state) {
    case 'proposed':
      return 'awaiting approval';
    case 'approved':
    case 'running':
      if (run.step_counts.conflict + run.step_counts.failed > 0) return 'a stopped step (verification debt)';
      return run.step_counts.claimed > 0 ? 'executing (steps claimed)' : 'executing';
    case 'needs-reconciliation':
      return 'awaiting a reconcile command';
    default:
      return '–';
  }
}

function activeSection(data: TowerData): string {
  const rows = data.runs
    .filter((run) => run.run_id !== null && data.active.includes(run.run_id))
    .map((run) => [
      c(run.run_id),
      badge(run.state),
      e(nextAction(run)),
      e(run.epoch),
      e(run.risk),
      stepSummary(run),
      e(run.proposed_at),
    ]);
  return `<section id="active-runs">
<h2>Active runs</h2>
${table(['run', 'state', 'waiting for', 'epoch', 'risk', 'steps', 'proposed'], rows, 'No run is active.')}
</section>`;
}

function statesSection(data: TowerData): string {
  const counts = RUN_STATES.map((state) => {
    const count = data.runs.filter((run) => run.state === state).length;
    return `<li>${badge(state)}<b>${count}</b></li>`;
  }).join('');
  const rows = data.runs.map((run) => [
    c(run.run_id),
    badge(run.state),
    e(run.epoch),
    e(run.risk),
    stepSummary(run),
    c(run.plan_digest === null ? null : run.plan_digest.slice(0, 19)),
    c(run.base_sha === null ? null : run.base_sha.slice(0, 12)),
    e(run.approved_at),
  ]);
  return `<section id="run-states">
<h2>Run states</h2>
<ul class="counts">${counts}</ul>
${table(['run', 'state', 'epoch', 'risk', 'steps', 'plan digest', 'base', 'approved'], rows, 'The ledger holds no run.')}
</section>`;
}

function debtSection(data: TowerData): string {
  const rows = data.debt.map((entry) => [c(entry.run_id), c(entry.step_id), e(entry.kind), c(entry.code)]);
  return `<section id="verification-debt">
<h2>Verification debt</h2>
<p class="note">Runs stopped for reconciliation, steps claimed but not settled, steps stopped in conflict or failure, and creates whose receipt is inconclusive.</p>
${table(['run', 'step', 'what', 'code'], rows, 'No verification debt.')}
</section>`;
}

function failuresSection(data: TowerData): string {
  const rows = data.failures.map((entry) => [c(entry.run_id), c(entry.step_id), c(entry.code)]);
  return `<section id="failures">
<h2>Failures and blockers</h2>
<p class="note">Stable codes only; docs/errors.md explains each.</p>
${table(['run', 'step', 'code'], rows, 'No failure or blocker is recorded.')}
</section>`;
}

function commitCell(commit: TowerCommit): string {
  const short = escapeHtml(commit.oid.slice(0, 12));
  return commit.link === null
    ? `<code>${short}</code>`
    : `<a href="${escapeHtml(commit.link, 2048)}" rel="noreferrer"><code>${short}</code></a>`;
}

function timelineSection(data: TowerData): string {
  const rows = data.timeline.map((commit) => [
    commitCell(commit),
    e(commit.committed_at),
    commit.transition === null ? '<span class="empty">not a Writ transition</span>' : e(commit.transition),
    c(commit.run_id),
    e(commit.epoch),
  ]);
  const more = data.health.timeline_truncated
    ? '<p class="note">Older commits are not shown; the ledger branch holds the full history.</p>'
    : '';
  return `<section id="provenance-timeline">
<h2>Provenance timeline</h2>
<p class="note">The newest ledger commits, each linked at its exact commit. A link shows what was recorded; it proves nothing by itself (<code>writ ledger verify</code> replays the history).</p>
${table(['commit', 'committed', 'transition', 'run', 'epoch'], rows, 'No commit was read.')}
${more}
</section>`;
}

function healthSection(data: TowerData): string {
  const { health } = data;
  const sweep = health.last_recovery_sweep;
  const lease = health.lease.held
    ? `epoch ${e(health.lease.epoch)}, held by ${c(health.lease.holder_run_id)} until ${e(health.lease.expires_at)}`
    : `free (epoch ${e(health.lease.epoch)})`;
  const frozen =
    health.frozen === null
      ? 'no'
      : `<strong>FROZEN</strong> ${c(health.frozen.code)} at ${c(health.frozen.commit)} (${e(health.frozen.frozen_at)})`;
  const checkpoint =
    health.checkpoint === null
      ? 'none'
      : `${c(health.checkpoint.verified_through)} (${e(health.checkpoint.verified_commits)} commits)`;
  const sweepText =
    sweep === null
      ? 'not recorded'
      : `${e(sweep.at)}: head ${c(sweep.head)}, ledger ${sweep.proven ? 'proven' : 'NOT proven'}, ${e(sweep.scanned)} run(s) scanned, ${e(sweep.taken_over)} taken over, ${e(sweep.needs_reconciliation)} needing reconciliation${sweep.dry_run ? ' (dry run)' : ''}`;
  return `<section id="health">
<h2>Health</h2>
<dl>
<dt>Ledger head</dt><dd>${c(health.ledger_head)}</dd>
<dt>Server time at read</dt><dd>${e(health.server_time)}</dd>
<dt>Lease</dt><dd>${lease}</dd>
<dt>Provenance checkpoint</dt><dd>${checkpoint}</dd>
<dt>Frozen</dt><dd>${frozen}</dd>
<dt>Last recovery sweep</dt><dd>${sweepText}</dd>
<dt>Doctor's last result</dt><dd>not recorded (the ledger records none; run <code>writ doctor --github</code>)</dd>
<dt>Values withheld</dt><dd>${e(data.withheld)}</dd>
</dl>
</section>`;
}

/** The page: self-contained, script-free, every value escaped. */
export function renderTowerHtml(data: TowerData): string {
  const where = `${e(data.repository)} @ ${e(data.branch)}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(TOWER_CSP, 1000)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Writ control tower</title>
<style>${CSS}</style>
</head>
<body>
<header>
<h1>Writ control tower</h1>
<p>${where}: generated ${e(data.generated_at)} from ledger head <code>${e(data.health.ledger_head.slice(0, 12))}</code></p>
<p>A read-only projection of the ledger. It has no authority: nothing on this page approves, starts, changes or verifies a run.</p>
</header>
<main>
${activeSection(data)}
${statesSection(data)}
${debtSection(data)}
${failuresSection(data)}
${timelineSection(data)}
${healthSection(data)}
</main>
</body>
</html>
`;
}

/** tower.json: the same public-safe data, canonical key order as projected. */
export function renderTowerJson(data: TowerData): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}
