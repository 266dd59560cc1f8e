// Checks Sluice's OpenAPI document as the tools that read it would, and real
// answers of the worker against it (ADR 0021).
//
// Usage: node validate-openapi.mjs < check.json
//   check.json: {"document": <the served document, as JSON>,
//                "answers": [{"label": ..., "operationId": ..., "status": "202",
//                             "contentType": "application/json", "body": <JSON or null>}]}
//   An answer with "callback": <name> is a body the worker POSTed to a
//   callback URL: it is checked against the request body of that callback of
//   its operation instead of a response.
// First the document is validated against the OpenAPI 3.1 schema
// (@seriousme/openapi-schema-validator), and its schemas against JSON Schema
// 2020-12 (ajv). Then each answer must be declared by
// its operation (status and content type) and its body must match the declared
// schema (ajv, JSON Schema 2020-12, with formats), read strictly: an object may
// carry only the properties its schema declares, so a field the worker sends
// but the document does not name fails here. Prints one line per check; exits
// 1 when any fails, 2 on anything else.
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

try {
    const { document, answers } = JSON.parse(readFileSync(0, "utf8"));
    let failed = 0;

    const result = await new Validator().validate(structuredClone(document));
    if (result.valid) {
        console.log("valid OpenAPI " + document.openapi);
    } else {
        console.log("invalid document: " + JSON.stringify(result.errors));
        failed++;
    }

    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const defs = strict(local(document.components.schemas));
    try {
        // Every schema is itself valid JSON Schema 2020-12, whether or not an answer below uses it.
        ajv.compile({ $defs: defs });
    } catch (e) {
        console.log(`invalid schemas: ${e.message}`);
        failed++;
    }
    const operations = operationsById(document);

    for (const answer of answers) {
        const operation = operations.get(answer.operationId);
        const response = operation?.responses?.[answer.status];
        // A declared */* (an artifact, whatever its type) covers every content type but problem details.
        const media = answer.callback !== undefined
            ? callbackBody(operation, answer.callback, answer.contentType)
            : response?.content?.[answer.contentType]
                ?? (answer.contentType === 'application/problem+json' ? undefined : response?.content?.['*/*']);
        if (!media) {
            console.log(`undeclared ${answer.label}: ${answer.operationId} ${answer.status} ${answer.contentType}`);
            failed++;
            continue;
        }
        if (answer.body === undefined) {
            console.log(`ok ${answer.label} (declared)`);
            continue;
        }
        const check = ajv.compile({ $defs: defs, ...strict(local(media.schema)) });
        if (check(answer.body)) {
            console.log(`ok ${answer.label}`);
        } else {
            console.log(`invalid ${answer.label}: ${JSON.stringify(check.errors)}`);
            failed++;
        }
    }
    console.log(`${answers.length} answers checked, ${failed} failed`);
    process.exitCode = failed === 0 ? 0 : 1;
} catch (e) {
    console.error(`error: ${e.stack}`);
    process.exitCode = 2;
}

/** The body a callback the operation declares is POSTed with, in that content type. */
function callbackBody(operation, name, contentType) {
    const expressions = Object.values(operation?.callbacks?.[name] ?? {});
    return expressions[0]?.post?.requestBody?.content?.[contentType];
}

function operationsById(document) {
    const byId = new Map();
    for (const path of Object.values(document.paths)) {
        for (const operation of Object.values(path)) {
            if (operation?.operationId) {
                byId.set(operation.operationId, operation);
            }
        }
    }
    return byId;
}

/** The document's references, pointed at $defs of the schema being compiled. */
function local(schema) {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"#/$defs/'));
}

/** Every object schema that declares properties admits no others (a free-form one, like metadata, stays free). */
function strict(schema) {
    if (Array.isArray(schema)) {
        return schema.map(strict);
    }
    if (schema === null || typeof schema !== "object") {
        return schema;
    }
    const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, strict(value)]));
    if (copy.properties && copy.additionalProperties === undefined) {
        copy.additionalProperties = false;
    }
    return copy;
}
