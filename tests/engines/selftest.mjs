#!/usr/bin/env node
// Negative/positive self-test of the engine request type check, so it can never pass vacuously:
//   selftest/good/*.json  hand-written correct requests: tsc must ACCEPT all of them;
//   selftest/bad/*.json   one deliberate mistake each, named by its "selftest_expect" member:
//                         tsc must REJECT each file, with a diagnostic in that file's generated
//                         .ts whose text contains selftest_expect (quotes ignored);
//   plus gen_ts.mjs itself must refuse an empty golden dir and unknown engine/version/api.
// Run through `typecheck.sh --selftest` (which first checks node_modules). Prints one line per
// check and closes with "selftest: N passed, N failed"; exit 0 only when nothing failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const GEN = path.join(HERE, 'gen_ts.mjs');
const TSC = path.join(HERE, 'node_modules', 'typescript', 'bin', 'tsc');
const OUT = path.join(HERE, 'generated', 'selftest');

let passed = 0;
let failed = 0;
function check(ok, what, detail = '') {
  if (ok) {
    passed++;
    process.stdout.write(`ok   ${what}\n`);
  } else {
    failed++;
    process.stdout.write(`FAIL ${what}${detail ? `\n${detail.replace(/^/gm, '     ')}` : ''}\n`);
  }
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: HERE, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function genAndTsc(set) {
  const src = path.join(HERE, 'selftest', set);
  const out = path.join(OUT, set);
  const goldens = fs.readdirSync(src).filter((f) => f.endsWith('.json')).sort();
  const gen = run(process.execPath, [GEN, '--out', out, src]);
  if (gen.status !== 0) {
    check(false, `gen_ts on selftest/${set}`, gen.out);
    return null;
  }
  fs.writeFileSync(path.join(out, 'tsconfig.json'),
    '{\n  "extends": "../../../tsconfig.json",\n  "include": ["*.ts"]\n}\n');
  const tsc = run(process.execPath, [TSC, '--noEmit', '--strict', '--skipLibCheck', '--pretty', 'false',
    '-p', out]);
  return { goldens, tsc };
}

// tsc --pretty false: "path(l,c): error TSnnnn: message" plus indented continuation lines.
function diagnosticsByFile(text) {
  const byFile = new Map();
  let current = null;
  for (const line of text.split('\n')) {
    const m = /^(.*?\.ts)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (m) {
      current = { file: path.basename(m[1]), text: m[2] };
      if (!byFile.has(current.file)) byFile.set(current.file, []);
      byFile.get(current.file).push(current);
    } else if (current && /^\s+\S/.test(line)) {
      current.text += `\n${line.trim()}`;
    } else {
      current = null;
    }
  }
  return byFile;
}

const tsFor = (json) => json.replace(/\.json$/, '.ts');

// 1. good samples: accepted, and there are some for every engine.
const good = genAndTsc('good');
if (good) {
  for (const engine of ['elasticsearch', 'opensearch', 'milvus']) {
    check(good.goldens.some((g) => g.includes(`.${engine}-`)), `good samples exist for ${engine}`);
  }
  const diags = diagnosticsByFile(good.tsc.out);
  for (const g of good.goldens) {
    const d = diags.get(tsFor(g)) || [];
    check(d.length === 0, `accepts selftest/good/${g}`, d.map((x) => x.text).join('\n'));
  }
  check(good.tsc.status === 0, 'tsc exits 0 on selftest/good', good.tsc.status === 0 ? '' : good.tsc.out);
}

// 2. bad samples: each rejected, for the stated reason.
const bad = genAndTsc('bad');
if (bad) {
  const diags = diagnosticsByFile(bad.tsc.out);
  for (const g of bad.goldens) {
    const expect = JSON.parse(fs.readFileSync(path.join(HERE, 'selftest', 'bad', g), 'utf8')).selftest_expect;
    if (typeof expect !== 'string' || expect === '') {
      check(false, `rejects selftest/bad/${g}`, 'the sample has no "selftest_expect" string');
      continue;
    }
    const d = diags.get(tsFor(g)) || [];
    const hit = d.some((x) => x.text.replaceAll('"', '').includes(expect.replaceAll('"', '')));
    check(hit, `rejects selftest/bad/${g} (${expect})`,
      d.length ? `tsc said instead:\n${d.map((x) => x.text).join('\n')}` : 'tsc accepted it');
  }
  check(bad.tsc.status !== 0, 'tsc exits non-zero on selftest/bad');
}

// 3. gen_ts refuses inputs that would make the check vacuous or ambiguous.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'qaplan-engines-selftest-'));
try {
  const tmpOut = path.join(tmp, 'out');
  const empty = path.join(tmp, 'empty');
  fs.mkdirSync(empty);
  let r = run(process.execPath, [GEN, '--out', tmpOut, empty]);
  check(r.status !== 0 && /no golden/.test(r.out), 'gen_ts fails on an empty golden dir', r.out);

  const cases = [
    ['unknown-version.elasticsearch-7.17.json', { engine: 'elasticsearch', version: '7.17' }, /unknown elasticsearch version/],
    ['unknown-engine.vespa-8.0.json', { engine: 'vespa', version: '8.0' }, /unknown engine/],
    ['unknown-api.milvus-2.5.json', { engine: 'milvus', version: '2.5', api: 'query' }, /unknown milvus api/],
    ['no-requests.opensearch-3.0.json', { engine: 'opensearch', version: '3.0', requests: [] }, /non-empty array/],
  ];
  for (const [name, spec, re] of cases) {
    const golden = {
      engine: spec.engine, version: spec.version, mode: 'single_leg',
      requests: spec.requests ?? [{ name: 'x', leg: 'doc', api: spec.api ?? 'search', index: 'i',
        body: { collection_name: 'i' } }],
    };
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, name), JSON.stringify(golden));
    r = run(process.execPath, [GEN, '--out', tmpOut, dir]);
    const oneLine = r.out.trim().split('\n').length === 1;
    check(r.status !== 0 && re.test(r.out) && r.out.includes(name) && oneLine,
      `gen_ts rejects ${name} with a one-line message naming the file`, r.out);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

process.stdout.write(`selftest: ${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
