// Parses PromQL expressions with Prometheus' own grammar (@prometheus-io/lezer-promql,
// the parser of Prometheus' web UI) and names the metrics each one selects, so a
// test can hold alerting rules and dashboards to the metrics a worker exposes.
//
// Usage: node check-promql.mjs < expressions.json
//   expressions.json: a JSON array of PromQL strings.
// Prints a JSON array, one entry per expression, in order:
//   {"expr": ..., "metrics": [names selected], "selectors": [each selector as
//    written, with its labels], "problems": [what is wrong]}
// A problem is a syntax error (with the text at its position) or a selector
// without a metric name. Exits 0 when no expression has a problem, 1 when one
// has, 2 on anything else.
import { readFileSync } from "node:fs";
import { parser } from "@prometheus-io/lezer-promql";

function check(expr) {
    const metrics = new Set();
    const selectors = new Set();
    const problems = [];
    parser.parse(expr).iterate({
        enter(node) {
            if (node.type.isError) {
                problems.push(`syntax error at ${node.from}: "${expr.slice(Math.max(0, node.from - 10), node.from + 10)}"`);
            } else if (node.name === "VectorSelector") {
                const name = node.node.getChild("Identifier");
                if (name === null) {
                    problems.push(`a selector without a metric name at ${node.from}`);
                } else {
                    metrics.add(expr.slice(name.from, name.to));
                    selectors.add(expr.slice(node.from, node.to));
                }
            }
        },
    });
    if (expr.trim() === "") {
        problems.push("empty expression");
    }
    return { expr, metrics: [...metrics].sort(), selectors: [...selectors].sort(), problems };
}

try {
    const expressions = JSON.parse(readFileSync(0, "utf8"));
    if (!Array.isArray(expressions) || expressions.some((e) => typeof e !== "string")) {
        throw new Error("expected a JSON array of strings");
    }
    const results = expressions.map(check);
    console.log(JSON.stringify(results, null, 2));
    process.exitCode = results.every((r) => r.problems.length === 0) ? 0 : 1;
} catch (e) {
    console.error(`error: ${e.message}`);
    process.exitCode = 2;
}
