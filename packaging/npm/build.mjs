#!/usr/bin/env node
// Builds the npm packages of redis-lua from a release binary, and packs each
// with `npm pack`:
//
//   redis-lua-lint              the `redis-lua` command: a launcher (redis-lua.js)
//                               that runs the binary of the platform package
//                               npm installed; every platform package is an
//                               optional dependency of it
//   redis-lua-lint-<os>-<cpu>   the binary for one platform of platforms.json,
//                               with the `os`, `cpu` (and `libc`) npm matches
//
// Names, version, description, licence and keywords come from
// redis-lua/Cargo.toml (through `cargo metadata`), so a release changes them
// in one place. The main package is the same whichever binary is given.
//
// Usage: node packaging/npm/build.mjs --binary PATH [--platform KEY] [--out DIR]
//   --binary PATH    the redis-lua binary, e.g. target/release/redis-lua
//   --platform KEY   the binary's platform, a key of platforms.json
//                    (default: this machine's, as Node names it)
//   --out DIR        where the packages' folders and tarballs go
//                    (default: <cargo target dir>/npm)
// Prints the paths of the two tarballs, main package first.

import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const repository = path.resolve(here, '../..');
const launcher = path.join(here, 'redis-lua.js');
const { platformPackageName, binaryName } = createRequire(import.meta.url)(launcher);

function usage(message) {
  process.stderr.write(`build.mjs: ${message}\n`);
  process.stderr.write('usage: node packaging/npm/build.mjs --binary PATH [--platform KEY] [--out DIR]\n');
  process.exit(2);
}

/** The Cargo package of redis-lua/, and the workspace's target directory. */
function cargoFacts() {
  const manifestPath = path.join(repository, 'redis-lua', 'Cargo.toml');
  const metadata = JSON.parse(
    execFileSync('cargo', ['metadata', '--no-deps', '--format-version', '1', '--manifest-path', manifestPath], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
  const crate = metadata.packages.find((found) => found.manifest_path === manifestPath);
  if (!crate) usage(`cargo metadata lists no package at ${manifestPath}`);
  return { crate, targetDirectory: metadata.target_directory };
}

function writeJson(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Packs the package in `dir` into `out`; returns the tarball's path. */
function pack(dir, out) {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], {
      cwd: dir,
      encoding: 'utf8',
    }),
  );
  return path.join(out, packed[0].filename);
}

/** The fields both packages share. */
function commonFields(crate) {
  return {
    version: crate.version,
    license: crate.license,
    repository: { type: 'git', url: `git+${crate.repository}.git`, directory: 'redis-lua' },
    homepage: `${crate.repository}/tree/main/redis-lua#readme`,
  };
}

function buildMain(crate, platforms, dir) {
  mkdirSync(path.join(dir, 'bin'), { recursive: true });
  copyFileSync(launcher, path.join(dir, 'bin', 'redis-lua.js'));
  chmodSync(path.join(dir, 'bin', 'redis-lua.js'), 0o755);
  copyFileSync(path.join(repository, 'redis-lua', 'README.md'), path.join(dir, 'README.md'));
  for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    copyFileSync(path.join(repository, licence), path.join(dir, licence));
  }
  const optionalDependencies = {};
  for (const { os, cpu } of Object.values(platforms)) {
    optionalDependencies[platformPackageName(crate.name, os, cpu)] = crate.version;
  }
  writeJson(path.join(dir, 'package.json'), {
    name: crate.name,
    description: crate.description,
    keywords: crate.keywords,
    ...commonFields(crate),
    bin: { 'redis-lua': 'bin/redis-lua.js' },
    files: ['bin/', 'LICENSE-MIT', 'LICENSE-APACHE'],
    engines: { node: '>=18' },
    optionalDependencies,
  });
}

function buildPlatform(crate, key, platform, binary, dir) {
  const name = platformPackageName(crate.name, platform.os, platform.cpu);
  const binaryPath = path.join(dir, 'bin', binaryName(platform.os));
  mkdirSync(path.dirname(binaryPath), { recursive: true });
  copyFileSync(binary, binaryPath);
  chmodSync(binaryPath, 0o755);
  const libc = platform.libc ? ` (${platform.libc})` : '';
  writeFileSync(
    path.join(dir, 'README.md'),
    `# ${name}\n\nThe \`redis-lua\` binary for ${key}${libc}, built for Rust's ` +
      `\`${platform.rustTarget}\`. Install [${crate.name}](https://www.npmjs.com/package/${crate.name}), ` +
      'whose `redis-lua` command runs it.\n',
  );
  writeJson(path.join(dir, 'package.json'), {
    name,
    description: `The redis-lua binary for ${key}${libc}; install ${crate.name}, which runs it`,
    ...commonFields(crate),
    os: [platform.os],
    cpu: [platform.cpu],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    files: ['bin/'],
    // Yarn's Plug'n'Play keeps the binary on disk rather than in its zip cache.
    preferUnplugged: true,
  });
  return name;
}

function main() {
  const { values } = parseArgs({
    options: { binary: { type: 'string' }, platform: { type: 'string' }, out: { type: 'string' } },
  });
  if (!values.binary) usage('--binary is required');
  const platforms = JSON.parse(readFileSync(path.join(here, 'platforms.json'), 'utf8'));
  const key = values.platform ?? `${process.platform}-${process.arch}`;
  const platform = platforms[key];
  if (!platform) usage(`no platform ${key} in platforms.json (it has: ${Object.keys(platforms).join(', ')})`);

  const { crate, targetDirectory } = cargoFacts();
  const out = path.resolve(values.out ?? path.join(targetDirectory, 'npm'));
  const mainDir = path.join(out, crate.name);
  const platformName = platformPackageName(crate.name, platform.os, platform.cpu);
  const platformDir = path.join(out, platformName);
  rmSync(mainDir, { recursive: true, force: true });
  rmSync(platformDir, { recursive: true, force: true });

  buildMain(crate, platforms, mainDir);
  buildPlatform(crate, key, platform, values.binary, platformDir);
  process.stdout.write(`${pack(mainDir, out)}\n${pack(platformDir, out)}\n`);
}

main();
