// A server-sent events client, as a control plane would write one with Node's own fetch:
// node sse-client.mjs <url> [last-event-id]
// Prints one JSON line when the response's head arrives ({"status": ...}), one per event
// ({"event", "id", "data"}, data parsed as JSON), and {"end": true} when the server closes
// the stream. A bearer token is taken from SLUICE_TOKEN when set.
const [url, lastEventId] = process.argv.slice(2);
const headers = { Accept: 'text/event-stream' };
if (lastEventId) headers['Last-Event-ID'] = lastEventId;
if (process.env.SLUICE_TOKEN) headers.Authorization = `Bearer ${process.env.SLUICE_TOKEN}`;

const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const response = await fetch(url, { headers });
print({ status: response.status, contentType: response.headers.get('content-type') });
if (response.status !== 200) {
  print({ body: await response.text() });
  process.exit(0);
}

// The event stream format (HTML Living Standard, 9.2.6): fields up to a blank line make an event.
const decoder = new TextDecoder();
let buffered = '';
let event = { event: 'message', id: null, data: [] };
for await (const chunk of response.body) {
  buffered += decoder.decode(chunk, { stream: true });
  let newline;
  while ((newline = buffered.search(/\r\n|\r|\n/)) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + (buffered.startsWith('\r\n', newline) ? 2 : 1));
    if (line === '') {
      if (event.data.length > 0) {
        print({ event: event.event, id: event.id, data: JSON.parse(event.data.join('\n')) });
      }
      event = { event: 'message', id: null, data: [] };
    } else if (!line.startsWith(':')) {
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event.event = value;
      else if (field === 'id') event.id = value;
      else if (field === 'data') event.data.push(value);
    }
  }
}
print({ end: true });
