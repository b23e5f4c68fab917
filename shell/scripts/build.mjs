// `npm run build` of the shell: the browser bundles (webpack.config.ts → dist/) and the server render
// (webpack.server.config.ts → dist-server/) are two independent webpack compilations with their own outputs. They ran
// one after the other, and the shell is the last package `npm run build` starts, so its server half ran alone with a
// core idle; here they run side by side, each in its own process, each output line marked with its compilation.
// The build fails if either fails.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const webpack = new URL('../../node_modules/webpack/bin/webpack.js', import.meta.url).pathname;
const compilations = [
  { name: 'client', args: ['--mode', 'production'] },
  { name: 'server', args: ['--config', 'webpack.server.config.ts', '--mode', 'production'] },
];
// As the package script ran them: webpack loads its TypeScript configuration through tsx.
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import tsx`.trim() };

function run({ name, args }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [webpack, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`[${name}] ${line}\n`));
    createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`[${name}] ${line}\n`));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0) }));
  });
}

const failed = (await Promise.all(compilations.map(run))).filter((r) => r.code !== 0);
for (const { name, code } of failed) process.stderr.write(`shell build: the ${name} compilation failed (exit ${code})\n`);
process.exit(failed.length ? 1 : 0);
