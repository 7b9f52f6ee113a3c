import { afterEach, describe, expect, it } from '@jest/globals';
import { REDACTED, clearRegisteredSecrets, redact, redactingLogger, registerSecret } from '../src/redact.js';

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
