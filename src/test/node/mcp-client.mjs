// Drives Sluice's MCP server with the official TypeScript SDK, as an
// orchestrating agent's MCP client would (docs/api.md, section 2.11).
//
// Usage: node mcp-client.mjs <url of /mcp> <bearer token> <agent image>
// Prints one JSON object with what each step saw; the Java test asserts on it.
// Exits 0 when every step ran (whatever it saw), 2 when one threw unexpectedly.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, image] = process.argv.slice(2);
const REPORT = JSON.stringify({
    summary: "Counted to ten, many times.",
    keyFindings: ["the digits repeat"],
    confidence: "high",
    verdict: "approve",
});
const seen = {};

async function connect(headers) {
    const client = new Client({ name: "sluice-mcp-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    return client;
}

/** A tool's answer: its text parsed, with isError and the text's size in bytes. */
async function call(client, name, args) {
    const result = await client.callTool({ name, arguments: args });
    const text = result.content.map((c) => c.text).join("");
    return { isError: result.isError === true, bytes: Buffer.byteLength(text, "utf8"), text, json: JSON.parse(text) };
}

/** get_result's digest until the dispatch is in one of {@code statuses}; the loop is bounded, not timed. */
async function until(client, id, statuses) {
    for (let i = 0; i < 240; i++) {
        const digest = (await call(client, "get_result", { id })).json;
        if (statuses.includes(digest.status)) {
            return digest;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`${id} never reached ${statuses}`);
}

try {
    try {
        await connect({});
        seen.unauthorized = "connected";
    } catch (e) {
        seen.unauthorized = String(e.message ?? e);
    }

    const client = await connect({ Authorization: `Bearer ${token}` });
    seen.tools = (await client.listTools()).tools.map((t) => t.name).sort();

    const dispatched = await call(client, "dispatch_subagent", {
        image,
        command: ["sh", "-c", "printf '%s' \"$REPORT\" > /sluice/out/report.json; yes 0123456789 | head -c 22000; echo warned >&2"],
        env: { REPORT },
        wait: 30,
    });
    const id = dispatched.json.digest.id;
    seen.dispatched = dispatched.json;
    seen.digest = await until(client, id, ["succeeded", "failed", "timed_out", "cancelled", "error"]);

    const full = await call(client, "get_result", { id, full: true });
    seen.full = { bytes: full.bytes, keys: Object.keys(full.json), json: full.json };

    const first = await call(client, "read_log", { id, stream: "stdout" });
    const next = await call(client, "read_log", { id, stream: "stdout", offset: first.json.nextOffset, limit: 15 });
    seen.logs = {
        first: { bytes: first.bytes, ...first.json, text: first.json.agentWritten["/text"].length },
        next: next.json,
    };

    const sleeper = await call(client, "dispatch_subagent", { image, command: ["sleep", "60"], id: "mcp-sleeper" });
    await until(client, "mcp-sleeper", ["running"]);
    seen.cancel = (await call(client, "cancel", { id: "mcp-sleeper" })).json;
    seen.cancelled = await until(client, "mcp-sleeper", ["cancelled", "succeeded", "failed", "timed_out", "error"]);
    seen.sleeperQueued = sleeper.json.digest.status;

    const wrongType = await call(client, "dispatch_subagent", { image: 5, wait: 1 });
    const unknownArgument = await call(client, "get_result", { id, verbose: true });
    const noImage = await call(client, "dispatch_subagent", { command: ["true"], timeout: "soon" });
    seen.refused = { wrongType, unknownArgument, noImage };
    seen.listed = (await call(client, "list_dispatches", { limit: 5 })).json.items.map((i) => i.id);
    const group = await call(client, "dispatch_group", {
        dispatches: [
            { image, command: ["sh", "-c", "echo one"] },
            { image, command: ["sh", "-c", "echo two; exit 3"] },
        ],
    });
    seen.groupAccepted = group.json;
    let record = group.json;
    for (let i = 0; i < 240 && record.status !== "finished"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        record = (await call(client, "get_group", { id: group.json.id })).json;
    }
    seen.group = record;
    seen.groupRefused = (await call(client, "dispatch_group", { dispatches: [{ image, timeout: "soon" }] })).json;
    try {
        await client.callTool({ name: "no_such_tool", arguments: {} });
        seen.unknownTool = "answered";
    } catch (e) {
        seen.unknownTool = { code: e.code, message: String(e.message) };
    }
    await client.close();
    console.log(JSON.stringify(seen));
} catch (e) {
    console.error(`error: ${e.stack ?? e}`);
    console.log(JSON.stringify(seen));
    process.exitCode = 2;
}
