#!/usr/bin/env node
// validate_samples.js - checks real codec output against the spec's schemas.
//
//   codec_samples | node openapi/validate_samples.js OPENAPI_JSON
//
// Reads lines "<schema name>\t<JSON>" (from openapi/codec_samples.c) and validates each
// JSON value against components/schemas/<schema name> of the bundled OpenAPI document with
// Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1), as Prism does for real responses.
// It also requires that the samples cover every event type and every move and action type
// the spec lists, so a shape the games never produced cannot pass unseen. Prints a summary
// line and exits 1 on any failure.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');
const modules = path.join(__dirname, 'node_modules');
const Ajv2020 = require(path.join(modules, 'ajv/dist/2020')).default;
const addFormats = require(path.join(modules, 'ajv-formats'));

const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(doc, 'spec');

const validators = new Map();
function validator(name) {
  if (!validators.has(name)) {
    if (!doc.components.schemas[name]) throw new Error(`no schema ${name} in the spec`);
    validators.set(name, ajv.getSchema(`spec#/components/schemas/${name}`));
  }
  return validators.get(name);
}

// Which discriminated types the samples must cover: schema name -> list of `type` values.
const unions = { LogEntry: [], Move: [], Action: [] };
for (const name of Object.keys(unions)) unions[name] = Object.keys(doc.components.schemas[name].discriminator.mapping);
const seen = { LogEntry: new Set(), Move: new Set(), Action: new Set() };

let checked = 0;
let failed = 0; // samples that broke their schema
let uncovered = 0; // types the samples never produced
const counts = {};
const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  const tab = line.indexOf('\t');
  const name = line.slice(0, tab);
  const value = JSON.parse(line.slice(tab + 1));
  const validate = validator(name);
  checked++;
  counts[name] = (counts[name] || 0) + 1;
  if (name in seen) seen[name].add(value.type);
  if (name === 'Actions') for (const action of value.actions) seen.Action.add(action.type);
  if (!validate(value)) {
    failed++;
    if (failed <= 10) {
      const errors = validate.errors.slice(0, 4).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
      console.error(`FAIL ${name}: ${line.slice(tab + 1, tab + 400)}\n  ${errors.join('\n  ')}`);
    }
  }
});
input.on('close', () => {
  for (const [name, types] of Object.entries(unions)) {
    const missing = types.filter((t) => !seen[name].has(t));
    if (missing.length) {
      uncovered++;
      console.error(`FAIL ${name}: the samples never produced ${missing.join(', ')}`);
    }
  }
  const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ');
  console.log(`codec samples against the spec (${summary}): ${checked - failed} passed, ${failed + uncovered} failed`);
  process.exit(failed || uncovered ? 1 : 0);
});
