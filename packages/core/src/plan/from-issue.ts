/**
 * `writ plan from-issue`: a submitted Writ work-request form (setup/issue-form.ts, its fields in
 * plan/intake-fields.ts) turned into a plan.
 *
 * GitHub renders a submitted Issue Form as Markdown: each answer under `### <label>`, an empty one as
 * `_No response_`. The requester can edit that body into anything, so every answer is untrusted (the
 * operations reference §4.2): it only ever becomes plan *text* (the work unit's title and body, shown
 * as written inside code blocks), or a choice from the form's closed list, mapped to a fixed keyword.
 * The plan has one step kind, `issue.create` (the work unit), whatever the answers say.
 *
 * Refused, never repaired: a body that is not the form (`intake-form-malformed`: text before the first
 * heading, an unknown, duplicate or missing heading); an answer that is honestly wrong
 * (`intake-field-invalid`: a required answer missing, too long, a choice not on the list, a path or name
 * of the wrong shape); and an answer that tries to reach authority (`intake-field-hostile`: a Writ
 * hidden marker or command line, a secret or token, a control or bidi character, a heading that would
 * pass for another field, a request for workflows, permissions, secrets, administration, merging or an
 * unrestricted path scope). Every problem names the field and its rule, never the text. The finished
 * plan then passes the plan validator (plan/validate.ts) like any other plan.
 */
import { WritError } from '../errors.js';
import type { GitHubClient } from '../github/client.js';
import { speaksMarkerLanguage } from '../idempotency/key.js';
import { containsInvisible, escapeInline, fencedBlock } from '../markdown.js';
import { containsSecret } from '../redact.js';
import { truncateCodePoints } from '../untrusted-text.js';
import type { IntakeField, TextField } from './intake-fields.js';
import { INTAKE_FIELDS, ISSUE_FORM_PATH, ISSUE_FORM_TITLE_PREFIX } from './intake-fields.js';
import type { IssueCreateStep, Plan } from './types.js';
import { validatePlan } from './validate.js';

/** GitHub's limit on an issue body, in characters; a longer text was not written by GitHub's form. */
export const MAX_FORM_BODY = 65536;
/** The longest title accepted (the plan schema's short text). */
export const MAX_TITLE = 256;
/** The longest path line of a paths answer. */
export const MAX_PATH = 256;

/** How GitHub renders an answer left empty. */
const NO_RESPONSE = '_No response_';

/** One answer, read and checked: text, a list of paths, or a choice's fixed keyword; null when empty. */
export type IntakeAnswer =
  | { kind: 'text'; text: string }
  | { kind: 'paths'; paths: string[] }
  | { kind: 'choice'; keyword: string }
  | null;

/** A submitted form, every answer checked, by field ID (INTAKE_FIELDS). */
export type IntakeRequest = Record<string, IntakeAnswer>;

export type IntakeRule =
  | 'required'
  | 'too-long'
  | 'unknown-choice'
  | 'path-shape'
  | 'name-shape'
  | 'control-character'
  | 'secret'
  | 'writ-marker'
  | 'writ-command'
  | 'heading'
  | 'authority-request';

const HOSTILE: ReadonlySet<IntakeRule> = new Set([
  'control-character',
  'secret',
  'writ-marker',
  'writ-command',
  'heading',
  'authority-request',
]);

export interface IntakeProblem {
  /** The field's ID, or `title`. */
  field: string;
  rule: IntakeRule;
  /** Names the field by its label and says what is wrong; never the answer's text. */
  message: string;
}

export interface IntakeOptions {
  /** The approve command prefix (`.writ/config.json` `command_prefix`); default `writ`. */
  commandPrefix?: string;
}

/**
 * Requests for what no answer may set (§4.2): secrets, commands run by workflows, workflow permissions,
 * administration, merge authority. Each answer is matched after NFKC (so fullwidth letters match too).
 */
const AUTHORITY_REQUESTS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /\$\{\{/, what: 'a GitHub Actions expression' },
  { pattern: /\bsecrets\s*[.[]/i, what: 'a secret reference' },
  {
    pattern:
      /\b(?:GITHUB_TOKEN|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|WRIT_APP_PRIVATE_KEY)\b/i,
    what: 'a token or key variable',
  },
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/i, what: 'a private key' },
  { pattern: /^\s*permissions\s*:/im, what: 'a workflow permissions block' },
  {
    pattern:
      /\b(?:actions|administration|checks|contents|deployments|environments|id-token|issues|packages|pages|pull-requests|secrets|security-events|statuses|workflows)\s*:\s*(?:write|admin)\b/i,
    what: 'a permission grant',
  },
  {
    pattern: /\.github\/workflows\b|\b(?:workflow_dispatch|repository_dispatch|pull_request_target)\b/i,
    what: 'a workflow change',
  },
  {
    pattern:
      /\b(?:grant|give|add|elevate|escalate|make)\b[^.\n]{0,40}\b(?:admin|administrator|maintain|maintainer|owner|write)\b[^.\n]{0,20}\b(?:access|permissions?|role|rights)\b/i,
    what: 'a request for access',
  },
  {
    pattern:
      /\b(?:bypass|disable|skip|turn off|remove)\b[^.\n]{0,30}\b(?:branch protection|rulesets?|required reviews?|reviews?|approvals?|status checks|required checks|codeowners)\b/i,
    what: 'a request to bypass a protection',
  },
  {
    pattern:
      /\bauto-?merge\b|\bforce[- ]push\b|\bgh pr merge\b|(?:^|\s)--admin\b|\bmerge\b[^.\n]{0,20}\b(?:without|automatically|directly|immediately)\b/i,
    what: 'a request for merge authority',
  },
];

/** A Markdown ATX heading (up to three spaces in): inside an answer it would pass for another field. */
const HEADING_LINE = /^ {0,3}#{1,6}(?:[ \t]|$)/;
/** Top-level names an allowed path may not start with: workflows, Writ's settings, Git itself. */
const RESERVED_ROOTS = new Set(['.github', '.writ', '.git']);
const PATH_LINE = /^[A-Za-z0-9._\-/*?]+$/;
const GLOB = /[*?]/;
const CONNECTOR_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const LONE_SURROGATE = /\p{Surrogate}/u;

function codePoints(text: string): number {
  return Array.from(text).length;
}

/** Whether a line, however quoted or spaced, reads as a Writ comment command. */
function isCommandLine(line: string, prefix: string): boolean {
  const plain = line
    .normalize('NFKC')
    .replace(/^[\s>`*_~-]+/, '')
    .toLowerCase();
  if (/^[a-z][a-z0-9-]{0,31}\s*:\s*approve\s+\S+\s+[0-9a-f]{64}\b/.test(plain)) return true;
  const verb = /^([a-z][a-z0-9-]{0,31})\s*:\s*(?:approve|reconcile|cancel|accept|reject)\b/.exec(plain);
  return verb !== null && verb[1] === prefix.toLowerCase();
}

/** The rules every free-text answer (and the title) obeys: the hostile ones first, then length. */
function textProblems(
  field: string,
  label: string,
  text: string,
  maxLength: number,
  prefix: string,
): IntakeProblem[] {
  const problem = (rule: IntakeRule, why: string): IntakeProblem => ({
    field,
    rule,
    message: `the answer to "${label}" ${why}`,
  });
  const problems: IntakeProblem[] = [];
  if (containsInvisible(text.replace(/[\n\t]/g, '')) || LONE_SURROGATE.test(text))
    problems.push(problem('control-character', 'holds a control, invisible or bidi character'));
  if (containsSecret(text))
    problems.push(problem('secret', 'holds a secret or a token-shaped string (not shown)'));
  if (speaksMarkerLanguage(text))
    problems.push(problem('writ-marker', 'holds a Writ hidden marker (`<!-- writ-`)'));
  const lines = text.split('\n');
  if (lines.some((line) => isCommandLine(line, prefix)))
    problems.push(problem('writ-command', 'holds a line that reads as a Writ comment command'));
  if (lines.some((line) => HEADING_LINE.test(line)))
    problems.push(problem('heading', 'holds a Markdown heading, which would read as another field'));
  const normalized = text.normalize('NFKC');
  const request = AUTHORITY_REQUESTS.find((entry) => entry.pattern.test(normalized));
  if (request !== undefined)
    problems.push(problem('authority-request', `holds ${request.what}; an answer cannot ask for authority`));
  const length = codePoints(text);
  if (length > maxLength)
    problems.push(problem('too-long', `is ${length} characters long; the limit is ${maxLength}`));
  return problems;
}

/** One path line of an allowed (`allowed`) or forbidden paths answer: its problem, or null. */
function pathProblem(path: string, allowed: boolean): { rule: IntakeRule; why: string } | null {
  if (codePoints(path) > MAX_PATH) return { rule: 'too-long', why: `has a path over ${MAX_PATH} characters` };
  if (!PATH_LINE.test(path) || path.startsWith('/') || path.includes('//'))
    return { rule: 'path-shape', why: 'has a line that is not a relative path of [A-Za-z0-9._-/*?]' };
  const segments = path.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.'))
    return { rule: 'path-shape', why: 'has a path with a `.` or `..` segment' };
  if (!allowed) return null;
  const root = segments[0] ?? '';
  if (GLOB.test(root))
    return {
      rule: 'authority-request',
      why: 'asks for an unrestricted scope: an allowed path starts with a named top-level directory or file',
    };
  if (
    RESERVED_ROOTS.has(root.toLowerCase()) ||
    segments.some((segment) => segment.toLowerCase() === 'codeowners')
  )
    return {
      rule: 'authority-request',
      why: 'asks for workflows, Writ settings or CODEOWNERS (.github/, .writ/, .git/, CODEOWNERS)',
    };
  return null;
}

function pathsAnswer(
  field: TextField,
  text: string,
  prefix: string,
  problems: IntakeProblem[],
): IntakeAnswer {
  const before = problems.length;
  problems.push(...textProblems(field.id, field.label, text, field.maxLength, prefix));
  const paths = text
    .split('\n')
    .map((line) => line.trim().replace(/^- /, '').trim())
    .filter((line) => line !== '');
  for (const path of paths) {
    const problem = pathProblem(path, field.id === 'allowed-paths');
    if (problem !== null) {
      problems.push({
        field: field.id,
        rule: problem.rule,
        message: `the answer to "${field.label}" ${problem.why}`,
      });
      break;
    }
  }
  return problems.length > before || paths.length === 0 ? null : { kind: 'paths', paths };
}

/** One answer as its field reads it; its problems are added to `problems`. */
function readAnswer(
  field: IntakeField,
  raw: string,
  prefix: string,
  problems: IntakeProblem[],
): IntakeAnswer {
  const text = raw === NO_RESPONSE ? '' : raw;
  const say = (rule: IntakeRule, why: string): null => {
    problems.push({ field: field.id, rule, message: `the answer to "${field.label}" ${why}` });
    return null;
  };
  if (field.type === 'dropdown') {
    if (text === '' || (!field.required && text === 'None'))
      return field.required ? say('required', 'is required') : null;
    const choice = field.choices.find((entry) => entry.option === text);
    return choice === undefined
      ? say('unknown-choice', "is not one of the form's choices")
      : { kind: 'choice', keyword: choice.keyword };
  }
  if (text === '') return field.required ? say('required', 'is required') : null;
  if (field.shape === 'paths') return pathsAnswer(field, text, prefix, problems);
  const before = problems.length;
  problems.push(...textProblems(field.id, field.label, text, field.maxLength, prefix));
  if (problems.length > before) return null;
  if (field.shape === 'name' && !CONNECTOR_NAME.test(text))
    return say('name-shape', 'is not a name of 1-64 of [A-Za-z0-9._-] starting with a letter or digit');
  return { kind: 'text', text };
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * The answers of a form body by field ID, raw (blank lines around each trimmed), or
 * `intake-form-malformed` listing what makes the body not the form.
 */
export function splitIssueForm(body: string): Map<string, string> {
  if (codePoints(body) > MAX_FORM_BODY) {
    throw new WritError(
      'intake-form-malformed',
      `the issue body is longer than ${MAX_FORM_BODY} characters, GitHub's limit; it was not submitted through the form`,
    );
  }
  const byLabel = new Map(INTAKE_FIELDS.map((field) => [field.label, field]));
  const raw = new Map<string, string[]>();
  const problems: string[] = [];
  let current: string[] | null = null;
  let headings = 0;
  body
    .replace(/\r\n/g, '\n')
    .split('\n')
    .forEach((line) => {
      const heading = /^### (.*)$/.exec(line);
      if (heading === null) {
        if (current !== null) current.push(line);
        else if (line.trim() !== '' && problems.length === 0)
          problems.push('the body has text before the first `### ` heading');
        return;
      }
      headings += 1;
      const field = byLabel.get((heading[1] ?? '').trim());
      current = [];
      if (field === undefined) problems.push(`the ${ordinal(headings)} heading is not a field of the form`);
      else if (raw.has(field.id)) problems.push(`the field "${field.label}" appears twice`);
      else raw.set(field.id, current);
    });
  for (const field of INTAKE_FIELDS) {
    if (!raw.has(field.id)) problems.push(`the field "${field.label}" is missing`);
  }
  if (problems.length > 0) {
    throw new WritError(
      'intake-form-malformed',
      `the issue body is not a Writ work-request form (${ISSUE_FORM_PATH}): ${problems.join('; ')}`,
      { details: { problems: problems.length } },
    );
  }
  const answers = new Map<string, string>();
  for (const [id, lines] of raw) {
    const text = lines
      .join('\n')
      .replace(/^(?:[ \t]*\n)+/, '')
      .replace(/(?:\n[ \t]*)+$/, '')
      .replace(/^[ \t]*$/, '');
    answers.set(id, text);
  }
  return answers;
}

/** Throws the problems, hostile first: `intake-field-hostile` if any is, else `intake-field-invalid`. */
function refuse(problems: IntakeProblem[]): never {
  const hostile = problems.filter((problem) => HOSTILE.has(problem.rule));
  const ordered = [...hostile, ...problems.filter((problem) => !HOSTILE.has(problem.rule))];
  const first = ordered[0] as IntakeProblem;
  throw new WritError(
    hostile.length > 0 ? 'intake-field-hostile' : 'intake-field-invalid',
    `the work request has ${ordered.length} problem(s):\n${ordered.map((problem) => `  ${problem.field} (${problem.rule}): ${problem.message}`).join('\n')}`,
    { details: { problems: ordered.length, field: first.field, rule: first.rule } },
  );
}

/** Reads and checks every answer of a form body; throws on any problem (see the module comment). */
export function readIssueForm(body: string, options: IntakeOptions = {}): IntakeRequest {
  const prefix = options.commandPrefix ?? 'writ';
  const raw = splitIssueForm(body);
  const problems: IntakeProblem[] = [];
  const request: IntakeRequest = {};
  for (const field of INTAKE_FIELDS)
    request[field.id] = readAnswer(field, raw.get(field.id) ?? '', prefix, problems);
  if (problems.length > 0) refuse(problems);
  return request;
}

/** Where the request came from: the repository, and the issue and its title when known. */
export interface IntakeSource {
  repository: string;
  issue?: number;
  title?: string;
}

/** The work unit's title: the issue's (without the form's prefix), else the objective's first line. */
function titleOf(source: IntakeSource, request: IntakeRequest, prefix: string): string {
  const given = source.title?.trim() ?? '';
  const stripped = given.startsWith(ISSUE_FORM_TITLE_PREFIX.trim())
    ? given.slice(ISSUE_FORM_TITLE_PREFIX.trim().length).trim()
    : given;
  if (stripped !== '') {
    const problems = textProblems('title', 'the issue title', stripped, MAX_TITLE, prefix);
    if (/\n/.test(stripped) && problems.every((problem) => problem.rule !== 'control-character'))
      problems.push({
        field: 'title',
        rule: 'control-character',
        message: 'the issue title holds a line break',
      });
    if (problems.length > 0) refuse(problems);
    return stripped;
  }
  const objective = request.objective;
  const line =
    objective?.kind === 'text' ? (objective.text.split('\n').find((l) => l.trim() !== '') ?? '') : '';
  const cut = truncateCodePoints(line.trim(), 120);
  return `${cut.text}${cut.truncated ? '…' : ''}`;
}

function answerBlock(field: IntakeField, answer: IntakeAnswer): string[] {
  if (answer === null) return [`#### ${field.label}`, '', '_No answer._'];
  const lines =
    answer.kind === 'paths'
      ? answer.paths
      : answer.kind === 'text'
        ? answer.text.split('\n')
        : [answer.keyword];
  return [`#### ${field.label}`, '', fencedBlock(lines, 'text')];
}

/** The work unit's body: the hints as fixed keywords in a table, every free answer in a code block. */
export function renderWorkUnit(request: IntakeRequest, source: IntakeSource): string {
  const from = source.issue === undefined ? 'a Writ work-request form' : `#${source.issue}`;
  const hints = INTAKE_FIELDS.filter((field) => field.type === 'dropdown' || field.id === 'connector-hint');
  const free = INTAKE_FIELDS.filter((field) => !hints.includes(field));
  const cell = (answer: IntakeAnswer): string =>
    answer === null
      ? '_none_'
      : answer.kind === 'choice'
        ? `\`${answer.keyword}\``
        : answer.kind === 'text'
          ? escapeInline(answer.text, 64)
          : '';
  return [
    `Work request from ${from}. Every answer is the requester's own, shown as written; the hints are theirs, not a decision: the owner's policy and the approval rules decide.`,
    '',
    '| field | answer |',
    '|---|---|',
    ...hints.map((field) => `| ${field.label} | ${cell(request[field.id] ?? null)} |`),
    '',
    ...free.flatMap((field) => [...answerBlock(field, request[field.id] ?? null), '']),
  ]
    .join('\n')
    .trimEnd();
}

/**
 * The plan of a submitted form: one `issue.create` of the work unit, within bounds that allow exactly
 * that, validated by the plan validator. Throws `intake-*` for the form, `malformed-plan` for anything
 * the plan rules refuse (a registered secret, say).
 */
export function planFromIssueForm(body: string, source: IntakeSource, options: IntakeOptions = {}): Plan {
  const prefix = options.commandPrefix ?? 'writ';
  const request = readIssueForm(body, options);
  const title = titleOf(source, request, prefix);
  const step: IssueCreateStep = {
    id: 'work-unit',
    kind: 'issue.create',
    summary: 'Create the work unit of the request',
    title,
    body: renderWorkUnit(request, source),
  };
  return validatePlan({
    schema: 1,
    title: truncateCodePoints(`Work request: ${title}`, MAX_TITLE).text,
    planner: { name: 'writ-plan-from-issue' },
    scope: {
      repository: source.repository,
      selection: source.issue === undefined ? 'a Writ work-request form' : `issue #${source.issue}`,
    },
    bounds: { max_steps: 1, max_creates: 1, max_issues_touched: 0 },
    steps: [step],
  });
}

/** The issue's title and body, read over the API; a pull request is refused (a form opens issues). */
export async function readIntakeIssue(
  deps: { github: GitHubClient },
  repository: { owner: string; repo: string },
  issue: number,
): Promise<{ title: string; body: string }> {
  const { owner, repo } = repository;
  const { data } = await deps.github.rest.issues.get({ owner, repo, issue_number: issue });
  if (data.pull_request) {
    throw new WritError(
      'intake-form-malformed',
      `#${issue} in ${owner}/${repo} is a pull request; a Writ work request is an issue opened with the form`,
    );
  }
  return { title: data.title, body: data.body ?? '' };
}
