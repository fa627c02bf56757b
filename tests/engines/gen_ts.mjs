#!/usr/bin/env node
// Turns qaplan's engine golden files (tests/engines/golden/<case>.<engine>-<version>.json) into
// TypeScript that assigns every request, as an object LITERAL, to the request type of the
// official Node.js client released for that engine version. `tsc --strict` on the output then
// rejects any misspelt, misplaced or mistyped field (excess-property checks apply to literals
// only, which is why the body is inlined as JSON text and never spread).
//
// Usage: node gen_ts.mjs [--out DIR] [GOLDEN_DIR_OR_FILE ...]
//   default input:  <this dir>/golden
//   default output: <this dir>/generated/golden   (its *.ts files are replaced on every run)
// Exit 0 on success (prints how many files/requests it wrote), 1 with a one-line message naming
// the offending file otherwise. Zero golden files is an error: the check must never pass empty.
// Node builtins only; test tooling, never part of qaplan's run time.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// Which client release line checks which server version. One entry per supported version; a
// golden file with any other engine/version fails loudly.
//   module: the npm package (alias) the types come from, see package.json
const CLIENTS = {
  elasticsearch: {
    '8.14': { module: 'es-8.14' },            // @elastic/elasticsearch 8.14.1
    '8.16': { module: 'es-8.16' },            // @elastic/elasticsearch 8.16.2
    '9.1': { module: 'es-9.1' },              // @elastic/elasticsearch 9.1.1
  },
  opensearch: {                               // @opensearch-project/opensearch 3.9.0 for all:
    '2.10': { module: '@opensearch-project/opensearch' },  // the types carry no server version
    '2.19': { module: '@opensearch-project/opensearch' },  // gates (checked in the C++ tests)
    '3.0': { module: '@opensearch-project/opensearch' },
    '3.1': { module: '@opensearch-project/opensearch' },
  },
  milvus: {
    '2.4': { module: 'milvus-2.4' },          // @zilliz/milvus2-sdk-node 2.4.9
    '2.5': { module: 'milvus-2.5' },          // @zilliz/milvus2-sdk-node 2.5.9
  },
};

// api -> TypeScript type name, per engine (the import line is per engine below).
const API_TYPES = {
  elasticsearch: { search: 'estypes.SearchRequest' },
  opensearch: { search: 'API.Search_Request' },
  milvus: { search: 'SearchSimpleReq', hybrid_search: 'HybridSearchReq' },
};

class GoldenError extends Error {}

function fail(file, msg) {
  throw new GoldenError(`${file ? path.relative(process.cwd(), file) || file : 'gen_ts'}: ${msg}`);
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function parseArgs(argv) {
  let out = path.join(HERE, 'generated', 'golden');
  const inputs = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') {
      if (i + 1 >= argv.length) fail(null, '--out needs a directory');
      out = path.resolve(argv[++i]);
    } else if (a === '-h' || a === '--help') {
      process.stdout.write('usage: node gen_ts.mjs [--out DIR] [GOLDEN_DIR_OR_FILE ...]\n');
      process.exit(0);
    } else if (a.startsWith('-')) {
      fail(null, `unknown option ${a}`);
    } else {
      inputs.push(path.resolve(a));
    }
  }
  if (inputs.length === 0) inputs.push(path.join(HERE, 'golden'));
  return { out, inputs };
}

function collectGoldens(inputs) {
  const files = [];
  for (const p of inputs) {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      fail(p, 'no such file or directory');
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) {
        if (name.endsWith('.json')) files.push(path.join(p, name));
      }
    } else {
      files.push(p);
    }
  }
  if (files.length === 0) {
    fail(inputs[0], 'no golden *.json files found: refusing to run an empty type check');
  }
  return files;
}

// A TypeScript identifier-safe file stem: "<case>.<engine>-<version>" -> same text with anything
// outside [A-Za-z0-9._-] replaced, so the .ts file name stays predictable.
function tsName(file) {
  return path.basename(file, '.json').replace(/[^A-Za-z0-9._-]/g, '_') + '.ts';
}

function comment(text) {
  return String(text).replace(/\*\//g, '*\\/').replace(/[\r\n]+/g, ' ');
}

function literal(value) {
  // JSON text is a valid TS object literal; 2-space indent gives tsc a line per member so its
  // diagnostics point at the offending field.
  return JSON.stringify(value, null, 2);
}

function requestObject(file, engine, req, i) {
  const where = `requests[${i}]${req && req.name ? ` (${req.name})` : ''}`;
  if (!isObject(req)) fail(file, `${where} is not an object`);
  if (!isObject(req.body)) fail(file, `${where}: "body" must be an object`);
  if (req.params !== undefined && !isObject(req.params)) {
    fail(file, `${where}: "params" must be an object when present`);
  }
  if (req.index !== undefined && typeof req.index !== 'string' && !Array.isArray(req.index)) {
    fail(file, `${where}: "index" must be a string or an array`);
  }
  if (engine === 'elasticsearch') {
    // The 8.x client takes body members at top level beside the path/query parameters.
    const top = {};
    if (req.index !== undefined) top.index = req.index;
    for (const [k, v] of Object.entries(req.params || {})) top[k] = v;
    for (const [k, v] of Object.entries(req.body)) {
      if (k in top) fail(file, `${where}: body member "${k}" collides with a request parameter`);
      top[k] = v;
    }
    return top;
  }
  if (engine === 'opensearch') {
    const top = {};
    if (req.index !== undefined) top.index = req.index;
    for (const [k, v] of Object.entries(req.params || {})) {
      if (k === 'index' || k === 'body') fail(file, `${where}: "params" may not set "${k}"`);
      top[k] = v;
    }
    top.body = req.body;
    return top;
  }
  // milvus: the body is the request (it carries collection_name).
  if (req.params !== undefined) fail(file, `${where}: Milvus requests take no "params"`);
  if (req.index !== undefined && req.index !== req.body.collection_name) {
    fail(file, `${where}: "index" (${req.index}) differs from body.collection_name`);
  }
  return req.body;
}

function generate(file) {
  let golden;
  try {
    golden = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    fail(file, `not valid JSON (${e.message.split('\n')[0]})`);
  }
  if (!isObject(golden)) fail(file, 'top level is not an object');
  const { engine, version } = golden;
  if (!(engine in CLIENTS)) {
    fail(file, `unknown engine ${JSON.stringify(engine)} (expected ${Object.keys(CLIENTS).join('|')})`);
  }
  const client = CLIENTS[engine][version];
  if (!client) {
    fail(file, `unknown ${engine} version ${JSON.stringify(version)} (known: ${Object.keys(CLIENTS[engine]).join(', ')})`);
  }
  // A direct answer (mode "none") retrieves nothing: no request, nothing to type-check.
  if (golden.mode === 'none' && Array.isArray(golden.requests) && golden.requests.length === 0) {
    return null;
  }
  if (!Array.isArray(golden.requests) || golden.requests.length === 0) {
    fail(file, '"requests" must be a non-empty array');
  }

  const lines = [
    `// GENERATED by tests/engines/gen_ts.mjs from ${path.basename(file)} — do not edit.`,
    `// ${engine} ${version}: types from ${client.module}`,
  ];
  if (engine === 'elasticsearch') lines.push(`import type { estypes } from '${client.module}';`);
  if (engine === 'opensearch') lines.push(`import type { API } from '${client.module}';`);
  if (engine === 'milvus') {
    lines.push(`import type { HybridSearchReq, SearchSimpleReq } from '${client.module}';`);
  }
  lines.push('');

  golden.requests.forEach((req, i) => {
    const api = isObject(req) ? req.api : undefined;
    const type = API_TYPES[engine][api];
    if (!type) {
      fail(file, `requests[${i}]: unknown ${engine} api ${JSON.stringify(api)} (known: ${Object.keys(API_TYPES[engine]).join(', ')})`);
    }
    const obj = requestObject(file, engine, req, i);
    lines.push(`/* requests[${i}] ${comment(req.name ?? '')} leg=${comment(req.leg ?? '')} api=${api} */`);
    lines.push(`export const request${i}: ${type} = ${literal(obj)};`, '');
  });

  let count = golden.requests.length;
  if (golden.pipeline !== undefined) {
    if (engine !== 'opensearch') fail(file, `"pipeline" is only defined for opensearch, not ${engine}`);
    const p = golden.pipeline;
    if (!isObject(p) || typeof p.id !== 'string' || !isObject(p.body)) {
      fail(file, '"pipeline" must be {"id": string, "body": object}');
    }
    lines.push(`/* pipeline ${comment(p.id)} */`);
    lines.push(`export const pipeline: API.SearchPipeline_Put_Request = ${literal({ id: p.id, body: p.body })};`, '');
    count++;
  }
  return { text: lines.join('\n'), count };
}

function main() {
  const { out, inputs } = parseArgs(process.argv.slice(2));
  const files = collectGoldens(inputs);
  const outputs = new Map();
  let total = 0;
  for (const f of files) {
    const name = tsName(f);
    if (outputs.has(name)) fail(f, `two golden files map to ${name}`);
    const generated = generate(f);
    if (generated === null) continue;  // a direct answer: no request
    const { text, count } = generated;
    outputs.set(name, text);
    total += count;
  }
  fs.mkdirSync(out, { recursive: true });
  for (const name of fs.readdirSync(out)) {
    if (name.endsWith('.ts')) fs.rmSync(path.join(out, name));  // stale output of removed goldens
  }
  for (const [name, text] of outputs) fs.writeFileSync(path.join(out, name), text);
  process.stdout.write(`gen_ts: ${outputs.size} golden file(s), ${total} request(s) -> ${path.relative(process.cwd(), out) || '.'}\n`);
}

try {
  main();
} catch (e) {
  if (e instanceof GoldenError) {
    process.stderr.write(`gen_ts: ${e.message}\n`);
    process.exit(1);
  }
  throw e;
}
