// Verifies one received callback with the standardwebhooks library, as a
// receiver of Sluice's callbacks would (docs/api.md, 8.10).
//
// Usage: node verify-webhook.mjs < delivery.json
//   delivery.json: {"secret": "whsec_...", "headers": {"webhook-id": ..., ...},
//                   "body": "<the raw request body, base64>"}
// The body travels as base64 so that the bytes verified are the bytes sent.
// Exits 0 and prints "verified" only when new Webhook(secret).verify(body,
// headers) succeeds; prints "rejected: <reason>" and exits 1 when it throws
// WebhookVerificationError; exits 2 on anything else.
import { readFileSync } from "node:fs";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

try {
    const { secret, headers, body } = JSON.parse(readFileSync(0, "utf8"));
    const payload = Buffer.from(body, "base64");
    new Webhook(secret).verify(payload, headers);
    console.log(`verified ${headers["webhook-id"]}`);
} catch (e) {
    if (e instanceof WebhookVerificationError) {
        console.log(`rejected: ${e.message}`);
        process.exitCode = 1;
    } else {
        console.error(`error: ${e.message}`);
        process.exitCode = 2;
    }
}
