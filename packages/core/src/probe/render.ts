/**
 * The probe's renderings: the evidence file's bytes (canonical JSON, RFC 8785, one final newline, so
 * identical results give identical bytes), the job summary table, and `--explain`'s verdict per step
 * kind under `require-proof`.
 */
import { canonicalize } from '../canonical-json.js';
import { POLICY_KINDS } from '../plan/types.js';
import type { CaseId, KindVerdict, ProbeAttempt, ProbeEvidence } from './evidence.js';
import { evidenceProblems, evidenceVerdict } from './evidence.js';

/** What each case covers, for people. */
export const CASE_TITLES: Record<CaseId, string> = {
  '1': 'milestone description edit after an external description edit',
  '2a': 'issue milestone change after an external milestone reassignment',
  '2b': 'issue milestone change after an external pin-label change',
  '3a': "issue milestone change after the source milestone's marker changed",
  '3b': "issue milestone change after the target milestone's marker changed",
  '4': 'concurrent create of the same key (issue, milestone)',
};

/** The evidence file's bytes; refuses (as a bug) evidence its own schema rejects. */
export function renderEvidence(evidence: ProbeEvidence): string {
  const problems = evidenceProblems(evidence);
  if (problems.length > 0) throw new Error(`probe evidence does not validate: ${problems.join('; ')}`);
  return `${canonicalize(evidence)}\n`;
}

function cell(value: string | number | null): string {
  return value === null ? '—' : String(value);
}

function row(name: string, attempt: ProbeAttempt, what: string): string {
  return `| ${name} | ${what} | **${attempt.classification}** | \`${attempt.surface}\` | ${cell(attempt.control_status)} | ${cell(attempt.status)} | ${cell(attempt.error_code)} | ${attempt.read_back} | ${attempt.reason} | ${attempt.at} |`;
}

const HEADER = [
  '| id | what | classification | surface | control | stale write | error | read-back | reason | server time |',
  '|---|---|---|---|---|---|---|---|---|---|',
];

/** One line per step kind: open or closed under `require-proof`, and why not. */
export function renderVerdicts(verdicts: readonly KindVerdict[]): string[] {
  return verdicts.map((verdict) =>
    verdict.open
      ? `- \`${verdict.kind}\`: **opens** (cases ${verdict.cases.join(', ')} positive)`
      : `- \`${verdict.kind}\`: stays closed: ${verdict.why}`,
  );
}

export function kindVerdicts(evidence: ProbeEvidence, now: Date): KindVerdict[] {
  return evidenceVerdict(evidence, POLICY_KINDS, now);
}

/** The job summary: the cases and primitives as a table, cleanup, and what the evidence opens. */
export function renderProbeSummary(evidence: ProbeEvidence, evidencePath: string, requests: number): string {
  const lines = [
    `## Writ probe: \`${evidence.sandbox}\``,
    '',
    `Run \`${evidence.probe_run}\` against ${evidence.api_url}, ${evidence.started_at} → ${evidence.finished_at} (server time), ${requests} requests.`,
    '',
    ...HEADER,
  ];
  for (const entry of evidence.cases) {
    entry.attempts.forEach((attempt, index) => {
      const name =
        entry.attempts.length > 1 ? `${entry.id} (${index + 1}/${entry.attempts.length})` : entry.id;
      lines.push(row(name, attempt, CASE_TITLES[entry.id]));
    });
  }
  for (const entry of evidence.primitives) {
    const [attempt] = entry.attempts;
    lines.push(row(entry.id, attempt, 'primitive Writ relies on'));
  }
  lines.push(
    '',
    `Cleanup: removed ${evidence.cleanup.removed} probe resource(s)${
      evidence.cleanup.left.length === 0
        ? ', left none.'
        : `; could not remove: ${evidence.cleanup.left.join(', ')}.`
    }`,
    '',
    'Under `require-proof` this evidence (once committed to the default branch through a pull request):',
    '',
    ...renderVerdicts(kindVerdicts(evidence, new Date(Date.parse(evidence.finished_at)))),
    '',
    `Evidence written to \`${evidencePath}\`: commit it through a normal pull request.`,
    '',
  );
  return lines.join('\n');
}

/** `writ probe --explain`: what the evidence is and which kinds it opens at `now`. */
export function renderExplain(evidence: ProbeEvidence, now: Date): string {
  const lines = [
    `Probe evidence: ${evidence.sandbox} via ${evidence.api_url}, run ${evidence.probe_run}, finished ${evidence.finished_at}.`,
    '',
    ...evidence.cases.map(
      (entry) => `  case ${entry.id.padEnd(3)} ${entry.classification.padEnd(12)} ${CASE_TITLES[entry.id]}`,
    ),
    ...evidence.primitives.map((entry) => `  ${entry.classification.padEnd(12)} ${entry.id}`),
    '',
    'Under require-proof (as of now):',
    ...renderVerdicts(kindVerdicts(evidence, now)).map((line) => line.replace(/\*\*|`/g, '')),
  ];
  return `${lines.join('\n')}\n`;
}
