/**
 * Doctor's checks of the two optional projections, each run only when `.writ/config.json` names it:
 *
 * - `project-board` (`project`): the Projects (v2) project read with the doctor's token through the
 *   projection's own query (`readProject`, projects/sync.ts), against the field names and single-select
 *   vocabulary the projection writes (projects/values.ts).
 * - `pages-source` (`pages: true`): `GET /repos/{owner}/{repo}/pages`, whose `build_type` is `workflow`
 *   when Settings → Pages → Source is "GitHub Actions", the source actions/deploy-pages needs
 *   (https://docs.github.com/en/rest/pages/pages#get-a-apiname-pages-site: 200 with `build_type`
 *   `legacy` | `workflow`, 404 when the repository has no Pages site; an app needs `pages: read`).
 *
 * Every name GitHub answers (fields, options, data types) is hostile: it is printed through
 * `quoteUntrusted` only, or not at all.
 */
import { errorMessage, httpStatus } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import type { Project, ProjectTarget } from '../projects/sync.js';
import { ProjectFailure, readProject } from '../projects/sync.js';
import { DEFAULT_FIELD_NAMES, PROJECT_VALUE_KEYS, PROJECT_VOCABULARY } from '../projects/values.js';
import { INVISIBLE_CHARACTERS, escapeUntrusted, quoteUntrusted } from '../untrusted-text.js';
import type { Check } from './types.js';
import { CONFIG_PATH } from './files.js';

function check(id: string, status: Check['status'], detail: string, fix?: string): Check {
  return fix === undefined ? { id, status, detail } : { id, status, detail, fix };
}

const PROJECT_PERMISSION_FIX =
  'Run doctor with the Writ app\'s token once it has "Organization permissions → Projects: Read and write" (organization_projects), or with the token of a member of the organization (a classic PAT needs the read:project scope).';

/** What the projection would skip on this project: each field missing, mistyped or short of options. */
function fieldProblems(project: Project): string[] {
  const problems: string[] = [];
  for (const key of PROJECT_VALUE_KEYS) {
    const name = DEFAULT_FIELD_NAMES[key];
    const vocabulary: readonly string[] | undefined =
      key in PROJECT_VOCABULARY ? PROJECT_VOCABULARY[key as keyof typeof PROJECT_VOCABULARY] : undefined;
    const field = project.fields.find(
      (candidate) =>
        candidate.name === name && (candidate.dataType === 'TEXT' || candidate.dataType === 'SINGLE_SELECT'),
    );
    if (field === undefined) {
      const named = project.fields.find((candidate) => candidate.name === name);
      const near = project.fields.find(
        (candidate) =>
          candidate.name !== name &&
          candidate.name.replace(INVISIBLE_CHARACTERS, '').trim().toLowerCase() === name.toLowerCase(),
      );
      const type = named === undefined ? '' : /^[A-Z_]{1,40}$/.test(named.dataType) ? named.dataType : '?';
      problems.push(
        named !== undefined
          ? `field "${name}" is ${type}, not text or single-select`
          : near !== undefined
            ? `no field "${name}" (names match exactly; the project has ${quoteUntrusted(near.name, 60)})`
            : `no field "${name}"`,
      );
      continue;
    }
    if (field.dataType !== 'SINGLE_SELECT') continue;
    if (vocabulary === undefined) {
      problems.push(`field "${name}" is single-select but its values are free text: make it a text field`);
      continue;
    }
    const missing = vocabulary.filter((option) => !field.options.some((entry) => entry.name === option));
    if (missing.length > 0) problems.push(`field "${name}" lacks option(s) ${missing.join(', ')}`);
  }
  return problems;
}

/**
 * The project named in `.writ/config.json` (operations reference §13): PASS when it exists, is open, is
 * an organization's and has every field the projection writes; WARN listing what the projection would
 * skip (or that it is closed); FAIL when GitHub has no such project or it is a user's (no app token
 * reaches a user's project); UNKNOWN when this token may not read it (FORBIDDEN, a missing scope, a
 * failed request).
 */
export async function projectBoardCheck(github: GitHubClient, target: ProjectTarget): Promise<Check> {
  const id = 'project-board';
  const shown = `${quoteUntrusted(target.owner, 39)}/${target.number}`;
  const userFix =
    'Use a project owned by an organization (writ init --github --project ORG/NUMBER); a GitHub App has no permission that reaches a user-owned project.';
  let project: Project;
  try {
    project = await readProject(github, target);
  } catch (error: unknown) {
    if (!(error instanceof ProjectFailure)) {
      const status = httpStatus(error);
      return check(
        id,
        'UNKNOWN',
        `Cannot read the project ${shown} (${status === undefined ? escapeUntrusted(errorMessage(error), 120) : `HTTP ${status}`}).`,
        PROJECT_PERMISSION_FIX,
      );
    }
    if (error.code !== 'project-not-found') {
      return check(
        id,
        'UNKNOWN',
        `Cannot read the project (${error.code}: ${error.message}).`,
        PROJECT_PERMISSION_FIX,
      );
    }
    if (error.owner === 'user') {
      return check(
        id,
        'FAIL',
        `The project ${shown} named in ${CONFIG_PATH} belongs to a user account (or does not exist): the Writ app's token can never reach it, so no run is shown.`,
        userFix,
      );
    }
    return check(
      id,
      'FAIL',
      error.owner === 'none'
        ? `The project ${shown} named in ${CONFIG_PATH}: GitHub has no organization or user with that login.`
        : `The project ${shown} named in ${CONFIG_PATH} does not exist (or this token cannot see it: GitHub answers NOT_FOUND for a project outside the token's reach).`,
      `Check the owner and number in ${CONFIG_PATH} (https://github.com/orgs/OWNER/projects/NUMBER), or switch the projection off with writ init --github --project ''.`,
    );
  }
  if (project.owner === 'user') {
    return check(
      id,
      'FAIL',
      `The project ${shown} belongs to a user account: the Writ app's token can never reach it, so no run is shown.`,
      userFix,
    );
  }
  const problems = fieldProblems(project);
  const notes = [
    ...(project.closed ? ['the project is closed (reopen it in its settings)'] : []),
    ...problems,
  ];
  if (notes.length > 0) {
    return check(
      id,
      'WARN',
      `The project ${shown}: ${notes.join('; ')}. The projection skips what is missing and writes the rest.`,
      'Create the fields named in docs/projects.md (exact names; the single-select options listed there).',
    );
  }
  return check(
    id,
    'PASS',
    `The project ${shown} is open, owned by an organization and has every field the projection writes (${PROJECT_VALUE_KEYS.map((key) => DEFAULT_FIELD_NAMES[key]).join(', ')}).`,
  );
}

/**
 * The Pages source the control tower's deployment needs (docs/pages.md): PASS when the site is built by
 * GitHub Actions (`build_type: workflow`); WARN when it is built from a branch (`legacy`: the `pages`
 * job's actions/deploy-pages fails) or Pages is not enabled (404); UNKNOWN when this token may not read
 * it (403: an app needs `pages: read` on a private repository) or the request fails.
 */
export async function pagesSourceCheck(github: GitHubClient, owner: string, repo: string): Promise<Check> {
  const id = 'pages-source';
  const fix =
    'Settings → Pages → Build and deployment → Source: GitHub Actions (the recovery workflow deploys with actions/deploy-pages).';
  let buildType: unknown;
  try {
    const response = await github.request('GET /repos/{owner}/{repo}/pages', { owner, repo });
    buildType = response.data.build_type;
  } catch (error: unknown) {
    const status = httpStatus(error);
    if (status === 404) {
      return check(
        id,
        'WARN',
        `GitHub Pages is not enabled on this repository (HTTP 404), but ${CONFIG_PATH} has "pages": true: the recovery workflow's pages job cannot deploy the control tower.`,
        fix,
      );
    }
    return check(
      id,
      'UNKNOWN',
      `Cannot read the repository's GitHub Pages settings (${status === undefined ? escapeUntrusted(errorMessage(error), 120) : `HTTP ${status}`}).`,
      'Run doctor with a token that can read Pages: a GitHub App needs pages: read on a private repository (a classic PAT: repo).',
    );
  }
  if (buildType === 'workflow') {
    return check(
      id,
      'PASS',
      'GitHub Pages is built by GitHub Actions (build_type workflow): the recovery workflow can deploy the control tower.',
    );
  }
  const shown = typeof buildType === 'string' ? quoteUntrusted(buildType, 20) : 'not given';
  return check(
    id,
    'WARN',
    `GitHub Pages is built from a branch, not by GitHub Actions (build_type ${shown}): the recovery workflow's pages job fails to deploy the control tower.`,
    fix,
  );
}
