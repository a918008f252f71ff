#!/usr/bin/env node
// The `redis-lua` command of the npm package redis-lua-lint. The binary itself
// comes in a package per platform (redis-lua-lint-linux-x64, ...), each an
// optional dependency that npm installs only where its `os`, `cpu` and `libc`
// fit; this finds the one installed, runs it with the same arguments and
// exits as it exits. build.mjs (beside this file in the repository) also
// requires it, for the packages' names and the binary's file name.
'use strict';

const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** The platform package of `mainPackage` for an `os` and `cpu` as Node names them. */
function platformPackageName(mainPackage, os, cpu) {
  return `${mainPackage}-${os}-${cpu}`;
}

/** The binary's file name inside a platform package's `bin/`. */
function binaryName(os) {
  return os === 'win32' ? 'redis-lua.exe' : 'redis-lua';
}

// Only glibc builds are made for Linux: on musl (Alpine) npm skips them, and
// the message says so rather than naming a package that would not run.
function hostDescription() {
  const host = `${process.platform}-${process.arch}`;
  if (process.platform !== 'linux') return host;
  const report = process.report.getReport();
  return report.header.glibcVersionRuntime ? host : `${host} (musl libc)`;
}

function fail(message) {
  process.stderr.write(`redis-lua: ${message}\n`);
  // As the command's own usage and I/O errors: 1 would read as "errors found".
  process.exit(2);
}

function missingBinaryMessage(manifest, wanted) {
  const supported = Object.keys(manifest.optionalDependencies || {});
  const host = hostDescription();
  if (supported.includes(wanted) && !host.includes('musl')) {
    return (
      `the package ${wanted}, which holds the binary for ${host}, is not installed ` +
      `beside ${manifest.name}. npm leaves optional dependencies out with ` +
      `--omit=optional (or --no-optional), and a lockfile written on another platform ` +
      `may lack it. Install it: npm install --save-dev ${wanted}@${manifest.version}`
    );
  }
  const platforms = supported.map((name) => name.slice(manifest.name.length + 1));
  return (
    `${manifest.name} ${manifest.version} has no binary for ${host} ` +
    `(it has: ${platforms.join(', ')}). Build the command from source with Rust ` +
    `instead: cargo install --locked ${manifest.name}@${manifest.version}`
  );
}

function main() {
  const manifest = require('../package.json');
  const wanted = platformPackageName(manifest.name, process.platform, process.arch);
  let packageDir;
  try {
    packageDir = path.dirname(require.resolve(`${wanted}/package.json`));
  } catch {
    fail(missingBinaryMessage(manifest, wanted));
  }
  const binary = path.join(packageDir, 'bin', binaryName(process.platform));
  const run = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
  if (run.error) fail(`could not run ${binary} (from ${wanted}): ${run.error.message}`);
  if (run.signal) {
    // Die of the same signal, so that a caller sees what the binary saw; where
    // Node does not die of it, exit as a shell reports a signal.
    process.kill(process.pid, run.signal);
    process.exit(128 + (os.constants.signals[run.signal] || 0));
  }
  process.exit(run.status);
}

if (require.main === module) {
  main();
}

module.exports = { platformPackageName, binaryName };
