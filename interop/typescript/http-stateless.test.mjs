// The demo over streamable HTTP, stateless: demo-weather -http 127.0.0.1:0
// -stateless. The SDK speaks protocol versions up to 2025-11-25, whose
// capabilities travel once, in initialize; the stateless handler forgets
// them, so every profile gets the handler's result unchanged (the JSON of
// structuredContent), while the advertisement, the tool list and the errors
// are checked as on the other transports.
import { defineSuite, httpTransport } from './harness.mjs';

defineSuite(httpTransport({ stateless: true }));
