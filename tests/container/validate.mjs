// SPDX-License-Identifier: Apache-2.0
// Kubernetes YAML against the API's OpenAPI schemas (the kubernetes-models
// packages, pinned in package-lock.json beside this file), and fields read
// out of it.
//
//   node validate.mjs DIR check FILE...   DIR holds node_modules/. Every object
//       valid and without a field its schema lacks (what `kubectl apply
//       --validate=strict` refuses; the models' schemas allow any): one
//       line per FILE, "FILE: N valid", or one per fault and exit status 1.
//       Objects of other APIs (a group neither built in nor *.k8s.io) are
//       counted, not checked.
//   node validate.mjs DIR get FILE PATH   "Kind/name: VALUE" per object, VALUE
//       the JSON at PATH, keys sorted: keys joined by dots, [N] for an item,
//       [KEY] for a key with dots, [KEY=VALUE] for the first item whose KEY
//       is VALUE; "absent" when there is none.
//
// Documents are read as YAML 1.1, as Kubernetes reads them: a bare `on` is
// a bool.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const [dir, command, ...args] = process.argv.slice(2);
const require = createRequire(join(resolve(dir), 'node_modules', '..', 'package.json'));
const YAML = require('yaml');

function objects(file) {
  return YAML.parseAllDocuments(readFileSync(file, 'utf8'), { version: '1.1' }).map((doc, i) => {
    if (doc.errors.length) throw new Error(`${file}: document ${i + 1}: ${doc.errors[0].message}`);
    return doc.toJS({ maxAliasCount: -1 });
  }).filter((object) => object !== null);
}

const label = (o) => `${o?.kind}/${o?.metadata?.name}`;

// The model class of an object, or null for another API's.
function model(object) {
  const [group, version] = object.apiVersion?.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const builtIn = !group.includes('.') || group.endsWith('.k8s.io');
  let Model;
  try {
    Model = require(`kubernetes-models/${group ? `${group}/` : ''}${version}`)[object.kind];
  } catch {
    Model = undefined;
  }
  if (Model || !builtIn) return Model ?? null;
  throw new Error(`no ${object.kind} in ${object.apiVersion}`);
}

// The schemas' validators read every field they know (and every key of a
// map): a key never read is one the schema lacks.
function unknownFields(object, validate) {
  const read = new WeakMap();
  const track = (value) => {
    if (value === null || typeof value !== 'object') return value;
    if (!read.has(value)) read.set(value, new Set());
    return new Proxy(value, {
      get(target, key) {
        if (typeof key === 'string') read.get(target).add(key);
        return track(Reflect.get(target, key));
      },
    });
  };
  validate(track(object));
  const unknown = [];
  const walk = (value, path) => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (!Array.isArray(value) && !read.get(value)?.has(key)) unknown.push(at);
      else walk(child, at);
    }
  };
  walk(object, '');
  return unknown;
}

function check(files) {
  let faults = 0;
  for (const file of files) {
    let valid = 0;
    let other = 0;
    try {
      objects(file).forEach((object, i) => {
        try {
          const Model = model(object);
          if (!Model) return other++;
          const unknown = unknownFields(object, (o) => Model.prototype.validate.call(o));
          if (unknown.length) throw new Error(`unknown field ${unknown.join(', ')}`);
          valid++;
        } catch (e) {
          faults++;
          console.log(`${file}: object ${i + 1} (${label(object)}): ${e.message}`);
        }
      });
      console.log(`${file}: ${valid} valid${other ? `, ${other} of other APIs` : ''}`);
    } catch (e) {
      faults++;
      console.log(e.message);
    }
  }
  return faults ? 1 : 0;
}

// Keys in order, as kubectl writes them: one text for one value.
function sorted(value) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sorted);
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])]));
}

function get(file, path) {
  const steps = [...path.matchAll(/([^.[\]]+)|\[([^\]]+)\]/g)].map((m) => m[1] ?? m[2]);
  for (const object of objects(file)) {
    let value = object;
    for (const step of steps) {
      const [key, wanted] = step.split('=');
      if (wanted !== undefined) value = Array.isArray(value) ? value.find((item) => String(item?.[key]) === wanted) : undefined;
      else value = value?.[step];
    }
    console.log(`${label(object)}: ${value === undefined ? 'absent' : JSON.stringify(sorted(value))}`);
  }
  return 0;
}

const commands = { check: () => check(args), get: () => get(args[0], args[1]) };
if (!commands[command]) {
  console.error('usage: validate.mjs DIR check FILE... | get FILE PATH');
  process.exit(2);
}
process.exit(commands[command]());
