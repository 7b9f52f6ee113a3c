/**
 * The emulator's stand-in for GitHub's web-flow signing key. A commit GitHub would sign gets a `gpgsig`
 * header holding a keyed digest of its payload (not real OpenPGP; the README says so); verification
 * recomputes the digest, so only commits the emulator itself signed verify.
 */
import { createHmac } from 'node:crypto';
import type { ParsedCommit } from './git.js';

const BEGIN = '-----BEGIN PGP SIGNATURE-----';
const END = '-----END PGP SIGNATURE-----';

function digest(seed: number, payload: string): string {
  return createHmac('sha256', `writ-emulator web-flow ${seed}`).update(payload).digest('base64');
}

export function webFlowSignature(seed: number, payload: string): string {
  return `${BEGIN}\n\n${digest(seed, payload)}\n${END}\n`;
}

interface Verification {
  verified: boolean;
  reason: string;
  signature: string | null;
  payload: string | null;
  verified_at: string | null;
}

export function verify(seed: number, commit: ParsedCommit): Verification {
  if (!commit.gpgsig)
    return { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null };
  const expected = webFlowSignature(seed, commit.payload);
  if (commit.gpgsig === expected) {
    return {
      verified: true,
      reason: 'valid',
      signature: commit.gpgsig,
      payload: commit.payload,
      verified_at: new Date(commit.committer.time * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
  }
  return {
    verified: false,
    reason: 'unknown_key',
    signature: commit.gpgsig,
    payload: commit.payload,
    verified_at: null,
  };
}
