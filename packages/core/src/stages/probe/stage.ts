import { writeEvidenceFile } from '../../probe/evidence-file.js';
import type { ProbeDeps } from '../../probe/probe.js';
import { runProbe } from '../../probe/probe.js';
import { kindVerdicts, renderEvidence, renderProbeSummary } from '../../probe/render.js';
import type { StageResult } from '../runner.js';
import type { ProbeStageSettings } from './inputs.js';

/** Guard, cases, primitives, cleanup; then the evidence file in the workspace and the summary table. */
export async function probe(settings: ProbeStageSettings, deps: ProbeDeps): Promise<StageResult<'probe'>> {
  const result = await runProbe(deps, settings);
  if (result.kind === 'dry-run') {
    return {
      summary: [
        `## Writ probe: \`${settings.sandbox}\` (dry run: nothing written)`,
        '',
        `The guard passed: ${settings.sandbox} is confirmed, allow-listed in ${settings.allowlistFile} of ${settings.current}, and not this repository. Run with \`dry-run: false\` to:`,
        '',
        ...result.plan.map((line) => `- ${line}`),
        '',
      ].join('\n'),
      outputs: { outcome: 'dry-run', reason: '' },
    };
  }
  const { evidence } = result;
  const bytes = renderEvidence(evidence);
  const path = writeEvidenceFile(settings.workspace, settings.evidenceFile, bytes);
  const opens = kindVerdicts(evidence, new Date(Date.parse(evidence.finished_at)))
    .filter((verdict) => verdict.open)
    .map((verdict) => verdict.kind);
  return {
    // The evidence itself, for the owner to commit as `evidence-file` through a pull request.
    summary: `${renderProbeSummary(evidence, settings.evidenceFile, result.requests)}\n<details><summary>${settings.evidenceFile}</summary>\n\n\`\`\`json\n${bytes}\`\`\`\n\n</details>\n`,
    outputs: {
      outcome: 'probed',
      reason: '',
      'evidence-file': path,
      cases: evidence.cases.map((entry) => `${entry.id}=${entry.classification}`).join(','),
      primitives: evidence.primitives.map((entry) => `${entry.id}=${entry.classification}`).join(','),
      opens: opens.join(','),
      requests: result.requests,
      'cleanup-left': evidence.cleanup.left.length,
    },
  };
}
