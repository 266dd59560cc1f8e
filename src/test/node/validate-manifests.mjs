// Validates Kubernetes manifests offline against the API's schemas, strictly:
// a wrong type, a missing required field or a field the API does not have
// fails, as a server with strict field validation would refuse it.
//
// Usage: node validate-manifests.mjs PATH...
//   PATH is a kustomization directory (rendered with `kubectl kustomize`),
//   a YAML file (one or more documents), or - for standard input.
// Prints one line per resource, "ok" or "invalid" with every problem's field
// path, then a summary; exits 0 only when every resource is valid.
//
// The schemas are kubernetes-models' (and
// @kubernetes-models/prometheus-operator's and @kubernetes-models/keda's for
// those operators' resources), which ship them compiled into ajv validators:
// they check types and required fields, but accept any property they do not
// know. Strictness is added here without touching them: each resource is
// validated through a proxy that records which properties the schema looked up.
// A schema looks up every property it defines, and enumerates every key of a
// map (labels, data); so a key it never looked up in an object it did inspect
// is one the API does not have. An object the schema never inspects is
// free-form in the API (for example a RawExtension), and is left alone, as the
// API server leaves it.
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { parseAllDocuments } from "yaml";

/** Packages with the models of API groups outside Kubernetes itself, by group. */
const THIRD_PARTY = {
    "monitoring.coreos.com": "@kubernetes-models/prometheus-operator",
    "keda.sh": "@kubernetes-models/keda",
};

/** The model class for apiVersion and kind, or null when no models package has one. */
async function modelFor(apiVersion, kind) {
    if (!/^([a-z0-9.-]+\/)?v[0-9]+((alpha|beta)[0-9]+)?$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) {
        return null;
    }
    const group = apiVersion.includes("/") ? apiVersion.split("/")[0] : "";
    const models = THIRD_PARTY[group] ?? "kubernetes-models";
    try {
        const module = await import(`${models}/${apiVersion}/${kind}`);
        return module[kind] ?? null;
    } catch (e) {
        if (e.code === "ERR_PACKAGE_PATH_NOT_EXPORTED" || e.code === "ERR_MODULE_NOT_FOUND") {
            return null;
        }
        throw e;
    }
}

/** Wraps a value so that every property looked up in any object within it is recorded in `seen`. */
function tracked(value, seen) {
    if (value === null || typeof value !== "object") {
        return value;
    }
    let record = seen.get(value);
    if (!record) {
        record = { inspected: false, keys: new Set() };
        seen.set(value, record);
    }
    const look = (key) => {
        record.inspected = true;
        if (typeof key === "string") {
            record.keys.add(key);
        }
    };
    return new Proxy(value, {
        get(target, key, receiver) {
            look(key);
            return tracked(Reflect.get(target, key, receiver), seen);
        },
        has(target, key) {
            look(key);
            return Reflect.has(target, key);
        },
        ownKeys(target) {
            record.inspected = true;
            return Reflect.ownKeys(target);
        },
    });
}

/** Field paths of the keys the schema never looked up, in objects it inspected. */
function unknownFields(value, seen, path = "", found = []) {
    if (value === null || typeof value !== "object") {
        return found;
    }
    if (Array.isArray(value)) {
        value.forEach((item, i) => unknownFields(item, seen, `${path}/${i}`, found));
        return found;
    }
    const record = seen.get(value);
    for (const key of Object.keys(value)) {
        const child = `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
        if (record && record.inspected && !record.keys.has(key)) {
            found.push(child);
        } else {
            unknownFields(value[key], seen, child, found);
        }
    }
    return found;
}

/** Every problem with one resource, as "field path: what is wrong". */
async function problems(resource) {
    if (resource === null || typeof resource !== "object" || Array.isArray(resource)) {
        return ["/: a resource must be a mapping"];
    }
    const { apiVersion, kind } = resource;
    if (typeof apiVersion !== "string" || typeof kind !== "string") {
        return ["/: apiVersion and kind must be strings"];
    }
    const Model = await modelFor(apiVersion, kind);
    if (!Model) {
        return [`/: no schema for apiVersion ${apiVersion}, kind ${kind}`];
    }
    const found = [];
    const seen = new WeakMap();
    try {
        // The model's own validate(), run on the proxy instead of a copy.
        Model.prototype.validate.call(tracked(resource, seen));
    } catch (e) {
        if (!Array.isArray(e.errors)) {
            throw e;
        }
        for (const error of e.errors) {
            const at = error.instancePath || "/";
            const detail =
                error.keyword === "required" ? `missing required field "${error.params.missingProperty}"` : error.message;
            found.push(`${at}: ${detail}`);
        }
    }
    for (const path of unknownFields(resource, seen)) {
        found.push(`${path}: unknown field "${path.split("/").pop()}"`);
    }
    return found;
}

function read(path) {
    if (path === "-") {
        return readFileSync(0, "utf8");
    }
    if (!statSync(path).isDirectory()) {
        return readFileSync(path, "utf8");
    }
    try {
        return execFileSync("kubectl", ["kustomize", path], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
        throw new Error(e.code === "ENOENT" ? "kubectl is not on PATH" : `kubectl kustomize ${path} failed: ${e.stderr || e.message}`);
    }
}

function name(resource) {
    const meta = resource?.metadata ?? {};
    const id = meta.namespace ? `${meta.namespace}/${meta.name}` : `${meta.name}`;
    return `${resource?.kind ?? "?"} ${id}`;
}

async function main(paths) {
    if (paths.length === 0) {
        console.error("usage: node validate-manifests.mjs PATH... (kustomization directory, YAML file, or -)");
        return 2;
    }
    let checked = 0;
    let invalid = 0;
    for (const path of paths) {
        const documents = parseAllDocuments(read(path));
        for (const document of documents) {
            if (document.errors.length > 0) {
                console.log(`invalid ${path}: not YAML: ${document.errors[0].message}`);
                checked++;
                invalid++;
                continue;
            }
            const resource = document.toJS();
            if (resource === null) {
                continue; // an empty document
            }
            checked++;
            const found = await problems(resource);
            if (found.length === 0) {
                console.log(`ok      ${path}: ${name(resource)}`);
            } else {
                invalid++;
                console.log(`invalid ${path}: ${name(resource)}`);
                for (const problem of found) {
                    console.log(`    ${problem}`);
                }
            }
        }
    }
    if (checked === 0) {
        console.log("no resources found");
        return 1;
    }
    console.log(`${checked} resources checked, ${invalid} invalid`);
    return invalid === 0 ? 0 : 1;
}

try {
    process.exitCode = await main(process.argv.slice(2));
} catch (e) {
    console.error(`error: ${e.message}`);
    process.exitCode = 2;
}
