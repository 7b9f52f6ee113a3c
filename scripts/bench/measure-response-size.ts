// The size of the largest answer Writ reads, to set the transport's bound on answer bodies
// (packages/core/src/github/transport.ts, MAX_RESPONSE_BYTES): a page of 100 issue comments (the
// listing the idempotency pre-check and the status-comment search page through), against the
// emulator, with comments of 1 KB and at GitHub's 65,536-character maximum. Run:
//   npx tsx scripts/bench/measure-response-size.ts
import { startEmulator } from '@writ/github-emulator/index.js';
import { createGitHubClient, loopbackTimings } from '@writ/core/github/client.js';

const emulator = await startEmulator({ seed: 26 });
try {
  emulator.admin.createUser({ login: 'alice' });
  emulator.admin.createToken({ token: 'alice-pat', kind: 'pat', login: 'alice' });
  emulator.admin.createRepo({ owner: 'alice', name: 'repo', files: { 'README.md': 'hello\n' } });
  const github = createGitHubClient('alice-pat', { baseUrl: emulator.url, ...loopbackTimings(0) });
  const repo = { owner: 'alice', repo: 'repo' };
  for (const size of [1024, 65_536]) {
    const { number } = (await github.rest.issues.create({ ...repo, title: `comments of ${size}` })).data;
    for (let at = 0; at < 100; at += 1)
      await github.rest.issues.createComment({ ...repo, issue_number: number, body: 'x'.repeat(size) });
    const answer = await fetch(`${emulator.url}/repos/alice/repo/issues/${number}/comments?per_page=100`, {
      headers: { authorization: 'token alice-pat', accept: 'application/vnd.github+json' },
    });
    const bytes = (await answer.arrayBuffer()).byteLength;
    console.log(
      `a page of 100 comments of ${size} characters: ${bytes} bytes (${(bytes / 1e6).toFixed(2)} MB)`,
    );
  }
} finally {
  await emulator.close();
}
