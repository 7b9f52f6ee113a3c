/**
 * A CODEOWNERS file read as GitHub reads it, for `writ doctor`'s coverage check. GitHub's rules: the
 * first of `.github/CODEOWNERS`, `CODEOWNERS`, `docs/CODEOWNERS` on the base branch is used; blank lines
 * and `#` comments are skipped; each line is a pattern and zero or more owners (`@user`, `@org/team`, an
 * e-mail); patterns follow gitignore's rules except that `!` negation, `[ ]` ranges and a `\#` escape do
 * not work (such a line is skipped); paths are case-sensitive; the LAST matching line wins, and a line
 * with no owners leaves its paths unowned. The file is hostile: matching is a linear-time segment
 * walk (no regular expression is built from it), so no pattern can make it slow.
 */

/** Where GitHub looks for CODEOWNERS, in the order it looks. */
export const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'] as const;

/** GitHub does not load a CODEOWNERS file of 3 MB or more. */
export const CODEOWNERS_MAX_BYTES = 3 * 1024 * 1024;

/** A segment of a compiled pattern: one path segment matching a glob, or any number of segments. */
type Token = { kind: 'segment'; glob: string } | { kind: 'any'; min: 0 | 1 };

interface CodeownersRule {
  line: number;
  pattern: string;
  owners: string[];
  tokens: Token[];
}

interface Codeowners {
  rules: CodeownersRule[];
  /** Lines GitHub skips (by number) with why, and owner entries that are not a user, team or e-mail. */
  problems: { line: number; why: string }[];
}

const USER = /^@[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const TEAM = /^@[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9_.-]{1,100}$/;
const EMAIL = /^[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$/;

/** The pattern and owner words of a line: split at unescaped blanks; a word starting with `#` ends it. */
function words(line: string): string[] {
  const out: string[] = [];
  let current = '';
  let escaped = false;
  for (const character of line) {
    if (escaped) {
      current += character;
      escaped = false;
    } else if (character === '\\') {
      current += character;
      escaped = true;
    } else if (character === ' ' || character === '\t') {
      if (current !== '') out.push(current);
      current = '';
    } else if (character === '#' && current === '') {
      break;
    } else {
      current += character;
    }
  }
  if (current !== '') out.push(current);
  return out;
}

/** Why GitHub would skip this pattern, or null. */
function invalidPattern(pattern: string): string | null {
  if (pattern.startsWith('!')) return 'negation (!) does not work in CODEOWNERS';
  if (pattern.startsWith('\\#')) return 'an escaped # does not work in CODEOWNERS';
  if (/[[\]]/.test(pattern)) return 'character ranges ([ ]) do not work in CODEOWNERS';
  if (pattern.includes('***')) return 'three asterisks in a row';
  if (/\/\//.test(pattern) || pattern === '/') return 'an empty path segment';
  return null;
}

/** A gitignore-style pattern as tokens over path segments. */
function compile(pattern: string): Token[] {
  const anchored = pattern.startsWith('/');
  const directory = pattern.endsWith('/');
  const segments = pattern.replace(/^\//, '').replace(/\/$/, '').split('/');
  // A pattern with no slash but a trailing one matches at any depth; so does one with none at all.
  const floating = !anchored && segments.length === 1;
  const tokens: Token[] = floating && segments[0] !== '**' ? [{ kind: 'any', min: 0 }] : [];
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      // `**` alone matches everything; trailing, one or more segments; leading or inner, zero or more.
      tokens.push({ kind: 'any', min: last && (index > 0 || segments.length === 1) ? 1 : 0 });
      return;
    }
    tokens.push({ kind: 'segment', glob: segment });
    if (last && (directory || segment !== '*')) {
      // `docs` and `docs/` own what is under docs; `docs/` only that, `docs` the file docs too.
      tokens.push({ kind: 'any', min: directory ? 1 : 0 });
    }
  });
  return tokens;
}

/** Parses a CODEOWNERS file; lines GitHub would skip are reported in `problems`, not in `rules`. */
export function parseCodeowners(text: string): Codeowners {
  const rules: CodeownersRule[] = [];
  const problems: { line: number; why: string }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const [pattern = '', ...ownerWords] = words(trimmed);
    const why = invalidPattern(pattern);
    if (why !== null) {
      problems.push({ line, why });
      return;
    }
    const owners: string[] = [];
    for (const word of ownerWords) {
      if (USER.test(word) || TEAM.test(word) || EMAIL.test(word)) owners.push(word);
      else problems.push({ line, why: 'an owner that is not @user, @org/team or an e-mail (ignored)' });
    }
    rules.push({ line, pattern, owners, tokens: compile(pattern) });
  });
  return { rules, problems };
}

/** One path segment against a glob (`*` any run, `?` one character, `\x` the character x), in O(n·m). */
function globMatches(glob: string, text: string): boolean {
  const parts: ({ kind: 'star' } | { kind: 'one' } | { kind: 'char'; value: string })[] = [];
  const characters = Array.from(glob);
  for (let index = 0; index < characters.length; index += 1) {
    const character = characters[index] ?? '';
    if (character === '\\' && index + 1 < characters.length) {
      index += 1;
      parts.push({ kind: 'char', value: characters[index] ?? '' });
    } else if (character === '*') {
      if (parts.at(-1)?.kind !== 'star') parts.push({ kind: 'star' });
    } else if (character === '?') parts.push({ kind: 'one' });
    else parts.push({ kind: 'char', value: character });
  }
  const chars = Array.from(text);
  // reachable[j]: the parts so far can match the first j characters.
  let reachable = chars.map(() => false).concat(false);
  reachable[0] = true;
  for (const part of parts) {
    const next = reachable.map(() => false);
    for (let j = 0; j <= chars.length; j += 1) {
      if (part.kind === 'star') next[j] = reachable[j] === true || (j > 0 && next[j - 1] === true);
      else if (j > 0 && reachable[j - 1] === true)
        next[j] = part.kind === 'one' || chars[j - 1] === part.value;
    }
    reachable = next;
  }
  return reachable[chars.length] === true;
}

/** Whether the tokens match the whole path (segments split at `/`), in O(tokens·segments·glob). */
function tokensMatch(tokens: readonly Token[], path: string): boolean {
  const segments = path.split('/');
  // reachable[j]: the tokens so far can consume the first j segments.
  let reachable = segments.map(() => false).concat(false);
  reachable[0] = true;
  for (const token of tokens) {
    const next = reachable.map(() => false);
    for (let j = 0; j <= segments.length; j += 1) {
      if (token.kind === 'segment') {
        next[j] = j > 0 && reachable[j - 1] === true && globMatches(token.glob, segments[j - 1] ?? '');
      } else {
        let from = false;
        for (let i = 0; i <= j - token.min; i += 1) if (reachable[i] === true) from = true;
        next[j] = from;
      }
    }
    reachable = next;
  }
  return reachable[segments.length] === true;
}

/** The rule that decides a path's owners (the last that matches), or null when none matches. */
export function ruleFor(codeowners: Codeowners, path: string): CodeownersRule | null {
  for (let index = codeowners.rules.length - 1; index >= 0; index -= 1) {
    const rule = codeowners.rules[index];
    if (rule !== undefined && tokensMatch(rule.tokens, path)) return rule;
  }
  return null;
}
