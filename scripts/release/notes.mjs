#!/usr/bin/env node
// The GitHub Release's notes and its SHA256SUMS, written by the release workflow's release job from
// the tree it checked out (the commit the check and CI jobs ran on) and CI's evidence for that commit.
// The notes name the exact tag and full commit SHA, carry CHANGELOG.md's section for the version, the
// CI evidence (scripts/release/ci-evidence.mjs), each stage bundle's sha256sum, and how to verify a
// bundle (docs/releases.md). It refuses evidence that is not passing or names another commit, and a
// version CHANGELOG.md has no section for.
//
// What an attestation is, said once here and in docs/releases.md (operations specification §16: never
// equate artifact provenance with functional correctness): it proves where and from what a bundle was
// built, not that the bundle works.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderEvidence } from './ci-evidence.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The seven stage bundles, each attested by the release workflow and listed in SHA256SUMS. */
export const BUNDLES = [
  'claim-checkpoint',
  'consume-approval',
  'persist',
  'preview',
  'probe',
  'publish-artifact',
  'recovery',
].map((stage) => `dist/${stage}/index.js`);

/** The workflow that signs the attestations (the release workflow of this repository). */
export const RELEASE_WORKFLOW = '.github/workflows/release.yml';

const VERSION = /^\d+\.\d+\.\d+$/;
const SHA = /^[0-9a-f]{40}$/;
const REPOSITORY = /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/;

/** CHANGELOG.md's section for `version` (the lines under `## [version] - date`, up to the next `## `). */
export function changelogSection(changelog, version) {
  const lines = changelog.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.startsWith(`## [${version}]`));
  if (start < 0) throw new Error(`CHANGELOG.md has no '## [${version}]' section`);
  const end = lines.findIndex((line, at) => at > start && line.startsWith('## '));
  const body = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
  if (body === '') throw new Error(`CHANGELOG.md's '## [${version}]' section is empty`);
  return body;
}

/** `sha256sum`'s lines for the bundles, as `sha256sum -c` reads them (hex, two spaces, path). */
export function sha256sums(tree = root) {
  const lines = BUNDLES.map(
    (path) =>
      `${createHash('sha256')
        .update(readFileSync(join(tree, path)))
        .digest('hex')}  ${path}`,
  );
  return `${lines.join('\n')}\n`;
}

/** The evidence must be passing and for exactly this commit, or there is no release. */
export function checkEvidence(evidence, sha) {
  if (evidence?.verdict !== 'passed') throw new Error('the CI evidence is not passing: no release');
  if (evidence.sha !== sha) throw new Error(`the CI evidence is for another commit, not ${sha}: no release`);
}

function checkNames({ version, sha, repository }) {
  if (!VERSION.test(version ?? '')) throw new Error('version must be X.Y.Z');
  if (!SHA.test(sha ?? '')) throw new Error('the commit must be a full 40-hex SHA');
  if (!REPOSITORY.test(repository ?? '')) throw new Error('repository must be owner/name');
}

/** The release notes, Markdown. */
export function renderNotes({ version, sha, repository, changelog, evidenceMarkdown, sums }) {
  checkNames({ version, sha, repository });
  const tag = `v${version}`;
  return `Writ ${tag}: the tag \`${tag}\` names commit \`${sha}\` (${repository}).

Pin that commit, never the tag (a tag can be moved, a commit cannot):

\`\`\`yaml
uses: ${repository}/actions/persist@${sha} # ${tag}
\`\`\`

## Changes

${changelog}

## Test evidence

What \`.ci/run\` printed at the end of the CI run on this commit, in this release workflow run (lint,
types, the whole suite, \`dist/\` rebuilt from source and compared, the protocol model, actionlint). The
full file is attached as \`ci-evidence.md\`.

${evidenceMarkdown.trim()}

## Bundles

Each stage's bundle at this commit (\`SHA256SUMS\` is attached):

\`\`\`text
${sums.trim()}
\`\`\`

## Verify

Each bundle has a build provenance attestation signed in this release workflow run. Fetch the bundle
at the commit you pin and check it (step by step in \`docs/releases.md\`):

\`\`\`sh
gh attestation verify dist/persist/index.js --repo ${repository} \\
  --signer-workflow ${repository}/${RELEASE_WORKFLOW} \\
  --source-digest ${sha} --source-ref refs/heads/main \\
  --cert-oidc-issuer https://token.actions.githubusercontent.com --deny-self-hosted-runners
sha256sum -c SHA256SUMS
\`\`\`

An attestation proves where and from what a bundle was built: by this repository's release workflow,
on a GitHub-hosted runner, from commit \`${sha}\`. It does not prove that the bundle works, is free of
bugs, or is safe to run: the tests above are the evidence for that, and only for what they test.
`;
}

function main() {
  const { values } = parseArgs({
    options: {
      version: { type: 'string' },
      sha: { type: 'string' },
      repository: { type: 'string' },
      evidence: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const { version, sha, repository, evidence: evidenceDir, out } = values;
  if ([version, sha, repository, evidenceDir, out].includes(undefined)) {
    console.error(
      'usage: notes.mjs --version X.Y.Z --sha <commit> --repository owner/name --evidence <dir> --out <dir>',
    );
    process.exit(2);
  }
  checkNames({ version, sha, repository });
  const evidence = JSON.parse(readFileSync(join(evidenceDir, 'ci-evidence.json'), 'utf8'));
  checkEvidence(evidence, sha);
  // Rendered again from the checked JSON, so the notes say exactly what was checked.
  const evidenceMarkdown = renderEvidence(evidence);
  const changelog = changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version);
  const sums = sha256sums();
  const notes = renderNotes({ version, sha, repository, changelog, evidenceMarkdown, sums });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'notes.md'), notes);
  writeFileSync(join(out, 'SHA256SUMS'), sums);
  writeFileSync(join(out, 'ci-evidence.md'), evidenceMarkdown);
  console.log(`notes.md, SHA256SUMS and ci-evidence.md for v${version} (${sha}) in ${out}`);
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(`::error::${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
