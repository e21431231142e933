declare module 's3rver' {
  import type { Server } from 'node:http';
  interface S3rverOptions {
    port?: number;
    address?: string;
    directory: string;
    silent?: boolean;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    /** Creates the configured buckets (run() does it before listening). */
    configureBuckets(): Promise<void>;
    /** Listens like net.Server#listen (a port, or a socket path) and answers the HTTP server. */
    listen(path: string): Promise<Server>;
    close(): Promise<void>;
  }
}
