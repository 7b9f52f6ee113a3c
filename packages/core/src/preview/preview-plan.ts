/**
 * The dry-run half of preview, and the start of every preview: load and validate the plan, compute its
 * digest and run ID, render the deterministic preview and write it to a file. No GitHub client.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { FileRoots } from '../io/input-file.js';
import { join } from 'node:path';
import { digest } from '../canonical-json.js';
import { WritError, errorMessage } from '../errors.js';
import { loadPlanFile } from '../plan/load.js';
import { deriveRunId, isValidRunId } from '../plan/run-id.js';
import type { Plan } from '../plan/types.js';
import type { Logger } from '../redact.js';
import { redact } from '../redact.js';
import type { Assessment } from './assess.js';
import { approveCommand, renderPreview } from './render.js';

export interface PreviewSettings {
  planFile: string;
  /** Where a stage may read the plan from (the workspace and the runner's temp directory). */
  planRoots?: FileRoots;
  /** A run ID the stage's inputs validated; empty or undefined: derived from the digest. */
  runId?: string;
  /** Validated by the stage's inputs (`validateCommandPrefix`). */
  commandPrefix: string;
  /** Directory the rendered preview is written to. */
  outputDir: string;
}

export interface PreviewResult {
  plan: Plan;
  digest: string;
  runId: string;
  approveCommand: string;
  markdown: string;
  previewPath: string;
}

/** A valid plan, its digest and its run ID: everything a preview needs before it reads the repository. */
export interface LoadedPreview {
  plan: Plan;
  digest: string;
  runId: string;
}

/** Validates the plan and computes its digest and run ID. */
export function loadPreview(settings: PreviewSettings): LoadedPreview {
  const plan = loadPlanFile(settings.planFile, settings.planRoots);
  const planDigest = digest(plan);
  const runId = settings.runId || deriveRunId(planDigest);
  // The run ID names the preview file: an invariant here, the input itself was checked in `inputs`.
  if (!isValidRunId(runId)) throw new Error('previewPlan was given a run ID its inputs never validated');
  return { plan, digest: planDigest, runId };
}

/** Renders a loaded plan's preview (with what the stage assessed, when given) and writes it to a file. */
export function writePreview(
  settings: PreviewSettings,
  loaded: LoadedPreview,
  deps: { logger: Logger },
  assessment?: Assessment,
): PreviewResult {
  const { commandPrefix } = settings;
  const { plan, digest: planDigest, runId } = loaded;
  const markdown = redact(
    renderPreview({
      plan,
      planDigest,
      runId,
      commandPrefix,
      ...(assessment === undefined ? {} : { assessment }),
    }),
  );
  const previewPath = join(settings.outputDir, `writ-preview-${runId}.md`);
  try {
    mkdirSync(settings.outputDir, { recursive: true });
    writeFileSync(previewPath, markdown, 'utf8');
  } catch (error: unknown) {
    throw new WritError(
      'output-write-failed',
      `could not write the preview to ${previewPath}: ${errorMessage(error)}`,
    );
  }
  deps.logger.info(`plan ${runId}: ${plan.steps.length} steps, digest ${planDigest}`);
  return {
    plan,
    digest: planDigest,
    runId,
    approveCommand: approveCommand(commandPrefix, runId, planDigest),
    markdown,
    previewPath,
  };
}

/** Validates the plan, computes its digest and run ID, renders the preview and writes it to a file. */
export function previewPlan(settings: PreviewSettings, deps: { logger: Logger }): PreviewResult {
  return writePreview(settings, loadPreview(settings), deps);
}
