// Reads one range of a dispatch's log through Sluice's MCP server with the
// official TypeScript SDK, as an orchestrating agent would (read_log).
//
// Usage: node mcp-read-log.mjs <url of /mcp> <bearer token> <id> <stream> <offset> <limit>
// Prints the tool's answer as one JSON object, with isError beside it; exits 2 when a step threw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, id, stream, offset, limit] = process.argv.slice(2);
try {
    const client = new Client({ name: "sluice-mcp-read-log", version: "1.0.0" });
    await client.connect(
        new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    const result = await client.callTool({
        name: "read_log",
        arguments: { id, stream, offset: Number(offset), limit: Number(limit) },
    });
    const text = result.content.map((c) => c.text).join("");
    let answer;
    try {
        answer = JSON.parse(text);
    } catch {
        answer = { text };
    }
    console.log(JSON.stringify({ isError: result.isError === true, answer }));
    await client.close();
} catch (e) {
    console.error(e?.stack ?? String(e));
    process.exit(2);
}
