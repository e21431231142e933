// The worker thread of load.ts's LoadClient (LoadOptions and LoadResult are described there).
// Plain JavaScript with Node built-ins only: on Node 20 a worker thread does not get tsx's loader.
import { Agent, request } from 'node:http';
import { parentPort } from 'node:worker_threads';

/** Keep-alive agents by number of connections, kept between runs. */
const agents = new Map();

/** @param {import('./load.ts').LoadOptions} options @returns {Promise<import('./load.ts').LoadResult>} */
async function generate(options) {
  const url = new URL(options.url);
  let agent = agents.get(options.connections);
  if (!agent)
    agents.set(options.connections, (agent = new Agent({ keepAlive: true, maxSockets: options.connections })));
  /** @type {number[]} */
  const latencies = [];
  /** @type {string[]} */
  const errorSamples = [];
  let errors = 0;
  let bytes = 0;
  let started = 0;
  const start = performance.now();
  const deadline = start + (options.durationMs ?? Infinity);
  const limit = options.requests ?? Infinity;

  /** @returns {Promise<void>} */
  const once = () =>
    new Promise((done) => {
      const t0 = performance.now();
      /** @param {string} message */
      const fail = (message) => {
        errors++;
        if (errorSamples.length < 3) errorSamples.push(message);
        done();
      };
      const req = request(url, { agent, method: 'GET', headers: options.headers }, (res) => {
        let size = 0;
        res.on('data', (chunk) => (size += chunk.length));
        res.on('error', (err) => fail(err.message));
        res.on('end', () => {
          bytes += size;
          if (res.statusCode !== 200) return fail(`HTTP ${res.statusCode}`);
          latencies.push(performance.now() - t0);
          done();
        });
      });
      req.on('error', (err) => fail(err.message));
      req.end();
    });

  const connection = async () => {
    while (started < limit && performance.now() < deadline) {
      started++;
      await once();
    }
  };
  await Promise.all(Array.from({ length: options.connections }, connection));
  return { latencies, errors, errorSamples, bytes, elapsedMs: performance.now() - start };
}

parentPort?.on('message', async ({ id, options }) => {
  parentPort?.postMessage({ id, result: await generate(options) });
});
