/**
 * What carried the requests made while `run` runs: every request on node:http and node:https (their
 * diagnostics channel; a proxy tunnel's own CONNECT is one, as `CONNECT <host:port>`), and every call
 * of the global `fetch`, which is replaced meanwhile by one that fails, since it is not Writ's transport.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

export async function transportsDuring(
  run: () => Promise<void>,
): Promise<{ sent: string[]; fetched: unknown[] }> {
  const sent: string[] = [];
  const onStart = (message: unknown): void => {
    const { request } = message as { request: ClientRequest };
    sent.push(
      request.method === 'CONNECT'
        ? `CONNECT ${request.path}`
        : `${request.method} ${String(request.getHeader('host'))}${request.path}`,
    );
  };
  const platform = globalThis.fetch;
  const fetched: unknown[] = [];
  globalThis.fetch = (...args: unknown[]) => {
    fetched.push(args[0]);
    return Promise.reject(new Error('the global fetch is not Writ’s transport'));
  };
  subscribe('http.client.request.start', onStart);
  try {
    await run();
  } finally {
    unsubscribe('http.client.request.start', onStart);
    globalThis.fetch = platform;
  }
  return { sent, fetched };
}
