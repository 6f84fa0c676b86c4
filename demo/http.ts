import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Small HTTP helpers of the demo server (node:http only). */

export const NO_STORE = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

export function send(
  res: http.ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: http.OutgoingHttpHeaders = {},
): void {
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    ...NO_STORE,
    ...headers,
  });
  res.end(body);
}

export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

export function html(res: http.ServerResponse, status: number, body: string): void {
  send(res, status, 'text/html; charset=utf-8', body);
}

export function redirect(res: http.ServerResponse, location: string): void {
  res.writeHead(302, { Location: location, ...NO_STORE });
  res.end();
}

export function apiError(res: http.ServerResponse, status: number, message: string): void {
  const error =
    {
      400: 'bad_request',
      401: 'unauthorized',
      403: 'forbidden',
      404: 'not_found',
      405: 'method_not_allowed',
      500: 'internal_error',
    }[status] ?? 'error';
  json(res, status, { error, message });
}

export function cookieOf(req: http.IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export function readBody(req: http.IncomingMessage, limit = 16 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Reads and discards a request body; resolves with its size (nothing of it is kept). */
export function drainBody(req: http.IncomingMessage): Promise<number> {
  return new Promise((resolve) => {
    let size = 0;
    req.on('data', (c: Buffer) => (size += c.length));
    req.on('end', () => resolve(size));
    req.on('error', () => resolve(size));
  });
}

/**
 * Sleeps, unless the client goes away first (then resolves false). `wake`, when given, holds a call
 * that ends the sleep early as if it had run its course (resolves true).
 */
export function sleepUnlessClosed(
  ms: number,
  res: http.ServerResponse,
  pending: Set<() => void>,
  wake?: Set<() => void>,
): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off('close', onClose);
      pending.delete(cancel);
      wake?.delete(early);
      resolve(ok);
    };
    const onClose = () => done(false);
    const cancel = () => done(false);
    const early = () => done(true);
    const timer = setTimeout(() => done(true), ms);
    res.on('close', onClose);
    pending.add(cancel);
    wake?.add(early);
  });
}

/**
 * Writes chunks with backpressure until `next` returns undefined; stops as soon as the client goes
 * away. Resolves with the number of bytes handed to the socket.
 */
export async function writeChunks(
  res: http.ServerResponse,
  next: () => Buffer | undefined,
  pending: Set<() => void>,
): Promise<number> {
  let sent = 0;
  let closed = false;
  const stop = () => {
    closed = true;
  };
  res.on('close', stop);
  pending.add(stop);
  try {
    for (let chunk = next(); chunk && !closed && !res.destroyed; chunk = next()) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.on('drain', go);
          res.on('close', go);
        });
      }
    }
    if (!closed && !res.destroyed) res.end();
  } finally {
    res.off('close', stop);
    pending.delete(stop);
  }
  return sent;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => {
      server.off('listening', onListening);
      reject(e);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
