#!/usr/bin/env node
// `node scripts/run-ts.cjs SCRIPT.ts [ARG…]`: runs one of the project's TypeScript scripts from one
// CommonJS file that esbuild bundled from it and every project module it imports (packages stay in
// node_modules), kept in .l1/build/ and built again whenever any of its sources changed. This is
// how the project starts its scripts (lib/run/settings.ts `tsScript`, package.json, scripts/ci/),
// where it used tsx's hook (`node --require tsx/cjs SCRIPT.ts`): the hook reads, looks up and
// compiles every module on its own, with its source map, in every process, about 0.18 CPU s more
// per start than one bundle (scripts/report.ts --help: 0.35 against 0.17 CPU s; `npm test` starts
// some 90 scripts). docs/decisions.md, Speed.
//
// The bundle is fresh when its first line, written with it, names the same esbuild, the same
// launcher (this file's SHA-1), the same root and the same SHA-1 of each source file it was built
// from (read again at every start: some 80 files, 3 to 4 ms). Otherwise it is built again, into a
// file of its own renamed over the old one: two starts that build at once each write a whole
// bundle, and a start never reads half of one. A start reads the bundle once and runs the text it
// checked, never a file read again (an older build renamed over it meanwhile, or .l1/build
// removed). Each module keeps its own `__dirname` and `__filename` (the settings' ROOT, the demo's
// folders), its stack traces name the TypeScript lines (a source map in the bundle, enabled here), and
// the script sees `process.argv` as Node gives it to a script it runs itself: [node, SCRIPT, ARG…].
// A script outside the project root runs through tsx's hook as before.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const BUILD = path.join(ROOT, '.l1', 'build');
const MARK = '// l1-bundle ';

const sha1 = (text) => crypto.createHash('sha1').update(text).digest('hex');
/** This launcher's own source: a bundle built by another version of it (another commit's) is built again. */
const LAUNCHER = sha1(fs.readFileSync(__filename));

/** Where the bundle of a script under the root is kept: .l1/build/scripts/report.ts.cjs. */
function bundlePath(script) {
  return path.join(BUILD, `${path.relative(ROOT, script)}.cjs`);
}

function esbuildVersion() {
  return require('esbuild/package.json').version;
}

/**
 * The bundle's whole text, read once, or undefined: what a start checks is what it runs. Read
 * again by `require`, it could be another start's older build renamed over it after the check, or
 * gone with .l1/build.
 */
function readBundle(bundle) {
  try {
    return fs.readFileSync(bundle, 'utf8');
  } catch {
    return undefined;
  }
}

/** The manifest on a bundle's first line, or undefined. */
function manifestOf(text) {
  if (text === undefined) return undefined;
  const line = text.slice(0, Math.max(0, text.indexOf('\n')));
  if (!line.startsWith(MARK)) return undefined;
  try {
    return JSON.parse(line.slice(MARK.length));
  } catch {
    return undefined;
  }
}

/** Whether the bundle was built by this esbuild, at this root, from the files as they are now. */
function fresh(manifest) {
  // The launcher's SHA-1 stands for the bundle's format too: any change of how it builds changes it.
  if (!manifest || manifest.launcher !== LAUNCHER || manifest.root !== ROOT) return false;
  if (manifest.esbuild !== esbuildVersion()) return false;
  // A bundle is built from its script at least: a manifest naming no source says nothing fresh. (A
  // hash that is no string matches no file's SHA-1 below.)
  const inputs = Object.entries(manifest.inputs ?? {});
  if (inputs.length === 0) return false;
  for (const [rel, hash] of inputs) {
    let text;
    try {
      text = fs.readFileSync(path.join(ROOT, rel));
    } catch {
      return false;
    }
    if (sha1(text) !== hash) return false;
  }
  return true;
}

/** What a module's first line is given: its own `__dirname` and `__filename`. */
function ownNames(file) {
  return `var __dirname = ${JSON.stringify(path.dirname(file))}, __filename = ${JSON.stringify(file)}; `;
}

/**
 * One message of esbuild as a line: `  FILE:LINE:COLUMN: TEXT`, the column counted from 1 in
 * characters, as Node's stack traces, tsc and editors count it (esbuild's counts bytes from 0: a
 * `→` or `·` before it, in many of the project's lines, moved it on).
 */
function located(m) {
  if (!m.location) return `  ${m.text}`;
  const { file, line, column, lineText } = m.location;
  const chars = Buffer.from(lineText, 'utf8').subarray(0, column).toString('utf8').length;
  // A column of the first line counts the names put in front of it (ownNames).
  const col = line === 1 ? Math.max(0, chars - ownNames(path.resolve(ROOT, file)).length) : chars;
  return `  ${file}:${line}:${col + 1}: ${m.text}`;
}

/**
 * Removes what a build of `bundle` killed between its write and its rename left beside it
 * (`<bundle>.<pid>.<random>.tmp`), when its process is gone.
 */
function removeLeftTemps(bundle) {
  const dir = path.dirname(bundle);
  const prefix = `${path.basename(bundle)}.`;
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : '');
    if (!m || alive(Number(m[1]))) continue;
    fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** Whether process `pid` runs (a signal 0 it may not be sent still means it runs). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * Builds the bundle of `script` and writes it with its manifest. Each TypeScript module is read
 * here, hashed as read, and given its own `__dirname` and `__filename` on its first line (so no
 * line moves in the source map); esbuild renames them apart where it joins the modules' scopes.
 */
async function build(script, bundle) {
  const esbuild = require('esbuild');
  const inputs = {};
  const own = {
    name: 'l1-own-dirname',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        const text = fs.readFileSync(args.path, 'utf8');
        inputs[path.relative(ROOT, args.path)] = sha1(text);
        const head = ownNames(args.path);
        // A first line `#!…` is a comment for the bundle: esbuild reads a hashbang only at its start.
        return { contents: head + text.replace(/^#!/, '//'), loader: 'ts' };
      });
    },
  };
  const result = await esbuild
    .build({
      entryPoints: [script],
      // Paths in its messages and metafile from the root, as the manifest names them: from the
      // working folder (a start elsewhere), a JSON source was looked up at the wrong place and left
      // out of the manifest, and a message named the file by a path the columns were not counted for.
      absWorkingDir: ROOT,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      // Written into the bundle below, with the manifest's line.
      sourcemap: 'external',
      sourcesContent: false,
      outfile: bundle,
      write: false,
      metafile: true,
      // Printed here, by file, line and column (located).
      logLevel: 'silent',
      plugins: [own],
    })
    .finally(() =>
      // esbuild's service process would otherwise stay beside the script for its whole run (the main
      // job's 80 minutes), in its process group, holding its stderr.
      esbuild.stop(),
    );
  // Other sources of the bundle (a JSON file it imports) and the settings the build read.
  for (const input of [...Object.keys(result.metafile.inputs), 'tsconfig.json', 'package.json']) {
    const rel = path.relative(ROOT, path.resolve(ROOT, input));
    if (!(rel in inputs) && fs.existsSync(path.join(ROOT, rel)))
      inputs[rel] = sha1(fs.readFileSync(path.join(ROOT, rel)));
  }
  // None today: printed once, by the start that builds.
  if (result.warnings.length)
    process.stderr.write(
      `run-ts: warnings building ${path.relative(ROOT, script)}:\n${result.warnings.map(located).join('\n')}\n`,
    );
  const manifest = { esbuild: esbuildVersion(), launcher: LAUNCHER, root: ROOT, inputs };
  fs.mkdirSync(path.dirname(bundle), { recursive: true });
  removeLeftTemps(bundle);
  const code = result.outputFiles.find((f) => f.path === bundle).text;
  // The map inside the bundle, so that one rename puts both in place: two builds at once never pair
  // one's map with the other's code. The manifest is one more line before the code: one more line,
  // empty of mappings, in the map.
  const map = JSON.parse(result.outputFiles.find((f) => f.path === `${bundle}.map`).text);
  map.mappings = `;${map.mappings}`;
  const text =
    `${MARK}${JSON.stringify(manifest)}\n${code}` +
    `//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
  const temp = `${bundle}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(temp, text);
    fs.renameSync(temp, bundle);
  } catch (e) {
    fs.rmSync(temp, { force: true });
    throw e;
  }
  return text;
}

/** Runs the bundle's text as read (readBundle) or written (build), as `require(bundle)` would. */
function run(bundle, text) {
  process.setSourceMapsEnabled(true);
  const m = new Module(bundle, module);
  m.filename = bundle;
  m.paths = Module._nodeModulePaths(path.dirname(bundle));
  m._compile(text, bundle);
  m.loaded = true;
}

/**
 * tsx's hook, as the project ran its scripts before: for a script it does not bundle. The script
 * is loaded as the main module (`process.argv[1]`, set by main), so that `require.main === module`
 * holds in it as under `node --require tsx/cjs SCRIPT`: required, it silently did nothing.
 */
function viaTsx() {
  require(require.resolve('tsx/cjs', { paths: [ROOT] }));
  Module.runMain();
}

function main() {
  const script = process.argv[2];
  if (!script) {
    process.stderr.write('usage: node scripts/run-ts.cjs SCRIPT.ts [ARG…]\n');
    process.exit(2);
  }
  // As esbuild names it (its real path), so that its `__filename` is `process.argv[1]`.
  const resolved = path.resolve(script);
  const entry = fs.existsSync(resolved) ? fs.realpathSync(resolved) : resolved;
  // [node, SCRIPT, ARG…], as the script would see it run by Node itself.
  process.argv.splice(1, 2, entry);
  const rel = path.relative(ROOT, entry);
  if (rel.startsWith('..') || path.isAbsolute(rel) || rel.split(path.sep).includes('node_modules'))
    return viaTsx();
  const bundle = bundlePath(entry);
  const text = readBundle(bundle);
  if (fresh(manifestOf(text))) return run(bundle, text);
  // The script starts outside the promise (setImmediate), so what it throws is an uncaught
  // exception, as when Node runs it, not a rejection of the build.
  build(entry, bundle).then(
    (built) => setImmediate(run, bundle, built),
    (e) => {
      const errors = e && Array.isArray(e.errors) ? e.errors : [];
      // Not esbuild's: the bundle could not be written (a read-only checkout, a full disk, a
      // file where .l1/build should be). It is only quicker: the script runs through tsx's hook,
      // said in one line, as each start builds it again and throws it away (and a fault of this
      // launcher would otherwise never be seen).
      if (!errors.length) {
        const why = e instanceof Error ? e.message : String(e);
        process.stderr.write(`run-ts: no bundle for ${rel} (${why}): it runs through tsx's hook\n`);
        return setImmediate(viaTsx);
      }
      process.stderr.write(`run-ts: cannot build ${rel}:\n${errors.map(located).join('\n')}\n`);
      process.exit(1);
    },
  );
}

main();
