// `npm start`: install what is missing, build the SPA, run the whole product on http://localhost:$PORT.
// `npm run dev` (--dev): the API on PORT+1 and Vite's dev server with hot reload on PORT.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ensureInstalled, ensureJava, localEnv, root, run } from './prepare.mjs';

const dev = process.argv.includes('--dev');
ensureInstalled();
ensureJava();

const port = Number(process.env.PORT ?? 3000);
const children = [];
function start(args, env) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...localEnv, ...env } });
  children.push(child);
  child.on('exit', (code, signal) => {
    for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM');
    process.exitCode = code ?? (signal ? 0 : 1);
  });
  return child;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  });
}

const server = ['--import', 'tsx', 'functions/src/local/main.ts'];
if (dev) {
  const apiPort = String(port + 1);
  start([...server, '--api-only'], { PORT: apiPort, PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}` });
  // The front end's own Vite (npm may install it under frontend/node_modules when vitest needs another one).
  const vite = join(
    dirname(createRequire(join(root, 'frontend', 'package.json')).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
  start([vite, '--config', 'frontend/vite.config.ts', 'frontend'], { PORT: String(port), API_PORT: apiPort });
} else {
  console.log('Building the front end…');
  if (run('npm', ['run', 'build', '-w', 'frontend', '--silent']) !== 0) process.exit(1);
  start(server, { PORT: String(port) });
}
