// Makes tool calls through Sluice's MCP server with the official TypeScript
// SDK, one after another in one session, as an orchestrating model's client
// would, and prints what each answered.
//
// Usage: node mcp-calls.mjs <url of /mcp> [bearer token]  < calls.json
// calls.json is an array of {"name", "tool", "arguments"}. Prints one JSON
// object: for each name, {isError, text, json} (json when the text parses).
// Exits 0 when every call was made (whatever it answered), 2 when one threw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";

const [url, token] = process.argv.slice(2);
const calls = JSON.parse(readFileSync(0, "utf8"));
const seen = {};
try {
    const client = new Client({ name: "sluice-mcp-calls", version: "1.0.0" });
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    for (const call of calls) {
        // Past the SDK's default 60 s: a call may wait up to sluice.mcp.max-wait.
        const result = await client.callTool({ name: call.tool, arguments: call.arguments }, undefined, {
            timeout: 120000,
        });
        const text = result.content.map((c) => c.text).join("");
        let json = null;
        try {
            json = JSON.parse(text);
        } catch {
            // left null: the text is what it said
        }
        seen[call.name] = { isError: result.isError === true, text, json };
    }
    await client.close();
    console.log(JSON.stringify(seen));
} catch (e) {
    console.error(`error: ${e?.stack ?? e}`);
    console.log(JSON.stringify(seen));
    process.exitCode = 2;
}
