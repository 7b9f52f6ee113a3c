/** Types of scripts/release/notes.mjs for the tests that import it. */
import type { Evidence } from './ci-evidence.mjs';
export const BUNDLES: string[];
export const RELEASE_WORKFLOW: string;
export function changelogSection(changelog: string, version: string): string;
export function sha256sums(tree?: string): string;
export function checkEvidence(evidence: Evidence | undefined, sha: string): void;
export function renderNotes(release: {
  version: string;
  sha: string;
  repository: string;
  changelog: string;
  evidenceMarkdown: string;
  sums: string;
}): string;
