/**
 * The §14.2 durable evidence link validator, against every rejection class the reference lists, and
 * the permalink the status comment shows (GitHub Enterprise Server follows GITHUB_SERVER_URL).
 */
import { describe, expect, it } from '@jest/globals';
import { WritError } from '../../src/errors.js';
import { evidencePermalink, validateDurableEvidenceUrl } from '../../src/status-comment/evidence-link.js';
import type { RunFile } from '../../src/ledger/types.js';
import { renderStatusProjection } from '../../src/status-comment/projection.js';

const SHA1 = '0123456789abcdef0123456789abcdef01234567';
const SHA256 = `${SHA1}${'89abcdef'.repeat(3)}`;
const PATH = 'runs/acme--widgets/run-1.json';
const BLOB = `https://github.com/acme/widgets/blob/${SHA1}/${PATH}`;
const bound = { repository: 'acme/widgets' };

function refusal(url: string, binding: Parameters<typeof validateDurableEvidenceUrl>[1] = bound): string {
  try {
    validateDurableEvidenceUrl(url, binding);
  } catch (error: unknown) {
    if (error instanceof WritError) {
      expect(error.code).toBe('evidence-link-not-durable');
      expect(error.message).not.toContain('secret');
      return error.message.replace('the evidence link is not durable: ', '');
    }
    throw error;
  }
  return 'accepted';
}

describe('validateDurableEvidenceUrl', () => {
  it('accepts the blob and raw forms at an exact 40- or 64-hex commit', () => {
    expect(validateDurableEvidenceUrl(BLOB, bound)).toEqual({
      owner: 'acme',
      repo: 'widgets',
      commit: SHA1,
      path: PATH,
      form: 'blob',
    });
    expect(
      validateDurableEvidenceUrl(`https://github.com/acme/widgets/blob/${SHA256}/${PATH}`, bound).commit,
    ).toBe(SHA256);
    expect(
      validateDurableEvidenceUrl(`https://raw.githubusercontent.com/acme/widgets/${SHA1}/${PATH}`, bound),
    ).toMatchObject({
      form: 'raw',
      path: PATH,
    });
    expect(
      validateDurableEvidenceUrl(`https://github.com/Acme/Widgets/blob/${SHA1}/docs/a%20b.json`, bound).path,
    ).toBe('docs/a b.json');
  });

  it.each([
    ['a branch', `https://github.com/acme/widgets/blob/main/${PATH}`, /exact 40- or 64-hex commit/],
    ['master', `https://github.com/acme/widgets/blob/master/${PATH}`, /exact/],
    ['a tag', `https://github.com/acme/widgets/blob/v1.2.3/${PATH}`, /exact/],
    ['HEAD', `https://github.com/acme/widgets/blob/HEAD/${PATH}`, /exact/],
    ['a short SHA', `https://github.com/acme/widgets/blob/${SHA1.slice(0, 7)}/${PATH}`, /exact/],
    ['upper-case hex', `https://github.com/acme/widgets/blob/${SHA1.toUpperCase()}/${PATH}`, /exact/],
    ['a 41-hex commit', `https://github.com/acme/widgets/blob/${SHA1}0/${PATH}`, /exact/],
    ['an Actions run', 'https://github.com/acme/widgets/actions/runs/123', /Actions run/],
    ['an Actions artifact', 'https://github.com/acme/widgets/actions/runs/123/artifacts/456', /Actions/],
    [
      'an artifact download host',
      'https://pipelines.actions.githubusercontent.com/abc/_apis/artifact/x',
      /Actions artifact or cache/,
    ],
    [
      'an artifact blob store',
      'https://productionresultssa0.blob.core.windows.net/actions-results/x',
      /Actions artifact/,
    ],
    [
      'a commit landing page',
      `https://github.com/acme/widgets/commit/${SHA1}`,
      /does not identify an evidence file/,
    ],
    ['a tree', `https://github.com/acme/widgets/tree/${SHA1}/runs`, /does not identify an evidence file/],
    ['no file', `https://github.com/acme/widgets/blob/${SHA1}`, /does not identify an evidence file/],
    [
      'a trailing slash only',
      `https://github.com/acme/widgets/blob/${SHA1}/`,
      /does not identify an evidence file/,
    ],
    ['a query string', `${BLOB}?plain=1`, /query string/],
    ['an empty query', `${BLOB}?`, /query string/],
    ['a fragment', `${BLOB}#L1`, /fragment/],
    ['credentials', `https://user:secret@github.com/acme/widgets/blob/${SHA1}/${PATH}`, /credentials/],
    ['a user only', `https://secret@github.com/acme/widgets/blob/${SHA1}/${PATH}`, /credentials/],
    ['a port', `https://github.com:8443/acme/widgets/blob/${SHA1}/${PATH}`, /port/],
    ['the default port written out', `https://github.com:443/acme/widgets/blob/${SHA1}/${PATH}`, /port/],
    ['plain HTTP', `http://github.com/acme/widgets/blob/${SHA1}/${PATH}`, /not HTTPS/],
    ['another scheme', `git://github.com/acme/widgets/blob/${SHA1}/${PATH}`, /not HTTPS/],
    ['not absolute', `/acme/widgets/blob/${SHA1}/${PATH}`, /absolute/],
    ['another host', `https://gitlab.com/acme/widgets/blob/${SHA1}/${PATH}`, /not on github.com/],
    [
      'a look-alike host',
      `https://github.com.evil.example/acme/widgets/blob/${SHA1}/${PATH}`,
      /not on github.com/,
    ],
    ['raw on github.com', `https://github.com/acme/widgets/raw/${SHA1}/${PATH}`, /raw.githubusercontent.com/],
    ['a dot-dot segment', `https://github.com/acme/widgets/blob/${SHA1}/runs/../secrets.json`, /dot segment/],
    ['a dot segment', `https://github.com/acme/widgets/blob/${SHA1}/./${PATH}`, /dot segment/],
    [
      'an encoded dot-dot',
      `https://github.com/acme/widgets/blob/${SHA1}/runs/%2E%2E/x.json`,
      /dot segment|canonical/,
    ],
    ['an empty segment', `https://github.com/acme/widgets/blob/${SHA1}/runs//x.json`, /empty segment/],
    ['a backslash', `https://github.com/acme/widgets/blob/${SHA1}/runs\\x.json`, /backslash/],
    ['an encoded slash', `https://github.com/acme/widgets/blob/${SHA1}/runs%2Fx.json`, /separator/],
    ['an encoded backslash', `https://github.com/acme/widgets/blob/${SHA1}/runs%5Cx.json`, /separator/],
    ['a needless escape', `https://github.com/acme/widgets/blob/${SHA1}/runs/%41.json`, /canonical/],
    ['a lower-case escape', `https://github.com/acme/widgets/blob/${SHA1}/a%2fb`, /separator|canonical/],
    [
      'a malformed escape',
      `https://github.com/acme/widgets/blob/${SHA1}/a%zz.json`,
      /malformed percent-escape/,
    ],
    [
      'a control character escape',
      `https://github.com/acme/widgets/blob/${SHA1}/a%0A.json`,
      /control character/,
    ],
    ['a raw space', `https://github.com/acme/widgets/blob/${SHA1}/a b.json`, /whitespace/],
    ['non-ASCII', `https://github.com/acme/widgets/blob/${SHA1}/ä.json`, /non-ASCII/],
    ['another repository', `https://github.com/evil/widgets/blob/${SHA1}/${PATH}`, /another repository/],
    ['a traversing repository', `https://github.com/acme/../blob/${SHA1}/${PATH}`, /OWNER\/REPO/],
    ['no repository', 'https://github.com/', /OWNER\/REPO/],
  ])('rejects %s', (_name, url, why) => {
    expect(refusal(url)).toMatch(why);
  });

  it('binds the repository only when the surface has one', () => {
    expect(refusal(`https://github.com/other/repo/blob/${SHA1}/${PATH}`, {})).toBe('accepted');
  });

  it('follows GITHUB_SERVER_URL on GitHub Enterprise Server', () => {
    const ghes = { ...bound, serverUrl: 'https://ghe.example.com' };
    expect(refusal(`https://ghe.example.com/acme/widgets/blob/${SHA1}/${PATH}`, ghes)).toBe('accepted');
    expect(refusal(`https://ghe.example.com/acme/widgets/raw/${SHA1}/${PATH}`, ghes)).toBe('accepted');
    expect(refusal(BLOB, ghes)).toMatch(/not on ghe.example.com/);
    expect(refusal(`https://raw.githubusercontent.com/acme/widgets/${SHA1}/${PATH}`, ghes)).toMatch(/not on/);
    expect(() => validateDurableEvidenceUrl(BLOB, { serverUrl: 'https://user@ghe.example.com' })).toThrow(
      expect.objectContaining({ code: 'invalid-input' }),
    );
  });
});

describe('the status comment evidence link', () => {
  it('builds a validated permalink, percent-encoding each segment', () => {
    expect(evidencePermalink('https://github.com', 'acme/widgets', SHA1, PATH)).toBe(BLOB);
    expect(evidencePermalink('https://ghe.example.com/', 'acme/widgets', SHA1, 'a b/c.json')).toBe(
      `https://ghe.example.com/acme/widgets/blob/${SHA1}/a%20b/c.json`,
    );
    expect(() => evidencePermalink('https://github.com', 'acme/widgets', 'main', PATH)).toThrow(WritError);
  });

  it('shows state, progress, the action needed and the link, deterministically', () => {
    const run = {
      run_id: 'run-1',
      state: 'needs-reconciliation',
      approval: null,
      stop_reason: 'needs-reconciliation',
      cancelled_by: null,
      steps: [
        {
          id: 'a',
          status: 'done',
          evidence: null,
          reconciled_by: { actor_login: 'wren', actor_id: 1, role_name: 'write' },
        },
        {
          id: 'b',
          status: 'claimed',
          evidence: { status_code: null, error_code: 'external-step' },
          reconciled_by: null,
        },
        { id: 'c', status: 'pending', evidence: null, reconciled_by: null },
      ],
    } as unknown as RunFile;
    const extras = { commandPrefix: 'writ', evidence: { url: BLOB, commit: SHA1 } };
    const body = renderStatusProjection(run, 'PREVIEW', extras);
    expect(body).toBe(renderStatusProjection(run, 'PREVIEW', extras));
    expect(body).toContain('Steps: 1 done, 1 claimed, 1 pending (of 3).');
    expect(body).toContain('Step `a` reconciled as `done` by @wren (write).');
    expect(body).toContain(
      'checks step `b` on GitHub (reason `external-step`) and posts `writ: reconcile run-1 b done`',
    );
    expect(body).toContain(`](${BLOB}).`);
    expect(body.endsWith('\n\nPREVIEW')).toBe(true);
    expect(renderStatusProjection(run, 'PREVIEW')).toContain('the reconcile command `writ reconcile` prints');
  });
});
