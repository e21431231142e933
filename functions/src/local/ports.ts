import { createServer } from 'node:net';

/** Where the local services listen: this machine only (DynamoDB Local accepts any credentials). */
export const LOOPBACK = '127.0.0.1';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, LOOPBACK, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
