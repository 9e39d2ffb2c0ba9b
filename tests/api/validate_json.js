#!/usr/bin/env node
// validate_json.js - checks JSON values a test captured against the spec's schemas.
//
//   node tests/api/validate_json.js OPENAPI_JSON < lines
//
// Reads lines "<schema name>\t<JSON>" and validates each value against
// components/schemas/<schema name> of the bundled OpenAPI document with Ajv (JSON Schema
// 2020-12), as Prism does for responses. For what Prism cannot see: the bodies the server
// POSTs to webhook receivers. Prints the failures and a summary line; exits 1 on any.
'use strict';

const fs = require('fs');
const path = require('path');
const readline = require('readline');
const modules = path.join(__dirname, '..', '..', 'openapi', 'node_modules');
const Ajv2020 = require(path.join(modules, 'ajv/dist/2020')).default;
const addFormats = require(path.join(modules, 'ajv-formats'));

const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(doc, 'spec');

let checked = 0;
let failed = 0;
const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (!line) return;
  const tab = line.indexOf('\t');
  const name = line.slice(0, tab);
  if (!doc.components.schemas[name]) throw new Error(`no schema ${name} in the spec`);
  const validate = ajv.getSchema(`spec#/components/schemas/${name}`);
  checked++;
  if (!validate(JSON.parse(line.slice(tab + 1)))) {
    failed++;
    if (failed <= 10) {
      const errors = validate.errors.slice(0, 4).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
      console.error(`FAIL ${name}: ${line.slice(tab + 1, tab + 400)}\n  ${errors.join('\n  ')}`);
    }
  }
});
input.on('close', () => {
  console.log(`${checked} values against the spec: ${checked - failed} passed, ${failed} failed`);
  process.exit(failed || !checked ? 1 : 0);
});
