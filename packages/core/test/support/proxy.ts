/**
 * A tiny forward proxy on loopback for transport tests: CONNECT tunnels (what @actions/http-client's
 * tunnel agent sends, for http and https targets alike) and absolute-URI HTTP requests. Every request it sees is
 * logged with its Proxy-Authorization header; `route` maps a requested host:port to where it really
 * connects, so a test can address a non-loopback name (loopback is never proxied) that lands on a
 * loopback server.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';

export interface ProxySeen {
  method: string;
  target: string;
  authorization: string | undefined;
}

export interface TestProxy {
  url: string;
  seen: ProxySeen[];
  close(): Promise<void>;
}

export async function startProxy(
  route: (hostPort: string) => { host: string; port: number },
): Promise<TestProxy> {
  const seen: ProxySeen[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res) => {
    const target = new URL(req.url ?? '');
    seen.push({
      method: req.method ?? '',
      target: target.host,
      authorization: req.headers['proxy-authorization'],
    });
    const to = route(target.host);
    const upstream = httpRequest(
      {
        host: to.host,
        port: to.port,
        method: req.method,
        path: target.pathname + target.search,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push({
      method: 'CONNECT',
      target: req.url ?? '',
      authorization: req.headers['proxy-authorization'],
    });
    const to = route(req.url ?? '');
    const upstream = connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
