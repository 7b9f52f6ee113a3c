import { afterEach, describe, expect, it } from '@jest/globals';
import {
  REDACTED,
  clearRegisteredSecrets,
  containsSecret,
  redact,
  redactingLogger,
  registerSecret,
} from '../src/redact.js';

const GHP = `ghp_${'A1b2C3d4'.repeat(5)}`;
const GHS = `ghs_${'Zz09'.repeat(9)}`;
const PAT = `github_pat_11ABCDEFG0${'x_Y9'.repeat(15)}`;

afterEach(() => clearRegisteredSecrets());

describe('redact', () => {
  it.each([
    [`token is ${GHP}.`, `token is ${REDACTED}.`],
    [`installation ${GHS}`, `installation ${REDACTED}`],
    [`pat=${PAT}`, `pat=${REDACTED}`],
    ['Authorization: Bearer abc.def.ghi', `Authorization: ${REDACTED}`],
    ['authorization=token 0123456789abcdef0123', `authorization=${REDACTED}`],
    ['sent bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', `sent bearer ${REDACTED}`],
    [
      'GET https://api.github.com/x?access_token=secret123&page=2',
      `GET https://api.github.com/x?access_token=${REDACTED}&page=2`,
    ],
    ['https://user:hunter2@example.com/repo.git', `https://${REDACTED}@example.com/repo.git`],
  ])('removes the credential in %j', (input, expected) => {
    expect(redact(input)).toBe(expected);
  });

  it('leaves ordinary text alone', () => {
    const text = 'run run-abc approved by @octocat, digest sha256:' + 'a'.repeat(64);
    expect(redact(text)).toBe(text);
  });

  it('removes a registered secret and its base64 and URL-encoded forms', () => {
    const secret = 'opaque secret/+=value';
    registerSecret(secret);
    const b64 = Buffer.from(secret).toString('base64');
    const url = encodeURIComponent(secret);
    expect(redact(`a ${secret} b ${b64} c ${url}`)).toBe(`a ${REDACTED} b ${REDACTED} c ${REDACTED}`);
  });

  it('redacts everything a logger receives', () => {
    const seen: string[] = [];
    const logger = redactingLogger({
      info: (m) => seen.push(m),
      warning: (m) => seen.push(m),
      debug: (m) => seen.push(m),
    });
    logger.info(GHP);
    logger.warning(`x ${GHS}`);
    logger.debug(PAT);
    expect(seen.join(' ')).not.toMatch(/gh[ps]_|github_pat_/);
  });
});

describe('containsSecret', () => {
  const TOKEN = 'ghs_WritAppInstallationToken0000000001';
  const percentAll = (text: string, hex: (c: string) => string) =>
    Array.from(Buffer.from(text))
      .map((b) => `%${hex(b.toString(16).padStart(2, '0'))}`)
      .join('');

  it.each([
    ['raw', `docs\n${TOKEN}\n`],
    ['raw inside a word', `x${TOKEN}y`],
    ['base64', Buffer.from(TOKEN).toString('base64')],
    ['base64 at offset 1', Buffer.from(`a${TOKEN}`).toString('base64')],
    ['base64 at offset 2', Buffer.from(`ab${TOKEN}z`).toString('base64')],
    ['base64 inside a longer text', `data:${Buffer.from(`# page\n${TOKEN}\nend`).toString('base64')}`],
    ['base64url', Buffer.from(`??${TOKEN}>>`).toString('base64url')],
    ['URL-encoded, every byte', percentAll(TOKEN, (h) => h.toUpperCase())],
    ['URL-encoded, lower-case hex', percentAll(TOKEN, (h) => h)],
    ['URL-encoded in part', `${TOKEN.slice(0, 10)}%${TOKEN.charCodeAt(10).toString(16)}${TOKEN.slice(11)}`],
    ['hex', Buffer.from(TOKEN).toString('hex')],
    ['HEX', Buffer.from(TOKEN).toString('hex').toUpperCase()],
  ])('finds a registered token: %s', (_form, text) => {
    registerSecret(TOKEN);
    expect(containsSecret(text)).toBe(true);
    expect(containsSecret(Buffer.from(text))).toBe(true);
  });

  it('finds a registered secret with characters URL encoding changes', () => {
    const secret = 'p@ss w/rd+&=?';
    registerSecret(secret);
    expect(containsSecret(`password=${encodeURIComponent(secret)}`)).toBe(true);
    expect(containsSecret(`password=${secret}`)).toBe(true);
    expect(containsSecret(Buffer.from(`--${secret}--`).toString('base64'))).toBe(true);
  });

  it.each([GHP, GHS, PAT])('finds a GitHub token shape nobody registered: %s', (token) => {
    expect(containsSecret(`see ${token} here`)).toBe(true);
  });

  const V1 = `v1.${'0123456789abcdef'.repeat(2)}01234567`;
  const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiIxMjM0NSIsImlhdCI6MX0.c2lnbmF0dXJlLWJ5dGVz';

  it.each([V1, JWT])('finds an older installation token or a JWT, and redacts it: %s', (token) => {
    expect(containsSecret(`see ${token} here`)).toBe(true);
    expect(redact(`see ${token} here`)).toBe(`see ${REDACTED} here`);
  });

  it('leaves a version number and a short v1. hex alone', () => {
    expect(containsSecret('released v1.2.3 and v1.abcdef')).toBe(false);
    expect(redact('eyJ alone is not a token')).toBe('eyJ alone is not a token');
  });

  it('passes ordinary content, and token-like prose', () => {
    registerSecret(TOKEN);
    expect(containsSecret('# Roadmap\n\n- v2.4: token implementation-specific details\n')).toBe(false);
    expect(containsSecret(Buffer.from('# Roadmap\n').toString('base64'))).toBe(false);
    expect(containsSecret('ghs_short')).toBe(false);
  });

  it('forgets cleared secrets', () => {
    registerSecret('hunter2-hunter2');
    clearRegisteredSecrets();
    expect(containsSecret('hunter2-hunter2')).toBe(false);
  });
});
