// Runs report samples through the published schema with Ajv, a JSON Schema
// validator of its own, so the worker's parser and docs/report.schema.json are
// checked against the same samples (ADR 0022).
//
// Usage: node validate-report.mjs docs/report.schema.json samples.json
//   samples.json: [{"name": ..., "report": <any JSON>, "valid": ...}, ...]
// Prints one line of JSON: {"<name>": true|false, ...}, Ajv's verdict per sample.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const [schemaFile, samplesFile] = process.argv.slice(2);
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, "utf8")));
const verdicts = {};
for (const sample of JSON.parse(readFileSync(samplesFile, "utf8"))) {
    verdicts[sample.name] = validate(sample.report);
}
console.log(JSON.stringify(verdicts));
